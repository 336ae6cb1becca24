import type { Logger } from '../log.ts';
import type { ApiTokenStore } from './ApiTokenStore.ts';
import type { CatalogReader } from './CatalogSearchIndex.ts';
import { createSearchTableMount } from './searchMount.ts';
import type { SearchIndex } from './SearchIndex.ts';

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

/** The search interface of the reference service: its index, its API tokens and its mount (every path under `/client/v4`). */
export function createSearchService({ storage, accountId, logger }: { storage: SearchStorage; accountId: string; logger: Logger }) {
  const { tokens, index } = storage;
  return {
    tokens,
    index,
    mount: createSearchTableMount({ index, tokens, accountId, logger }),
    close: () => storage.close(),
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
