import { firstRowsQuery } from './firstRows.ts';
import { EMPTY_FILTERS, parseHash } from './urlState.ts';
import { sharedHttpMonitor, type PreloadRequest } from './httpMonitor.ts';

/**
 * What the first screen needs from the core, asked before the rest of the bundle runs:
 * `main.tsx` imports this module first, so in a web browser (the browser host; no preload
 * bridge) these questions travel while React and the features are still evaluating, and the
 * stores' first `invoke`s take their answers. In Electron the preload's bridge answers over IPC
 * and nothing is asked here. Two batches, one round trip each:
 * - what every screen needs before it draws (`main.tsx` waits for these): the sign-in state,
 *   the sync line, the settings and the breach-data checks (so a demo label is in the first
 *   frame rather than arriving one later);
 * - the first screen's data, which the core computes while the page evaluates its bundle
 *   instead of after the first render: the list's first rows (the Breaches page's own question,
 *   or the unfiltered list the shell prefetches under any other screen) and, on the overview,
 *   its figures.
 */
function firstScreen(): PreloadRequest[] {
  const route = parseHash(window.location.hash);
  const list: PreloadRequest = { channel: 'breaches-list', args: firstRowsQuery(route.screen === 'breaches' ? route.filters : EMPTY_FILTERS) };
  return route.screen === 'overview' ? [list, { channel: 'overview-get' }] : [list];
}

if (!window.monitor) {
  sharedHttpMonitor({
    preload: [[{ channel: 'auth-status' }, { channel: 'sync-status' }, { channel: 'settings-get' }, { channel: 'checks-get' }], firstScreen()],
  });
}
