import type { NodeData, NodeItem, NodeResponse } from '../../../shared/graph/index.ts';

/** A whole answer, however many pages it took, and where it came from. */
export interface NodeQueryResult {
  response: NodeResponse;
  /** `embedded`: the local engine; `network`: a remote endpoint just now; `cache`: a remote answer kept from before. */
  source: 'embedded' | 'network' | 'cache';
  /** When the answer was fetched (for `cache`, when it was first fetched). */
  fetchedAt: string;
  /** Pages fetched for this answer (0 from the cache). */
  pages: number;
  /** False when the page cap stopped it early: `response.nextToken` continues from there. */
  complete: boolean;
  /** For `cache`: why the remote endpoint could not answer. */
  offlineReason?: string;
}

/**
 * One response from consecutive pages: each node's arcs have their node lists concatenated in
 * page order, property labels are united (first seen first), and a node that only ever answered
 * `{}` stays `{}`. `nextToken` is the last page's, if any.
 */
export function mergeNodeResponses(pages: readonly NodeResponse[]): NodeResponse {
  // Maps while merging: a node or label named `__proto__` is data, not a prototype.
  const nodes = new Map<string, { arcs?: Map<string, NodeItem[]>; properties?: string[] }>();
  for (const page of pages) {
    for (const [node, answer] of Object.entries(page.data)) {
      let merged = nodes.get(node);
      if (!merged) nodes.set(node, (merged = {}));
      if (answer.arcs) {
        merged.arcs ??= new Map();
        for (const [label, arc] of Object.entries(answer.arcs)) {
          const items = merged.arcs.get(label);
          if (items) {
            for (const item of arc.nodes) items.push(item);
          } else {
            merged.arcs.set(label, arc.nodes.slice());
          }
        }
      }
      if (answer.properties) {
        const known = new Set(merged.properties);
        merged.properties = [...(merged.properties ?? []), ...answer.properties.filter((label) => !known.has(label) && known.add(label))];
      }
    }
  }
  const data = Object.fromEntries(
    [...nodes].map(([node, merged]) => {
      const out: NodeData = {};
      if (merged.arcs) out.arcs = Object.fromEntries([...merged.arcs].map(([label, items]) => [label, { nodes: items }]));
      if (merged.properties) out.properties = merged.properties;
      return [node, out];
    }),
  );
  const nextToken = pages.at(-1)?.nextToken;
  return nextToken === undefined ? { data } : { data, nextToken };
}
