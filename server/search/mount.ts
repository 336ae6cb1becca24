import type { Disposable, AsyncDisposable } from '../../shared/base/lifecycle.ts';
import { HANDLER_AUTHENTICATES, mount, type Mount } from '../http/mounts.ts';
import type { Logger } from '../log.ts';
import { createSearchService, SEARCH_PREFIX, type SearchService, type SearchStorage } from './index.ts';

export interface SearchMountDeps {
  storage: SearchStorage;
  accountId: string;
  logger: Logger;
  /** Tells which breaches' details changed in the details feed (rtdb/detailsFeed.ts `changedDetailIds`). */
  onDetailsChanged(listener: (breachIds: readonly string[] | undefined) => void): Disposable;
}

/** `/client/v4`, the search interface: its API tokens decide, per endpoint, in its own envelope. */
export function createSearchMount({ storage, accountId, logger, onDetailsChanged }: SearchMountDeps): Mount & AsyncDisposable & { search: SearchService } {
  const search = createSearchService({ storage, accountId, logger });
  // A change of the details feed alone (a title, a description) moves what search finds without
  // moving the catalog revision the index is keyed by.
  const following = onDetailsChanged(
    (ids) => void search.index.rebuild(ids).catch((error: unknown) => logger.warn({ err: error }, 'could not rebuild the search index after the details feed changed')),
  );
  return {
    ...mount({
      name: 'search',
      prefix: SEARCH_PREFIX,
      boundary: 'a program, by an API token for this account with the scope of the endpoint (and its allowed addresses)',
      access: HANDLER_AUTHENTICATES,
      handle: async (req, res, url) => {
        await search.handle(req, res, url);
        return true;
      },
    }),
    search,
    // The storage itself is closed by whoever opened it (openStorage's instance).
    dispose: () => following.dispose(),
  };
}
