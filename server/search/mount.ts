import type { Disposable, AsyncDisposable } from '../../shared/base/lifecycle.ts';
import type { Mount } from '../http/mounts.ts';
import type { Logger } from '../log.ts';
import type { SearchService } from './index.ts';

export interface SearchMountDeps {
  /** The search interface's index and tokens (createSearchService). */
  search: SearchService;
  logger: Logger;
  /** Tells which breaches' details changed in the details feed (rtdb/detailsFeed.ts `changedDetailIds`). */
  onDetailsChanged(listener: (breachIds: readonly string[] | undefined) => void): Disposable;
}

/**
 * `/client/v4`, the search interface: its routes, their access (API tokens, per endpoint's scope)
 * and their answers in its own envelope are the search table's (searchMount.ts).
 */
export function createSearchMount({ search, logger, onDetailsChanged }: SearchMountDeps): Mount & AsyncDisposable {
  // A change of the details feed alone (a title, a description) moves what search finds without
  // moving the catalog revision the index is keyed by.
  const following = onDetailsChanged(
    (ids) => void search.index.rebuild(ids).catch((error: unknown) => logger.warn({ err: error }, 'could not rebuild the search index after the details feed changed')),
  );
  return {
    ...(search.mount as Mount),
    // The storage itself is closed by whoever opened it (openStorage's instance).
    dispose: () => following.dispose(),
  };
}
