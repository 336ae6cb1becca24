import { creditsHibp, viewCreditsHibp } from '../../../shared/ipc/checks.ts';
import { readChecksView } from '../db/breachDataQueries.ts';
import type { ReadableDB } from '../db/Interface.ts';

// The rule itself is shared: the renderer applies it to what it shows beside the core's views
// (the graph pane's embedded answers).
export { creditsHibp };

/** {@link creditsHibp} for the account database's recorded source and last checks answer. */
export function accountCreditsHibp(db: ReadableDB): boolean {
  return viewCreditsHibp(readChecksView(db));
}
