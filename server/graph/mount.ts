import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import { mount, type Mount } from '../http/mounts.ts';
import { createGraphRoutes, GRAPH_PATH, type GraphRoutesOptions } from './routes.ts';

/** `/v2/node`, the graph node query interface over the catalog (catalog data only). */
export function createGraphMount(options: GraphRoutesOptions): Mount & AsyncDisposable {
  const graph = createGraphRoutes(options);
  return {
    ...mount({
      name: 'graph',
      prefix: GRAPH_PATH,
      exact: true,
      boundary: 'a program holding the graph API key (catalog data only)',
      access: (req, url) => graph.authorize(req, url),
      handle: (req, res, url) => graph(req, res, url),
    }),
    // Its in-memory triple store.
    dispose: () => graph.close(),
  };
}
