import { useCallback, useEffect, useRef, useState } from 'react';
import { parseExpression, type Direction } from '../../../shared/graph/expression.ts';
import type { NodeResponse } from '../../../shared/graph/response.ts';
import type { ChannelResult } from '../../../shared/ipc/contract.ts';
import { invoke, toUiError } from '../../lib/core.ts';
import type { GraphRoute } from '../../lib/urlState.ts';
import { directionOf, expansionFor, mergePage, type NodeKind } from './model.ts';

export type Endpoint = GraphRoute['endpoint'];

/** One query of the pane: the person's own (the root) or the expansion of a node. */
export interface QueryBlock {
  id: number;
  origin: 'root' | 'expand';
  /** The expanded node's kind (expansions only). */
  kind?: NodeKind;
  nodes: string[];
  property: string;
  endpoint: Endpoint;
  direction: Direction;
  status: 'loading' | 'ready' | 'error';
  response?: NodeResponse;
  /** Pages loaded so far (the first answer's and every "Load more"'s). */
  pages: number;
  source?: ChannelResult<'graph-query'>['source'];
  fetchedAt?: string;
  offlineReason?: string;
  error?: string;
  /** Pages are being fetched by "Load more". */
  streaming: boolean;
  moreError?: string;
}

/** Pages one "Load more" fetches at most before it hands control back to the person. */
export const PAGES_PER_LOAD = 10;

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

export function useGraphQueries(): GraphQueries {
  const [blocks, setBlocks] = useState<QueryBlock[]>([]);
  // Answers are applied only to the generation that asked: a new root query drops late ones.
  const generation = useRef(0);
  const nextId = useRef(1);
  const current = useRef<QueryBlock[]>([]);
  const stopped = useRef(new Set<number>());
  current.current = blocks;

  // Leaving the pane drops answers still on their way.
  useEffect(
    () => () => {
      generation.current += 1;
    },
    [],
  );

  const update = useCallback((id: number, patch: Partial<QueryBlock> | ((block: QueryBlock) => Partial<QueryBlock>)) => {
    setBlocks((all) => {
      const next = all.map((block) => (block.id === id ? { ...block, ...(typeof patch === 'function' ? patch(block) : patch) } : block));
      current.current = next;
      return next;
    });
  }, []);

  const fetchFirst = useCallback(
    async (block: QueryBlock) => {
      const mine = generation.current;
      try {
        const result = await invoke('graph-query', { nodes: block.nodes, property: block.property, endpoint: block.endpoint, maxPages: 1 });
        if (mine !== generation.current) return;
        update(block.id, { status: 'ready', response: result.response, pages: result.pages, source: result.source, fetchedAt: result.fetchedAt, offlineReason: result.offlineReason, error: undefined });
      } catch (error) {
        if (mine !== generation.current) return;
        update(block.id, { status: 'error', error: toUiError(error).message });
      }
    },
    [update],
  );

  const newBlock = (origin: QueryBlock['origin'], query: GraphRoute): QueryBlock => {
    const parsed = parseExpression(query.property);
    return {
      id: nextId.current++,
      origin,
      nodes: query.nodes,
      property: query.property,
      endpoint: query.endpoint,
      direction: parsed.ok ? directionOf(parsed.ast) : 'out',
      status: 'loading',
      pages: 0,
      streaming: false,
    };
  };

  const run = useCallback(
    (query: GraphRoute) => {
      generation.current += 1;
      stopped.current.clear();
      const block = newBlock('root', query);
      current.current = [block];
      setBlocks([block]);
      void fetchFirst(block);
    },
    [fetchFirst],
  );

  const covering = useCallback((dcid: string, kind: NodeKind) => {
    const property = expansionFor(kind);
    const root = current.current.find((block) => block.origin === 'root');
    const endpoint = root?.endpoint ?? 'embedded';
    return current.current.find((block) => block.endpoint === endpoint && block.property === property && block.nodes.includes(dcid));
  }, []);

  const expand = useCallback(
    (dcid: string, kind: NodeKind) => {
      const existing = covering(dcid, kind);
      if (existing) return existing.id;
      const root = current.current.find((block) => block.origin === 'root');
      if (!root) return undefined;
      // Expansions ask the endpoint the root query asked, so the graph stays one source's.
      const block: QueryBlock = { ...newBlock('expand', { nodes: [dcid], property: expansionFor(kind), endpoint: root.endpoint }), kind };
      const next = [...current.current, block];
      current.current = next;
      setBlocks(next);
      void fetchFirst(block);
      return block.id;
    },
    [covering, fetchFirst],
  );

  const loadMore = useCallback(
    async (id: number) => {
      const block = current.current.find((b) => b.id === id);
      const token = block?.response?.nextToken;
      if (!block || token === undefined || block.streaming) return;
      const mine = generation.current;
      stopped.current.delete(id);
      update(id, { streaming: true, moreError: undefined });
      // One page per call rather than `maxPages` in one: the table grows and the progress
      // moves while pages arrive, and Stop takes effect between two pages.
      let next: string | undefined = token;
      let loaded = 0;
      try {
        while (next !== undefined && loaded < PAGES_PER_LOAD && !stopped.current.has(id)) {
          const result: ChannelResult<'graph-query'> = await invoke('graph-query', { nodes: block.nodes, property: block.property, endpoint: block.endpoint, nextToken: next, maxPages: 1 });
          if (mine !== generation.current || !current.current.some((b) => b.id === id)) return;
          loaded += 1;
          update(id, (b) => ({ response: mergePage(b.response, result.response), pages: b.pages + result.pages, source: result.source, fetchedAt: result.fetchedAt, offlineReason: result.offlineReason }));
          next = result.response.nextToken;
        }
        update(id, { streaming: false });
      } catch (error) {
        if (mine !== generation.current) return;
        update(id, { streaming: false, moreError: toUiError(error).message });
      }
    },
    [update],
  );

  const stop = useCallback((id: number) => {
    stopped.current.add(id);
  }, []);

  const retry = useCallback(
    (id: number) => {
      const block = current.current.find((b) => b.id === id);
      if (!block) return;
      const fresh: QueryBlock = { ...block, status: 'loading', response: undefined, pages: 0, error: undefined, moreError: undefined, streaming: false };
      update(id, fresh);
      void fetchFirst(fresh);
    },
    [fetchFirst, update],
  );

  const remove = useCallback((id: number) => {
    stopped.current.add(id);
    setBlocks((all) => {
      const next = all.filter((block) => block.id !== id);
      current.current = next;
      return next;
    });
  }, []);

  return { blocks, run, expand, covering, loadMore, stop, retry, remove };
}
