import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.ts';
import type { ApiTokenStore } from './ApiTokenStore.ts';
import { CatalogSearchIndex, type CatalogReader } from './CatalogSearchIndex.ts';
import { migratePostgresAt } from '../storage/postgresMigrate.ts';
import { openPostgresSearchStorage } from './postgresStorage.ts';
import { createSearchRoutes, SEARCH_PREFIX } from './routes.ts';
import type { SearchIndex } from './SearchIndex.ts';
import { SqliteApiTokenStore } from './SqliteApiTokenStore.ts';

export { SEARCH_PREFIX, SEARCH_INSTANCE } from './routes.ts';
export { answerClientError } from './framing.ts';
export { ApiTokenRequest, API_TOKEN_SCOPES, type ApiTokenStore } from './ApiTokenStore.ts';
export { parseDetailsRecord } from './CatalogSearchIndex.ts';
export type { SearchIndex } from './SearchIndex.ts';

export const API_TOKENS_FILE = 'api-tokens.db';

/** The SQLite store's catalog, read synchronously by the in-memory FTS index. */
export type SearchCatalog = Pick<CatalogReader, 'catalogRevision' | 'listBreaches' | 'catalogChangesSince' | 'getBreach'>;

/** Where the search interface keeps its API tokens and its index: beside the breach store. */
export interface SearchStorage {
  tokens: ApiTokenStore;
  index: SearchIndex;
  close(): Promise<void>;
}

export interface SearchStorageOptions {
  /** The SQLite store's catalog; used when there is no database URL. */
  catalog: SearchCatalog | undefined;
  /** PostgreSQL shared by instances: tokens and the full-text index live there. */
  databaseUrl: string | undefined;
  /** Connections of the search interface's own pool (PostgreSQL only). */
  poolSize?: number;
  dataDir: string;
  /** The details feed (titles, descriptions), by breach id. */
  readDetails: CatalogReader['readDetails'];
  /** One breach's details, so that a change to one breach re-reads only its own (SQLite's index). */
  readDetailsOf?: CatalogReader['readDetailsOf'];
  onConnectionError?: (error: Error) => void;
}

/**
 * The search interface's storage opened on its own, for its contract suite: with a database URL,
 * tokens and index in PostgreSQL (every instance sees every token and the same index); otherwise
 * the token file in the data folder and SQLite FTS5 in memory over the SQLite store (PostgreSQL is
 * migrated first, as `openStorage` would). The service
 * opens it through `openStorage` (server/openStorage.ts), on the instance's one pool.
 */
export async function openSearchStorage(options: SearchStorageOptions): Promise<SearchStorage> {
  if (options.databaseUrl) {
    await migratePostgresAt(options.databaseUrl);
    return openPostgresSearchStorage({ url: options.databaseUrl, poolSize: options.poolSize, readDetails: options.readDetails, onConnectionError: options.onConnectionError });
  }
  const catalog = options.catalog;
  if (!catalog) throw new Error('the search interface needs the SQLite store when no database URL is given');
  const tokens = new SqliteApiTokenStore(path.join(options.dataDir, API_TOKENS_FILE));
  const index = new CatalogSearchIndex({
    catalogRevision: () => catalog.catalogRevision(),
    listBreaches: () => catalog.listBreaches(),
    readDetails: options.readDetails,
    ...(catalog.catalogChangesSince && catalog.getBreach && options.readDetailsOf
      ? { catalogChangesSince: catalog.catalogChangesSince.bind(catalog), getBreach: catalog.getBreach.bind(catalog), readDetailsOf: options.readDetailsOf }
      : {}),
  });
  return {
    tokens,
    index,
    async close() {
      await index.close();
      await tokens.close();
    },
  };
}

/** The search interface of the reference service: its index, its API tokens and its routes. */
export function createSearchService({ storage, accountId, logger }: { storage: SearchStorage; accountId: string; logger: Logger }) {
  const { tokens, index } = storage;
  const routes = createSearchRoutes({ index, tokens, accountId, logger });
  return {
    tokens,
    index,
    /** True for paths under `/client/v4` (all answered here, unknown ones with a 404 envelope). */
    owns: (pathname: string) => pathname === SEARCH_PREFIX || pathname.startsWith(SEARCH_PREFIX + '/'),
    handle: (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => routes(req, res, url),
    close: () => storage.close(),
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
