import { BreachDetails, idOfFeedKey, type CatalogDetails } from '../../../shared/catalog/index.ts';
import { ApiError } from '../api/ApiError.ts';
import type { DetailsStore } from './DetailsStore.ts';
import type { RealtimeDatabaseClient } from './RealtimeDatabaseClient.ts';

export const CATALOG_PATH = 'catalog/breaches';

export interface DetailsSyncReport {
  status: 'updated' | 'unchanged';
  count: number;
  /** Entries the feed had that are not valid details, with the first problem of each. */
  skipped: { id: string; problem: string }[];
}

export interface DetailsSyncOptions {
  signal?: AbortSignal;
  /**
   * Pages the first sync (no copy yet) with queries of this many entries (`orderBy="$key"`,
   * `limitToFirst`, `startAt`) instead of one read of the whole location. Off by default:
   * `catalog_sync_hibp` measured it slower (docs/feed.md, "Paging the first sync").
   */
  pageSize?: number;
}

/**
 * Brings the local copy of `catalog/breaches` up to date: one request; with the ETag of the
 * copy the server can answer "not modified", and nothing is written. A changed catalog replaces
 * the copy in one transaction. Entries that are not valid details are left out and reported,
 * never allowed to fail the whole catalog.
 */
export async function syncCatalogDetails(client: RealtimeDatabaseClient, store: DetailsStore, options: DetailsSyncOptions = {}): Promise<DetailsSyncReport> {
  const state = store.state();
  const known = state?.url === client.url ? state : undefined;
  const signal = options.signal ? { signal: options.signal } : {};
  if (!known && options.pageSize !== undefined) {
    const { value, etag } = await readPaged(client, options.pageSize, signal);
    return replaceCopy(client, store, value, etag);
  }
  const answer = await client.get(CATALOG_PATH, { etag: known?.etag, ...signal });
  if (answer.status === 'not-modified') {
    store.touch();
    return { status: 'unchanged', count: known?.count ?? 0, skipped: [] };
  }
  return replaceCopy(client, store, answer.value, answer.etag);
}

/**
 * The whole catalog, page by page in key order. Each page starts at the last key of the one
 * before (`startAt` is inclusive), so a page of `size + 1` brings `size` new entries. A page
 * answer carries its own ETag, not the location's, so the copy keeps none: the next sync reads
 * the location whole once and keeps its ETag from then on.
 */
async function readPaged(client: RealtimeDatabaseClient, size: number, signal: { signal?: AbortSignal }): Promise<{ value: unknown; etag: undefined }> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`pageSize must be a positive whole number, not ${size}`);
  const all: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let after: string | undefined;
  for (;;) {
    const query: Record<string, string> = { orderBy: '"$key"', limitToFirst: String(size + 1), ...(after === undefined ? {} : { startAt: JSON.stringify(after) }) };
    const answer = await client.get(CATALOG_PATH, { query, ...signal });
    const page = answer.status === 'ok' ? (answer.value ?? {}) : {};
    if (typeof page !== 'object' || Array.isArray(page)) throw new ApiError('protocol', `the details feed's ${CATALOG_PATH} is not an object of breaches`);
    // JSON objects are unordered: the page's order is restored here, with Firebase's key order.
    const keys = Object.keys(page).sort(compareFeedKeys);
    let added = 0;
    for (const key of keys) {
      if (key === after) continue;
      all[key] = (page as Record<string, unknown>)[key];
      added++;
    }
    if (keys.length < size + 1 || added === 0) return { value: all, etag: undefined };
    after = keys.at(-1)!;
  }
}

/** Firebase's key order: 32-bit integer keys first, numerically, then the rest as strings. */
function compareFeedKeys(a: string, b: string): number {
  const integer = (key: string) => /^-?(0|[1-9]\d{0,9})$/.test(key) && Number(key) >= -2147483648 && Number(key) <= 2147483647;
  if (integer(a) && integer(b)) return Number(a) - Number(b);
  if (integer(a) !== integer(b)) return integer(a) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function replaceCopy(client: RealtimeDatabaseClient, store: DetailsStore, answered: unknown, etag: string | undefined): DetailsSyncReport {
  const value = answered ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('protocol', `the details feed's ${CATALOG_PATH} is not an object of breaches`);
  // Keyed by breach id, whatever HIBP calls a breach (`__proto__` included): no prototype.
  const details = Object.create(null) as CatalogDetails;
  const skipped: DetailsSyncReport['skipped'] = [];
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    // The feed's keys stand for breach ids (`Foo%2EBar` for `Foo.Bar`: shared/catalog/feedKeys.ts).
    const id = idOfFeedKey(key);
    const parsed = BreachDetails.safeParse(entry);
    if (parsed.success) details[id] = parsed.data;
    else {
      const issue = parsed.error.issues[0];
      skipped.push({ id, problem: `${issue?.path.join('.') || '(entry)'}: ${issue?.message ?? 'invalid'}` });
    }
  }
  store.replace(client.url, details, etag);
  return { status: 'updated', count: Object.keys(details).length, skipped };
}
