import { create } from 'zustand';
import { parseExpression, type Direction } from '../../shared/graph/expression.ts';
import type { NodeResponse } from '../../shared/graph/response.ts';
import type { ChannelResult, GraphRemote } from '../../shared/ipc/contract.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { directionOf, expansionFor, kindOf, mergePage, type NodeKind } from '../lib/graphAnswers.ts';
import { invoke, toUiError, type UiError } from '../lib/core.ts';
import type { GraphRoute } from '../lib/urlState.ts';

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

/** Names of the person's own data the start-node picker offers. */
export interface StartNodeSuggestions {
  breach: string[];
  domain: string[];
  dataClass: string[];
}

export interface GraphStore {
  blocks: QueryBlock[];
  /** The remote endpoint as saved (never its key); undefined until read. */
  remote?: GraphRemote;
  suggestions: StartNodeSuggestions;
  /** A new root query; `thenExpand` names an arc whose nodes are expanded once it answers (a preset's second step). */
  run(query: GraphRoute, thenExpand?: string): void;
  /** The block answering the node's expansion: an existing one, or a new one. */
  expand(dcid: string, kind: NodeKind): number | undefined;
  covering(dcid: string, kind: NodeKind): QueryBlock | undefined;
  loadMore(id: number): Promise<void>;
  stop(id: number): void;
  retry(id: number): void;
  remove(id: number): void;
  /** Leaving the pane: answers still on their way are dropped. */
  leave(): void;
  /** Reads the saved endpoint; rejects with a UiError. */
  loadRemote(): Promise<GraphRemote>;
  /** Saves the endpoint (and a key, write-only); rejects with a UiError. */
  saveRemote(url: string, apiKey?: string): Promise<GraphRemote>;
  /** Suggestions only: a failure leaves the field free text, which still works. */
  loadSuggestions(): Promise<void>;
  /** Forgets the queries, the remote endpoint's view and the suggestions (another account's). */
  reset(): void;
}

// Answers are applied only to the generation that asked: a new root query drops late ones.
let generation = 0;
let nextId = 1;
const stopped = new Set<number>();

function newBlock(origin: QueryBlock['origin'], query: GraphRoute): QueryBlock {
  const parsed = parseExpression(query.property);
  return {
    id: nextId++,
    origin,
    nodes: query.nodes,
    property: query.property,
    endpoint: query.endpoint,
    direction: parsed.ok ? directionOf(parsed.ast) : 'out',
    status: 'loading',
    pages: 0,
    streaming: false,
  };
}

/** The graph pane's queries, its remote endpoint and its start-node suggestions: every call to the core for the pane goes through here. */
export const useGraph = create<GraphStore>()((set, get) => {
  const update = (id: number, patch: Partial<QueryBlock> | ((block: QueryBlock) => Partial<QueryBlock>)) =>
    set((state) => ({ blocks: state.blocks.map((block) => (block.id === id ? { ...block, ...(typeof patch === 'function' ? patch(block) : patch) } : block)) }));

  const fetchFirst = async (block: QueryBlock, thenExpand?: string) => {
    const mine = generation;
    try {
      const result = await invoke('graph-query', { nodes: block.nodes, property: block.property, endpoint: block.endpoint, maxPages: 1 });
      if (mine !== generation) return;
      update(block.id, { status: 'ready', response: result.response, pages: result.pages, source: result.source, fetchedAt: result.fetchedAt, offlineReason: result.offlineReason, error: undefined });
      if (thenExpand === undefined) return;
      // The preset's second hop: each node reached over the arc, expanded as a click would.
      const reached = new Map<string, NodeKind>();
      for (const data of Object.values(result.response.data))
        for (const item of data.arcs?.[thenExpand]?.nodes ?? []) if (item.dcid !== undefined) reached.set(item.dcid, kindOf(item.dcid, item.types));
      for (const [dcid, kind] of reached) get().expand(dcid, kind);
    } catch (error) {
      if (mine !== generation) return;
      update(block.id, { status: 'error', error: toUiError(error).message });
    }
  };

  return {
    blocks: [],
    suggestions: { breach: [], domain: [], dataClass: [] },

    run(query, thenExpand) {
      generation += 1;
      stopped.clear();
      const block = newBlock('root', query);
      set({ blocks: [block] });
      void fetchFirst(block, thenExpand);
    },

    covering(dcid, kind) {
      const property = expansionFor(kind);
      const { blocks } = get();
      const endpoint = blocks.find((block) => block.origin === 'root')?.endpoint ?? 'embedded';
      return blocks.find((block) => block.endpoint === endpoint && block.property === property && block.nodes.includes(dcid));
    },

    expand(dcid, kind) {
      const existing = get().covering(dcid, kind);
      if (existing) return existing.id;
      const root = get().blocks.find((block) => block.origin === 'root');
      if (!root) return undefined;
      // Expansions ask the endpoint the root query asked, so the graph stays one source's.
      const block: QueryBlock = { ...newBlock('expand', { nodes: [dcid], property: expansionFor(kind), endpoint: root.endpoint }), kind };
      set((state) => ({ blocks: [...state.blocks, block] }));
      void fetchFirst(block);
      return block.id;
    },

    async loadMore(id) {
      const block = get().blocks.find((b) => b.id === id);
      const token = block?.response?.nextToken;
      if (!block || token === undefined || block.streaming) return;
      const mine = generation;
      stopped.delete(id);
      update(id, { streaming: true, moreError: undefined });
      // One page per call rather than `maxPages` in one: the table grows and the progress
      // moves while pages arrive, and Stop takes effect between two pages.
      let next: string | undefined = token;
      let loaded = 0;
      try {
        while (next !== undefined && loaded < PAGES_PER_LOAD && !stopped.has(id)) {
          const result: ChannelResult<'graph-query'> = await invoke('graph-query', { nodes: block.nodes, property: block.property, endpoint: block.endpoint, nextToken: next, maxPages: 1 });
          if (mine !== generation || !get().blocks.some((b) => b.id === id)) return;
          loaded += 1;
          update(id, (b) => ({
            response: mergePage(b.response, result.response),
            pages: b.pages + result.pages,
            source: result.source,
            fetchedAt: result.fetchedAt,
            offlineReason: result.offlineReason,
          }));
          next = result.response.nextToken;
        }
        update(id, { streaming: false });
      } catch (error) {
        if (mine !== generation) return;
        update(id, { streaming: false, moreError: toUiError(error).message });
      }
    },

    stop(id) {
      stopped.add(id);
    },

    retry(id) {
      const block = get().blocks.find((b) => b.id === id);
      if (!block) return;
      const fresh: QueryBlock = { ...block, status: 'loading', response: undefined, pages: 0, error: undefined, moreError: undefined, streaming: false };
      update(id, fresh);
      void fetchFirst(fresh);
    },

    remove(id) {
      stopped.add(id);
      set((state) => ({ blocks: state.blocks.filter((block) => block.id !== id) }));
    },

    leave() {
      generation += 1;
      // A later visit starts from its own route, not from this one's blocks.
      set({ blocks: [] });
    },

    async loadRemote() {
      const remote = await invoke('graph-remote-get', {});
      set({ remote });
      return remote;
    },

    async saveRemote(url, apiKey) {
      const remote = await invoke('graph-remote-set', { url, ...(apiKey ? { apiKey } : {}) });
      set({ remote });
      return remote;
    },

    async loadSuggestions() {
      const [list, domains, classes] = await Promise.allSettled([invoke('breaches-list', {}), invoke('breaches-domains', {}), invoke('breaches-data-classes', {})]);
      set((state) => ({
        suggestions: {
          breach: list.status === 'fulfilled' ? list.value.rows.map((row) => row.breach.id).sort((a, b) => a.localeCompare(b)) : state.suggestions.breach,
          domain: domains.status === 'fulfilled' ? domains.value : state.suggestions.domain,
          dataClass: classes.status === 'fulfilled' ? classes.value : state.suggestions.dataClass,
        },
      }));
    },

    reset() {
      generation += 1;
      stopped.clear();
      set({ blocks: [], remote: undefined, suggestions: { breach: [], domain: [], dataClass: [] } });
    },
  };
});

onAccountChange(() => useGraph.getState().reset());

export type { UiError };
