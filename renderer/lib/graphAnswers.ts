// What the graph store (state/graph.ts) and the graph pane (features/graph) both read from the
// node query interface's answers (shared/graph/response.ts): what kind a node is, what
// expanding it asks, and the pages of one answer put together. Pure functions, no store.
import type { Direction, Expression } from '../../shared/graph/expression.ts';
import { TYPE_NODES } from '../../shared/graph/nodeIds.ts';
import type { NodeResponse } from '../../shared/graph/response.ts';

export type NodeKind = 'Breach' | 'Domain' | 'DataClass' | 'Class' | 'literal' | 'other' | 'group';

export function kindOf(dcid: string, types: readonly string[] = []): NodeKind {
  for (const kind of ['Breach', 'Domain', 'DataClass', 'Class'] as const) if (types.includes(kind)) return kind;
  if ((TYPE_NODES as readonly string[]).includes(dcid)) return 'Class';
  if (dcid.startsWith('domain/')) return 'Domain';
  if (dcid.startsWith('dataClass/')) return 'DataClass';
  return 'other';
}

/**
 * What expanding a node asks. A data class or a domain is interesting for what points at it
 * (the breaches that exposed it, the breaches of that domain); a type node for its instances;
 * anything else for everything it links to. So breach → its data classes → the other breaches
 * that share one is two clicks.
 */
export function expansionFor(kind: NodeKind): string {
  switch (kind) {
    case 'DataClass':
      return '<-dataClass';
    case 'Domain':
      return '<-domain';
    case 'Class':
      return '<-typeOf';
    default:
      return '->*';
  }
}

/**
 * The next page added to the pages so far. Every page has an entry for every queried node and
 * pages never overlap (docs/graph.md), so this is concatenation per node and arc.
 */
export function mergePage(into: NodeResponse | undefined, page: NodeResponse): NodeResponse {
  const data: NodeResponse['data'] = { ...(into?.data ?? {}) };
  for (const [node, add] of Object.entries(page.data)) {
    const had = data[node] ?? {};
    const merged: NodeResponse['data'][string] = { ...had };
    if (add.properties) merged.properties = [...new Set([...(had.properties ?? []), ...add.properties])];
    if (add.arcs) {
      const arcs = { ...(had.arcs ?? {}) };
      for (const [label, arc] of Object.entries(add.arcs)) arcs[label] = { nodes: [...(arcs[label]?.nodes ?? []), ...arc.nodes] };
      merged.arcs = arcs;
    }
    data[node] = merged;
  }
  return page.nextToken !== undefined ? { data, nextToken: page.nextToken } : { data };
}

export function directionOf(expression: Expression): Direction {
  return expression.hops[0]?.direction ?? 'out';
}
