import { useEffect } from 'react';
import { useGraph, type QueryBlock } from '../../state/graph.ts';
import type { NodeKind } from './model.ts';
import type { GraphRoute } from '../../lib/urlState.ts';

export { PAGES_PER_LOAD, type Endpoint, type QueryBlock } from '../../state/graph.ts';

export interface GraphQueries {
  blocks: QueryBlock[];
  run(query: GraphRoute): void;
  /** The block answering the node's expansion: an existing one, or a new one. */
  expand(dcid: string, kind: NodeKind): number | undefined;
  covering(dcid: string, kind: NodeKind): QueryBlock | undefined;
  loadMore(id: number): Promise<void>;
  stop(id: number): void;
  retry(id: number): void;
  remove(id: number): void;
}

/** The pane's view of the graph store; leaving the pane drops answers still on their way. */
export function useGraphQueries(): GraphQueries {
  const blocks = useGraph((state) => state.blocks);
  useEffect(() => () => useGraph.getState().leave(), []);
  const { run, expand, covering, loadMore, stop, retry, remove } = useGraph.getState();
  return { blocks, run, expand, covering, loadMore, stop, retry, remove };
}
