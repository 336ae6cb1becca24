import type { Breach } from '../../../shared/api/index.ts';
import { replaceGraph } from '../../../engine/graph/breachGraph.ts';
import type { TripleStore } from '../../../engine/graph/TripleStore.ts';

/** What the graph needs of a sync's report: whether it ended well, and whether its pull changed the local breaches. */
export interface GraphSyncReport {
  status: string;
  pull?: { status: string; demoCleared?: number } | undefined;
}

export interface GraphSyncSource {
  /** Fires after each sync with its outcome (the sync scheduler's `onDidSync`). */
  onDidSync(listener: (report: GraphSyncReport) => void): { dispose(): void };
  /** The breaches of the local store, as they are now. */
  readBreaches(): readonly Breach[];
}

/**
 * Whether a sync changed the breaches the graph is built from: a new snapshot applied, or demo
 * breaches cleared by a 304's headers. A sync that found nothing new (a 304, the tray app's
 * usual background sync) or only pushed toggles (resolutions are not in the graph) did not.
 */
export function changedBreaches(report: GraphSyncReport): boolean {
  return report.status === 'ok' && (report.pull?.status === 'applied' || (report.pull?.demoCleared ?? 0) > 0);
}

/**
 * Builds the graph from the local store now, then again after every sync that changed its
 * breaches, so the embedded engine answers from what the person sees. Not after the others:
 * for a heavy user a rebuild reads 2,000 breaches and rewrites their triples, tens of
 * milliseconds and a database write every background sync for nothing (bench:idle). A failed
 * rebuild keeps the previous graph (the store's replace is one transaction) and is reported,
 * never thrown into the sync.
 */
export function keepGraphCurrent(
  store: TripleStore,
  source: GraphSyncSource,
  onError: (error: unknown) => void = (error) => console.error('graph rebuild failed', error),
): { dispose(): void; rebuild(): void } {
  const rebuild = () => {
    try {
      replaceGraph(store, source.readBreaches());
    } catch (error) {
      onError(error);
    }
  };
  rebuild();
  const subscription = source.onDidSync((report) => {
    if (changedBreaches(report)) rebuild();
  });
  // Also when what the graph may hold changed without a sync (the sensitive policy).
  return { dispose: () => subscription.dispose(), rebuild };
}
