import {
  arcKey,
  GraphLimits,
  NodeRequest,
  parseExpression,
  printExpression,
  type Direction,
  type FilterTerm,
  type Hop,
  type NodeData,
  type NodeItem,
  type NodeResponse,
} from '../../shared/graph/index.ts';
import { openPageToken, PageTokenError, sealPageToken, type PageCursor, type TokenBinding } from './pageToken.ts';
import type { ArcRow, ItemKey, NodeRow, TripleStore } from './TripleStore.ts';

/** How far `label+` follows the label. */
export const MAX_HOPS = 10;
export const MAX_PAGE_SIZE = 10_000;

export type GraphQueryField = 'nodes' | 'property' | 'nextToken' | 'pageSize';

/** A request the engine refuses; the message is meant for the person who wrote it. */
export class GraphQueryError extends Error {
  override readonly name = 'GraphQueryError';
  readonly field: GraphQueryField;
  /** Offset into the expression, for `field: 'property'` errors from the parser. */
  readonly index: number | undefined;
  constructor(message: string, field: GraphQueryField, index?: number) {
    super(message);
    this.field = field;
    this.index = index;
  }
}

export interface NodeQueryInput {
  nodes: readonly string[];
  property: string;
  nextToken?: string | undefined;
}

interface ArcSpec {
  key: string;
  predicate: string;
  repeat: boolean;
  filter: FilterTerm[];
}

const CLOSURE_CACHE_SIZE = 16;

/**
 * Answers the graph node query interface over a {@link TripleStore}: `{data, nextToken?}` with
 * exactly the interface's shapes. Values are paged across nodes and arcs, `pageSize` items a
 * page, in a fixed order (nodes by dcid, arcs by label, literals by value before nodes by dcid),
 * so a token is a position in that order.
 */
export class NodeQueryEngine {
  readonly #store: TripleStore;
  readonly #pageSize: number;
  /** `label+` answers recomputed for every page would cost a traversal per page; keep the last few. */
  readonly #closures = new Map<string, NodeRow[]>();

  constructor(store: TripleStore, options: { pageSize?: number } = {}) {
    this.#store = store;
    this.#pageSize = checkPageSize(options.pageSize ?? GraphLimits.pageSize);
  }

  query(input: NodeQueryInput, options: { pageSize?: number } = {}): NodeResponse {
    const pageSize = checkPageSize(options.pageSize ?? this.#pageSize);
    const request = NodeRequest.safeParse({ nodes: input.nodes, property: input.property, ...(input.nextToken !== undefined ? { nextToken: input.nextToken } : {}) });
    if (!request.success) {
      const issue = request.error.issues[0]!;
      const field = issue.path[0] === 'nodes' || issue.path[0] === 'nextToken' ? issue.path[0] : 'property';
      throw new GraphQueryError(`${String(issue.path.join('.') || field)}: ${issue.message}`, field);
    }
    const parsed = parseExpression(request.data.property);
    if (!parsed.ok) throw new GraphQueryError(parsed.error.message, 'property', parsed.error.index);
    if (parsed.ast.hops.length > 1) {
      throw new GraphQueryError(`this service answers one arrow per expression; "${request.data.property}" has ${parsed.ast.hops.length} (query one hop at a time)`, 'property');
    }
    const hop = parsed.ast.hops[0]!;
    const nodes = [...new Set(request.data.nodes)].sort();
    const binding: TokenBinding = { nodes, property: printExpression(parsed.ast), generation: this.#store.generation() };
    const cursor = request.data.nextToken === undefined ? undefined : this.#openToken(request.data.nextToken, binding, nodes.length);

    // Maps, not object literals, while collecting: a node or label named `__proto__` is data here.
    const answers = new Map<string, NodeData>(nodes.map((node) => [node, {}]));
    if (hop.body.kind === 'labels') {
      for (const node of nodes) {
        const properties = this.#store.labels(node, hop.direction);
        if (properties.length > 0) answers.set(node, { properties });
      }
      return { data: Object.fromEntries(answers) };
    }

    const arcsOf = new Map<string, Map<string, NodeItem[]>>();
    const answer = (nextToken?: string): NodeResponse => {
      for (const [node, arcs] of arcsOf) answers.set(node, { arcs: Object.fromEntries([...arcs].map(([key, items]) => [key, { nodes: items }])) });
      const data = Object.fromEntries(answers);
      return nextToken === undefined ? { data } : { data, nextToken };
    };
    let remaining = pageSize;
    let last: PageCursor | undefined;
    for (let i = cursor?.node ?? 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      const arcs = this.#arcs(node, hop);
      let first = 0;
      if (cursor && i === cursor.node) {
        first = arcs.findIndex((arc) => arc.key === cursor.arc);
        if (first < 0) throw new GraphQueryError('the graph changed since this nextToken was issued; start the query again', 'nextToken');
      }
      for (let a = first; a < arcs.length; a++) {
        const arc = arcs[a]!;
        const after = cursor && i === cursor.node && a === first ? cursor.after : undefined;
        // One row more than fits tells whether another page exists without counting the rest.
        const rows = this.#rows(node, hop.direction, arc, after, remaining + 1);
        if (rows.length === 0) continue;
        if (remaining === 0) return answer(sealPageToken(this.#store.tokenSecret(), binding, last!));
        const taken = rows.length > remaining ? rows.slice(0, remaining) : rows;
        let answered = arcsOf.get(node);
        if (!answered) arcsOf.set(node, (answered = new Map()));
        answered.set(
          arc.key,
          taken.map((row) => toItem(row, arc.repeat)),
        );
        remaining -= taken.length;
        const end = taken.at(-1)!;
        last = { node: i, arc: arc.key, after: { kind: end.kind, key: end.key } };
        if (rows.length > taken.length) return answer(sealPageToken(this.#store.tokenSecret(), binding, last));
      }
    }
    return answer();
  }

  #openToken(token: string, binding: TokenBinding, nodeCount: number): PageCursor {
    let cursor: PageCursor;
    try {
      cursor = openPageToken(this.#store.tokenSecret(), token, binding);
    } catch (error) {
      if (error instanceof PageTokenError) throw new GraphQueryError(error.message, 'nextToken');
      throw error;
    }
    if (cursor.node < 0 || cursor.node >= nodeCount) throw new GraphQueryError('nextToken does not fit this query; start the query again', 'nextToken');
    return cursor;
  }

  /** The arcs a hop asks of one node, in answer order. */
  #arcs(node: string, hop: Hop): ArcSpec[] {
    const body = hop.body;
    switch (body.kind) {
      case 'all':
        return this.#store.labels(node, hop.direction).map((label) => ({ key: label, predicate: label, repeat: false, filter: [] }));
      case 'list':
        return [...new Set(body.properties)].sort().map((label) => ({ key: label, predicate: label, repeat: false, filter: [] }));
      case 'property':
        return [{ key: arcKey(body.property, body.repeat), predicate: body.property, repeat: body.repeat, filter: body.filter }];
      case 'labels':
        return [];
    }
  }

  #rows(node: string, direction: Direction, arc: ArcSpec, after: ItemKey | undefined, limit: number): ArcRow[] {
    if (!arc.repeat) return this.#store.arcRows(node, direction, arc.predicate, { after, limit, filter: arc.filter });
    const closure = this.#closure(node, direction, arc.predicate, arc.filter);
    // Within one generation the closure is the same list, so the cursor's dcid is in it.
    const start = after ? closure.findIndex((row) => row.dcid === after.key) + 1 : 0;
    if (after && start === 0) throw new GraphQueryError('the graph changed since this nextToken was issued; start the query again', 'nextToken');
    return closure.slice(start, start + limit).map((row) => ({ kind: 'node', key: row.dcid, provenance: '', name: row.name, types: row.types }));
  }

  /**
   * Every node reached from `start` over 1..MAX_HOPS `predicate` arcs, breadth first. The visited
   * set (which holds `start`) makes cycles harmless: a node is expanded once, and `start` is never
   * its own answer. The filter selects answers; it does not prune the walk.
   */
  #closure(start: string, direction: Direction, predicate: string, filter: readonly FilterTerm[]): NodeRow[] {
    const cacheKey = JSON.stringify([this.#store.generation(), start, direction, predicate, filter]);
    const cached = this.#closures.get(cacheKey);
    if (cached) {
      this.#closures.delete(cacheKey);
      this.#closures.set(cacheKey, cached);
      return cached;
    }
    const visited = new Set([start]);
    const reached: string[] = [];
    let frontier = [start];
    for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop++) {
      const next: string[] = [];
      for (const id of this.#store.step(frontier, direction, predicate)) {
        if (visited.has(id)) continue;
        visited.add(id);
        next.push(id);
        reached.push(id);
      }
      frontier = next;
    }
    const rows = this.#store.describe(reached, filter);
    if (this.#closures.size >= CLOSURE_CACHE_SIZE) this.#closures.delete(this.#closures.keys().next().value!);
    this.#closures.set(cacheKey, rows);
    return rows;
  }
}

/**
 * Field presence as the real service answers (fixtures 02, 07, 08, 10): a literal carries
 * `provenanceId` and `value`; a node value carries `dcid`, `provenanceId`, and `name`/`types`
 * where known; a `label+` answer is reached over several arcs, so it has no single provenance
 * and carries only `dcid` with `name`/`types` where known.
 */
function toItem(row: ArcRow, chained: boolean): NodeItem {
  if (row.kind === 'literal') return { provenanceId: row.provenance, value: row.key };
  const item: NodeItem = {};
  if (row.name !== undefined) item.name = row.name;
  if (row.types.length > 0) item.types = row.types;
  item.dcid = row.key;
  if (!chained) item.provenanceId = row.provenance;
  return item;
}

function checkPageSize(pageSize: number): number {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new GraphQueryError(`pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`, 'pageSize');
  }
  return pageSize;
}
