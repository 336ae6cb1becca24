import { BreachDetails, type CatalogDetails } from '../../../shared/catalog/index.ts';
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

/**
 * Brings the local copy of `catalog/breaches` up to date: one request; with the ETag of the
 * copy the server can answer "not modified", and nothing is written. A changed catalog replaces
 * the copy in one transaction. Entries that are not valid details are left out and reported,
 * never allowed to fail the whole catalog.
 */
export async function syncCatalogDetails(client: RealtimeDatabaseClient, store: DetailsStore, options: { signal?: AbortSignal } = {}): Promise<DetailsSyncReport> {
  const state = store.state();
  const known = state?.url === client.url ? state : undefined;
  const answer = await client.get(CATALOG_PATH, { etag: known?.etag, ...(options.signal ? { signal: options.signal } : {}) });
  if (answer.status === 'not-modified') {
    store.touch();
    return { status: 'unchanged', count: known?.count ?? 0, skipped: [] };
  }
  const value = answer.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('protocol', `the details feed's ${CATALOG_PATH} is not an object of breaches`);
  const details: CatalogDetails = {};
  const skipped: DetailsSyncReport['skipped'] = [];
  for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
    const parsed = BreachDetails.safeParse(entry);
    if (parsed.success) details[id] = parsed.data;
    else {
      const issue = parsed.error.issues[0];
      skipped.push({ id, problem: `${issue?.path.join('.') || '(entry)'}: ${issue?.message ?? 'invalid'}` });
    }
  }
  store.replace(client.url, details, answer.etag);
  return { status: 'updated', count: Object.keys(details).length, skipped };
}
