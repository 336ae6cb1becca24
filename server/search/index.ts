import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Breach } from '../../shared/api/index.ts';
import type { BreachStore } from '../store/BreachStore.ts';
import type { DbPath } from '../rtdb/paths.ts';
import type { DbValue } from '../rtdb/tree.ts';
import type { Logger } from '../log.ts';
import { ApiTokenStore } from './ApiTokenStore.ts';
import { CatalogSearchIndex, parseDetailsRecord } from './CatalogSearchIndex.ts';
import { createSearchRoutes, SEARCH_PREFIX } from './routes.ts';

export { SEARCH_PREFIX, SEARCH_INSTANCE } from './routes.ts';
export { answerClientError } from './framing.ts';
export { ApiTokenStore, ApiTokenRequest, API_TOKEN_SCOPES } from './ApiTokenStore.ts';

export const API_TOKENS_FILE = 'api-tokens.db';

/**
 * What the search index reads the catalog from, synchronously (the FTS index is rebuilt inside a
 * search call). SQLite's store is that already; a store over the network is mirrored by
 * {@link mirroredCatalog}, whose `refresh` runs before each search request.
 */
export interface SearchCatalog {
  catalogRevision(): number;
  listBreaches(): readonly Breach[];
  /** Brings the synchronous view up to date; awaited before every request to the search routes. */
  refresh?(): Promise<void>;
}

/**
 * The catalog of an asynchronous store (PostgreSQL) held in memory for the search index: each
 * refresh reads the catalog revision (one indexed row) and re-reads the breaches only when it
 * moved, so a catalog changed through another instance is searched on the next request.
 */
export function mirroredCatalog(store: Pick<BreachStore, 'catalogRevision' | 'listBreaches'>): SearchCatalog {
  let revision = -1;
  let breaches: readonly Breach[] = [];
  return {
    catalogRevision: () => revision,
    listBreaches: () => breaches,
    async refresh() {
      const current = await store.catalogRevision();
      if (current === revision) return;
      breaches = await store.listBreaches();
      revision = current;
    },
  };
}

/** The search interface of the reference service: its index, its API tokens and its routes. */
export function createSearchService({
  catalog,
  rtdb,
  dataDir,
  accountId,
  logger,
}: {
  catalog: SearchCatalog;
  rtdb: { get(path: DbPath): DbValue };
  dataDir: string;
  accountId: string;
  logger: Logger;
}) {
  const tokens = new ApiTokenStore(path.join(dataDir, API_TOKENS_FILE));
  const index = new CatalogSearchIndex({
    catalogRevision: () => catalog.catalogRevision(),
    listBreaches: () => catalog.listBreaches(),
    readDetails: () => parseDetailsRecord(rtdb.get(['catalog', 'breaches'])),
  });
  const routes = createSearchRoutes({ index, tokens, accountId, logger });
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    await catalog.refresh?.();
    await routes(req, res, url);
  };
  return {
    tokens,
    index,
    /** True for paths under `/client/v4` (all answered here, unknown ones with a 404 envelope). */
    owns: (pathname: string) => pathname === SEARCH_PREFIX || pathname.startsWith(SEARCH_PREFIX + '/'),
    handle,
    close() {
      index.close();
      tokens.close();
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
