import { setImmediate as nextTurn } from 'node:timers/promises';
import type { NodeResponse } from '../../../shared/graph/index.ts';
import { mergeNodeResponses, type NodeQueryResult } from './mergeResponses.ts';
import type { NodeQueryEngine } from '../../../engine/graph/NodeQueryEngine.ts';
import type { NodeQueryRequest } from './NodeQueryClient.ts';

/**
 * The embedded engine behind the same call and result as {@link NodeQueryClient.query}, so a
 * caller switches between local and remote without caring. Yields between pages so a long
 * answer neither blocks the core's other requests nor ignores cancellation.
 */
export async function queryEmbedded(
  engine: NodeQueryEngine,
  request: NodeQueryRequest,
  options: { signal?: AbortSignal; maxPages?: number; pageSize?: number; now?: () => Date } = {},
): Promise<NodeQueryResult> {
  const maxPages = options.maxPages ?? 100;
  const pages: NodeResponse[] = [];
  let token = request.nextToken;
  do {
    options.signal?.throwIfAborted();
    if (pages.length > 0) await nextTurn();
    const page = engine.query({ nodes: request.nodes, property: request.property, nextToken: token }, options.pageSize !== undefined ? { pageSize: options.pageSize } : {});
    pages.push(page);
    token = page.nextToken;
  } while (token !== undefined && pages.length < maxPages);
  const response = mergeNodeResponses(pages);
  return { response, source: 'embedded', fetchedAt: (options.now ?? (() => new Date()))().toISOString(), pages: pages.length, complete: response.nextToken === undefined };
}
