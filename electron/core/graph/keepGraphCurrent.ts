import type { Breach } from '../../../shared/api/index.ts';
import { replaceGraph } from '../../../engine/graph/breachGraph.ts';
import type { TripleStore } from '../../../engine/graph/TripleStore.ts';

export interface GraphSyncSource {
  /** Fires after each sync with its outcome (the sync scheduler's `onDidSync`). */
  onDidSync(listener: (report: { status: string }) => void): { dispose(): void };
  /** The breaches of the local store, as they are now. */
  readBreaches(): readonly Breach[];
}

/**
 * Builds the graph from the local store now, then again after every successful sync, so the
 * embedded engine answers from what the person sees. A failed rebuild keeps the previous graph
 * (the store's replace is one transaction) and is reported, never thrown into the sync.
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
    if (report.status === 'ok') rebuild();
  });
  // Also when what the graph may hold changed without a sync (the sensitive policy).
  return { dispose: () => subscription.dispose(), rebuild };
}
