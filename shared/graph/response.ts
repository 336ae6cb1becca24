import { z } from 'zod';

// Shapes of the graph node query interface (`/v2/node`), as the real service sends them
// (../shared/fixtures/datacommons). Unknown fields are dropped rather than refused: a remote
// server of the same interface may send more than we know.

/** One value of an arc: a node (`dcid`, and where known `name`, `types`, `provenanceId`) or a literal (`value`). */
export const NodeItem = z.object({
  name: z.string().optional(),
  types: z.array(z.string()).optional(),
  dcid: z.string().optional(),
  provenanceId: z.string().optional(),
  value: z.string().optional(),
});
export type NodeItem = z.infer<typeof NodeItem>;

export const Arc = z.object({ nodes: z.array(NodeItem) });
export type Arc = z.infer<typeof Arc>;

/** What one queried node answers: `arcs` for value queries, `properties` for label queries, `{}` for nothing. */
export const NodeData = z.object({
  arcs: z.record(z.string(), Arc).optional(),
  properties: z.array(z.string()).optional(),
});
export type NodeData = z.infer<typeof NodeData>;

export const NodeResponse = z.object({
  data: z.record(z.string(), NodeData),
  /** Present when more data exists; send it back unchanged for the next page. */
  nextToken: z.string().min(1).optional(),
});
export type NodeResponse = z.infer<typeof NodeResponse>;

/** Limits decided for this project's engine and service (the interface shows none). */
export const GraphLimits = {
  maxNodes: 500,
  maxNodeIdLength: 512,
  maxPropertyLength: 2000,
  maxTokenLength: 4096,
  pageSize: 500,
} as const;

/** A request: the body of `POST /v2/node`, or the query of `GET /v2/node` (`nodes` repeated). */
export const NodeRequest = z.strictObject({
  nodes: z
    .array(z.string().min(1, 'a node identifier must not be empty').max(GraphLimits.maxNodeIdLength))
    .min(1, 'at least one node is required')
    .max(GraphLimits.maxNodes, `at most ${GraphLimits.maxNodes} nodes per request`),
  property: z.string().min(1, 'a relation expression is required').max(GraphLimits.maxPropertyLength),
  nextToken: z.string().min(1).max(GraphLimits.maxTokenLength).optional(),
});
export type NodeRequest = z.infer<typeof NodeRequest>;
