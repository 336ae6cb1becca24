import { useEffect } from 'react';
import { useGraph, type GraphStore } from '../../state/graph.ts';

export { PAGES_PER_LOAD, type Endpoint, type QueryBlock } from '../../state/graph.ts';

export type GraphQueries = Pick<GraphStore, 'blocks' | 'run' | 'expand' | 'covering' | 'loadMore' | 'stop' | 'retry' | 'remove'>;

/** The pane's view of the graph store; leaving the pane drops answers still on their way. */
export function useGraphQueries(): GraphQueries {
  const blocks = useGraph((state) => state.blocks);
  useEffect(() => () => useGraph.getState().leave(), []);
  const { run, expand, covering, loadMore, stop, retry, remove } = useGraph.getState();
  return { blocks, run, expand, covering, loadMore, stop, retry, remove };
}
