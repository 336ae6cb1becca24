import { sharedHttpMonitor } from './httpMonitor.ts';

/**
 * What the first screen needs from the core, asked before anything else of the bundle runs:
 * `main.tsx` imports this module first, so in a web browser (the browser host; no preload
 * bridge) these calls travel while React and the features are still evaluating, and the
 * stores' first `invoke`s take their answers. In Electron the preload's bridge answers over IPC
 * and nothing is asked here. `checks-get` is among them so a demo label is in the first frame
 * rather than arriving one later.
 */
if (!window.monitor) sharedHttpMonitor({ preload: ['auth-status', 'sync-status', 'settings-get', 'checks-get'] });
