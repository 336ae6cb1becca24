import path from 'node:path';
import type { BreachStore } from '../store/BreachStore.ts';
import type { RtdbStore } from '../rtdb/RtdbStore.ts';
import type { Logger } from '../log.ts';
import { ApiTokenStore } from './ApiTokenStore.ts';
import { CatalogSearchIndex, parseDetailsRecord } from './CatalogSearchIndex.ts';
import { createSearchRoutes, SEARCH_PREFIX } from './routes.ts';

export { SEARCH_PREFIX, SEARCH_INSTANCE } from './routes.ts';
export { answerClientError } from './framing.ts';
export { ApiTokenStore, ApiTokenRequest, API_TOKEN_SCOPES } from './ApiTokenStore.ts';

export const API_TOKENS_FILE = 'api-tokens.db';

/** The search interface of the reference service: its index, its API tokens and its routes. */
export function createSearchService({ store, rtdb, dataDir, accountId, logger }: { store: BreachStore; rtdb: RtdbStore; dataDir: string; accountId: string; logger: Logger }) {
  const tokens = new ApiTokenStore(path.join(dataDir, API_TOKENS_FILE));
  const index = new CatalogSearchIndex({ catalogRevision: () => store.catalogRevision(), listBreaches: () => store.listBreaches(), readDetails: () => parseDetailsRecord(rtdb.get(['catalog', 'breaches'])) });
  const handle = createSearchRoutes({ index, tokens, accountId, logger });
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
