import { dataClassKey } from '../api/primitives.ts';

// The ids of the breach graph's nodes (CONTRACT.md, "Graph node query interface"): the engine
// builds its triples with them (engine/graph/breachGraph.ts) and the graph pane names the nodes
// a person types with them (renderer/features/graph), so the two cannot disagree.

/** The type nodes; `{typeOf:X}` filters answers to instances of one of them. */
export const TYPE_NODES = ['Breach', 'Domain', 'DataClass'] as const;

/** The node the type nodes are instances of. */
export const CLASS_NODE = 'Class';

/**
 * `Email addresses` → `email-addresses`: the shared data class identity ({@link dataClassKey}),
 * so a node is the class however a breach spells it.
 */
export function dataClassSlug(name: string): string {
  // A blank name has no identity; it still gets a node rather than `dataClass/`.
  return dataClassKey(name) || 'x';
}

export function dataClassNode(name: string): string {
  return `dataClass/${dataClassSlug(name)}`;
}

/** Host names have no case, so `Adobe.com` and `adobe.com` are one node. */
export function domainNode(domain: string): string {
  return `domain/${domain.trim().toLowerCase()}`;
}
