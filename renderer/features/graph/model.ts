// The graph pane's data model: pure functions over the node query interface's answers
// (shared/graph/response.ts), so the table, the drawing and the tests read the same rows.
// Nothing here touches the DOM: the end-to-end test reads labels with it too. What the graph
// store reads as well (a node's kind, its expansion, merging pages) is in lib/graphAnswers.ts;
// node ids are the engine's own (shared/graph/nodeIds.ts).
import type { Direction } from '../../../shared/graph/expression.ts';
import type { NodeItem, NodeResponse } from '../../../shared/graph/response.ts';
import { kindOf, type NodeKind } from '../../lib/graphAnswers.ts';

/** The labels of the breach graph (CONTRACT.md), offered by the expression builder. */
export const BREACH_LABELS = ['typeOf', 'name', 'domain', 'dataClass', 'breachDate', 'addedDate', 'modifiedDate', 'isSensitive'] as const;

export const KIND_LABELS: Record<NodeKind, string> = {
  Breach: 'Breach',
  Domain: 'Domain',
  DataClass: 'Data class',
  Class: 'Type',
  literal: 'Value',
  other: 'Node',
  group: 'More nodes',
};

/**
 * A readable name for a node without one in the answers: `domain/adobe.com` → `adobe.com`,
 * `dataClass/email-addresses` → `Email addresses`; anything else is its own id.
 */
export function readableLabel(dcid: string): string {
  if (dcid.startsWith('domain/')) return dcid.slice('domain/'.length);
  if (dcid.startsWith('dataClass/')) {
    const words = dcid.slice('dataClass/'.length).replace(/-/g, ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return dcid;
}

/** Start nodes as a person types them: comma separated, trimmed, each once. */
export function parseNodeList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
  ];
}

/** One line of an answer: a value of an arc of a queried node, or one of its labels. */
export interface ResultRow {
  key: string;
  /** The queried node. */
  subject: string;
  /** The arc's key as answered (`dataClass`, `containedInPlace+`), or the label of a labels-only answer. */
  arc: string;
  direction: Direction;
  kind: 'node' | 'literal' | 'label' | 'none';
  /** The linked node's id (node rows). */
  target?: string;
  name?: string;
  types?: string[];
  /** The literal (literal rows). */
  value?: string;
}

/** Rows in the answer's own order; a queried node with nothing to answer gets one `none` row. */
export function rowsOf(response: NodeResponse | undefined, nodes: readonly string[], direction: Direction): ResultRow[] {
  if (!response) return [];
  const rows: ResultRow[] = [];
  const order = [...new Set([...nodes, ...Object.keys(response.data)])];
  for (const subject of order) {
    const data = response.data[subject];
    let any = false;
    for (const label of data?.properties ?? []) {
      any = true;
      rows.push({ key: `${subject}\u0000label\u0000${label}`, subject, arc: label, direction, kind: 'label' });
    }
    for (const [arc, { nodes: items }] of Object.entries(data?.arcs ?? {})) {
      items.forEach((item, index) => {
        any = true;
        rows.push(itemRow(subject, arc, direction, item, index));
      });
    }
    if (!any) rows.push({ key: `${subject}\u0000none`, subject, arc: '', direction, kind: 'none' });
  }
  return rows;
}

function itemRow(subject: string, arc: string, direction: Direction, item: NodeItem, index: number): ResultRow {
  const base = { subject, arc, direction };
  if (item.dcid !== undefined) {
    return {
      ...base,
      key: `${subject}\u0000${arc}\u0000n\u0000${item.dcid}`,
      kind: 'node',
      target: item.dcid,
      ...(item.name !== undefined ? { name: item.name } : {}),
      ...(item.types ? { types: item.types } : {}),
    };
  }
  // Two equal literals on one arc are two values; the index keeps their keys apart.
  return { ...base, key: `${subject}\u0000${arc}\u0000v\u0000${index}\u0000${item.value ?? ''}`, kind: 'literal', value: item.value ?? '' };
}

// ── the drawing ─────────────────────────────────────────────────────────────

export interface GraphNode {
  id: string;
  label: string;
  kind: NodeKind;
  /** Literal values and type-less unknowns are leaves; everything with an id can be expanded. */
  expandable: boolean;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

/** The neighbours of one node over one arc past what the drawing shows: one "+N more" node. */
export interface GraphGroup {
  /** Stable across answers: the subject, the direction and the arc. */
  key: string;
  subject: string;
  subjectLabel: string;
  arc: string;
  direction: Direction;
  /** What the neighbours are, in the plural ("breaches", "data classes", or the arc's name). */
  noun: string;
  /** Neighbours drawn, and neighbours waiting in the group. */
  shown: number;
  hidden: number;
}

export interface GraphModel {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Nodes left out of the drawing (the table still has them). */
  omitted: number;
  /** Groups of neighbours drawn as one "+N more" node each. */
  groups: GraphGroup[];
  /** Distinct nodes that are only in groups (not drawn one by one). */
  grouped: number;
}

export interface GraphOptions {
  literals: boolean;
  maxNodes: number;
  /** Neighbours of one node over one arc drawn one by one; the rest wait in a group. */
  groupLimit?: number;
  /** Per group key, how many neighbours the person asked to see (paging a group). */
  shown?: ReadonlyMap<string, number>;
}

const PLURALS: Partial<Record<NodeKind, string>> = { Breach: 'breaches', Domain: 'domains', DataClass: 'data classes', Class: 'types', literal: 'values' };

export function groupNodeId(key: string): string {
  return `group\u0000${key}`;
}

export interface AnsweredQuery {
  nodes: readonly string[];
  direction: Direction;
  response?: NodeResponse | undefined;
}

/**
 * Every answered query merged into one graph. Nodes are keyed by id, so an expansion that
 * reaches a node already drawn links to it. Edges keep the arc's real direction: an incoming
 * answer `X` of `<-dataClass` on `D` is the edge X → D. Literals are leaves of their own (the
 * same date on two breaches is a coincidence, not a shared node).
 */
export function buildGraph(queries: readonly AnsweredQuery[], options: GraphOptions): GraphModel {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const types = new Map<string, Set<string>>();
  const names = new Map<string, string>();
  let omitted = 0;
  const groups = new Map<string, GraphGroup>();
  const inGroups = new Set<string>();

  const learn = (dcid: string, item?: { name?: string | undefined; types?: string[] | undefined }) => {
    if (item?.name !== undefined && !names.has(dcid)) names.set(dcid, item.name);
    for (const type of item?.types ?? []) (types.get(dcid) ?? types.set(dcid, new Set()).get(dcid)!).add(type);
  };
  // A node's own `typeOf` and `name` arcs describe it as well as an item does.
  for (const query of queries)
    for (const [subject, data] of Object.entries(query.response?.data ?? {})) {
      if (query.direction !== 'out') continue;
      for (const item of data.arcs?.typeOf?.nodes ?? []) if (item.dcid) learn(subject, { types: [item.dcid] });
      const name = data.arcs?.name?.nodes[0]?.value;
      if (name !== undefined) learn(subject, { name });
    }
  for (const query of queries)
    for (const data of Object.values(query.response?.data ?? {})) for (const arc of Object.values(data.arcs ?? {})) for (const item of arc.nodes) if (item.dcid) learn(item.dcid, item);

  const addNode = (id: string, node: () => GraphNode): boolean => {
    if (nodes.has(id)) return true;
    if (nodes.size >= options.maxNodes) {
      omitted += 1;
      return false;
    }
    nodes.set(id, node());
    return true;
  };
  const entity = (dcid: string) => (): GraphNode => {
    const kind = kindOf(dcid, [...(types.get(dcid) ?? [])]);
    return { id: dcid, label: names.get(dcid) ?? readableLabel(dcid), kind, expandable: true };
  };

  for (const query of queries) {
    for (const subject of query.nodes) addNode(subject, entity(subject));
    for (const [subject, data] of Object.entries(query.response?.data ?? {})) {
      if (!addNode(subject, entity(subject))) continue;
      for (const [arc, { nodes: items }] of Object.entries(data.arcs ?? {})) {
        const key = `${subject}\u0000${query.direction}\u0000${arc}`;
        const limit = options.groupLimit === undefined ? Infinity : Math.max(options.groupLimit, options.shown?.get(key) ?? 0);
        const drawable = options.literals ? items : items.filter((item) => item.dcid !== undefined);
        let group: GraphGroup | undefined;
        if (drawable.length > limit) {
          // A node with many neighbours stays readable: the first `limit` are drawn, the rest
          // wait behind one node that pages them in (a neighbour drawn already stays linked).
          const waiting = drawable.slice(limit);
          for (const item of waiting) if (item.dcid !== undefined) inGroups.add(item.dcid);
          const kinds = new Set(drawable.map((item) => (item.dcid === undefined ? 'literal' : kindOf(item.dcid, [...(types.get(item.dcid) ?? [])]))));
          const noun = (kinds.size === 1 ? PLURALS[[...kinds][0]!] : undefined) ?? arc;
          group = { key, subject, subjectLabel: names.get(subject) ?? readableLabel(subject), arc, direction: query.direction, noun, shown: limit, hidden: waiting.length };
          groups.set(key, group);
        }
        const visible = new Set(drawable.slice(0, limit));
        items.forEach((item, index) => {
          if (!visible.has(item) && !(item.dcid !== undefined && nodes.has(item.dcid))) return;
          if (item.dcid !== undefined) {
            const target = item.dcid;
            if (!addNode(target, entity(target))) return;
            const [from, to] = query.direction === 'out' ? [subject, target] : [target, subject];
            const id = `${from}\u0000${arc}\u0000${to}`;
            if (!edges.has(id)) edges.set(id, { id, source: from, target: to, label: arc });
          } else if (options.literals) {
            const id = `literal\u0000${subject}\u0000${arc}\u0000${index}`;
            if (!addNode(id, () => ({ id, label: item.value ?? '', kind: 'literal', expandable: false }))) return;
            edges.set(id, { id: `${id}\u0000edge`, source: subject, target: id, label: arc });
          }
        });
        if (group) {
          // After the drawn neighbours, so a page of them never loses its place to the group.
          const id = groupNodeId(key);
          const hidden = group.hidden;
          if (addNode(id, () => ({ id, label: `+${hidden} more ${group.noun}`, kind: 'group', expandable: false }))) {
            const [from, to] = query.direction === 'out' ? [subject, id] : [id, subject];
            edges.set(id, { id: `${id}\u0000edge`, source: from, target: to, label: arc });
          }
        }
      }
    }
  }
  const grouped = [...inGroups].filter((id) => !nodes.has(id)).length;
  return { nodes: [...nodes.values()], edges: [...edges.values()], omitted, groups: [...groups.values()], grouped };
}

// ── words for people ────────────────────────────────────────────────────────

/**
 * An arc as a person reads it, by the direction it is followed: `Adobe —exposed→ Passwords`,
 * `Passwords —exposed by→ Adobe`. An arc the breach graph does not have is shown as it is.
 */
const RELATION_WORDS: Record<Direction, Record<string, string>> = {
  out: {
    typeOf: 'is a',
    name: 'name',
    domain: 'domain',
    dataClass: 'exposed',
    breachDate: 'breached on',
    addedDate: 'added on',
    modifiedDate: 'updated on',
    isSensitive: 'sensitive',
  },
  in: { typeOf: 'type of', domain: 'domain of', dataClass: 'exposed by' },
};

export function relationWords(arc: string, direction: Direction): string {
  return RELATION_WORDS[direction][arc] ?? arc;
}

/** A column of nodes named by what they are, when they are all one kind. */
export function columnLabel(kinds: readonly NodeKind[], mixed: string): string {
  const distinct = new Set(kinds.map((kind) => (kind === 'other' ? 'Breach' : kind)));
  if (distinct.size !== 1) return mixed;
  const [kind] = distinct as Set<NodeKind>;
  return KIND_LABELS[kind!];
}

/** An answer without the given nodes (a preset's "other breaches" leaves out the breach it started from). */
export function withoutNodes(response: NodeResponse, exclude: ReadonlySet<string>): NodeResponse {
  const data: NodeResponse['data'] = {};
  for (const [node, entry] of Object.entries(response.data)) {
    if (!entry.arcs) {
      data[node] = entry;
      continue;
    }
    const arcs: NonNullable<NodeResponse['data'][string]['arcs']> = {};
    for (const [label, arc] of Object.entries(entry.arcs)) arcs[label] = { ...arc, nodes: arc.nodes.filter((item) => item.dcid === undefined || !exclude.has(item.dcid)) };
    data[node] = { ...entry, arcs };
  }
  return response.nextToken !== undefined ? { data, nextToken: response.nextToken } : { data };
}

/** What an expansion asks, in words; `others` when it is a preset's second step from `others`' nodes. */
export function expansionTitle(node: string, kind: NodeKind, property: string, label: string, others: boolean): string | undefined {
  if (kind === 'DataClass' && property === '<-dataClass') return `${others ? 'Other breaches' : 'Breaches'} that exposed ${label}`;
  if (kind === 'Domain' && property === '<-domain') return `${others ? 'Other breaches' : 'Breaches'} of ${label}`;
  if (kind === 'Class' && property === '<-typeOf') return `Every ${(KIND_LABELS as Record<string, string>)[node]?.toLowerCase() ?? label}`;
  if (property === '->*') return `Everything about ${label}`;
  return undefined;
}
