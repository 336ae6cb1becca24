import { feedKeyOf } from '../../shared/catalog/index.ts';
import type { Logger } from '../log.ts';
import type { ServiceStorage } from '../openStorage.ts';
import { DETAILS_PATH, detailsFeedWriter, detailsPathOf, detailsReader, fromFeedValue } from '../rtdb/detailsFeed.ts';
import type { LocationMirror } from '../rtdb/mirror.ts';
import { parseDetailsRecord, type SearchStorage } from '../search/index.ts';

/** The details feed in the realtime database: one writer (the catalog's) and the mirror every reader shares. */
export async function openDetailsFeed(storage: ServiceStorage, logger: Logger) {
  // One writer for every whole-feed write: a breach the feed cannot hold is logged once, not at each refresh.
  const writeDetails = detailsFeedWriter(
    (value) => storage.rtdb.transaction((tx) => tx.write([{ path: DETAILS_PATH, value }])),
    (id, problem) => logger.warn({ breach: id.slice(0, 80) }, `the breach ${JSON.stringify(id.slice(0, 80))} is left out of the details feed: ${problem}`),
  );
  const details = await detailsReader(
    storage.rtdb,
    (error) => logger.warn({ err: error }, 'could not re-read the details feed another instance changed'),
    (error) => logger.error({ err: error }, 'a reader of the details feed failed'),
  );
  return { writeDetails, details };
}

export type DetailsFeed = Awaited<ReturnType<typeof openDetailsFeed>>;

/** The search interface's API tokens and index, beside the breach store (SQLite or PostgreSQL), reading the details feed. */
export function openSearchStorage(storage: ServiceStorage, details: LocationMirror): Promise<SearchStorage> {
  return storage.search({
    // The feed is keyed by feed keys (`Foo%2EBar`); the index by breach ids (`Foo.Bar`).
    readDetails: () => parseDetailsRecord(fromFeedValue(details.get(DETAILS_PATH))),
    readDetailsOf: (id) => parseDetailsRecord(fromFeedValue({ [feedKeyOf(id)]: details.get(detailsPathOf(id)) }))[id],
  });
}
