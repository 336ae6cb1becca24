import type { BreachAlertClient } from '../api/BreachAlertClient.ts';
import { recordChecks, recordListHeaders } from '../db/breachDataQueries.ts';
import type { WritableDB } from '../db/Interface.ts';
import { getSyncState } from '../db/syncStateQueries.ts';
import { applySnapshot } from './applySnapshot.ts';
import { recordCatalogChanges } from './catalogChanges.ts';
import type { SnapshotDiff } from './diff.ts';

/**
 * How `GET /user/checks` went after the breaches: `recorded`, `not-served` (404: an older or
 * another party's service), `failed` (kept what was known; `checksError` says why; the breaches
 * are not affected), or absent when the client has no such call.
 */
export type ChecksOutcome = 'recorded' | 'not-served' | 'failed';

export type PullResult =
  | { status: 'unchanged'; checks?: ChecksOutcome; checksError?: string; demoCleared?: number }
  | { status: 'applied'; diff: SnapshotDiff; breaches: number; bytes: number; checks?: ChecksOutcome; checksError?: string; demoCleared?: number }
  /** A push landed while the snapshot was on its way; applying it would show older state. */
  | { status: 'stale' };

export interface PullerOptions {
  db: WritableDB;
  /** `getChecks` and `catalogChanges` where the client can ask for them (this project's service). */
  client: Pick<BreachAlertClient, 'listBreaches'> & Partial<Pick<BreachAlertClient, 'getChecks' | 'catalogChanges'>>;
  now?: () => Date;
}

/**
 * Pulls `GET /user/breaches?includeSensitive=true` (every breach is kept; views filter) with
 * the stored ETag, and applies a changed snapshot. Errors are the client's ApiError /
 * SignInRequiredError; the scheduler decides what they mean.
 */
export class Puller {
  readonly #db: WritableDB;
  readonly #client: PullerOptions['client'];
  readonly #now: () => Date;

  constructor(options: PullerOptions) {
    this.#db = options.db;
    this.#client = options.client;
    this.#now = options.now ?? (() => new Date());
  }

  async pull(options: { signal?: AbortSignal; isStale?: () => boolean; onApplying?: (breaches: number) => void } = {}): Promise<PullResult> {
    const etag = getSyncState(this.#db, 'etag');
    const answer = await this.#client.listBreaches({ includeSensitive: true }, { etag, ...(options.signal ? { signal: options.signal } : {}) });
    if (answer.status === 304) {
      const breachData = answer.breachData;
      const { demoCleared } = breachData ? this.#db.transaction(() => recordListHeaders(this.#db, breachData, this.#now().toISOString())).immediate() : { demoCleared: 0 };
      return { status: 'unchanged', ...(demoCleared ? { demoCleared } : {}), ...(await this.#pullChecks(options.signal)) };
    }
    options.signal?.throwIfAborted();
    if (options.isStale?.()) return { status: 'stale' };
    options.onApplying?.(answer.items.length);
    const firstSync = getSyncState(this.#db, 'baselineAt') === undefined;
    const diff = applySnapshot(this.#db, { items: answer.items, etag: answer.etag, ...(answer.breachData ? { breachData: answer.breachData } : {}) }, this.#now());
    const checks = await this.#pullChecks(options.signal);
    // A new snapshot may come from a catalog switch: what it did to this account is told beside it.
    await this.#catalogChanges(firstSync, options.signal);
    return { status: 'applied', diff, breaches: answer.items.length, bytes: answer.bytes, ...(diff.demoCleared ? { demoCleared: diff.demoCleared } : {}), ...checks };
  }

  /** The checks after the breaches: their failure never fails the pull (the list is what matters; the checks show next time). */
  async #pullChecks(signal: AbortSignal | undefined): Promise<{ checks?: ChecksOutcome; checksError?: string }> {
    if (!this.#client.getChecks) return {};
    try {
      const answer = await this.#client.getChecks(signal);
      recordChecks(this.#db, answer, this.#now().toISOString());
      return { checks: answer.status === 'served' ? 'recorded' : 'not-served' };
    } catch (error) {
      if (signal?.aborted) throw error;
      return { checks: 'failed', checksError: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Best effort: the snapshot is applied whatever happens here, and the next new snapshot asks again. */
  async #catalogChanges(firstSync: boolean, signal: AbortSignal | undefined): Promise<void> {
    if (!this.#client.catalogChanges) return;
    try {
      const changes = await this.#client.catalogChanges(signal);
      if (changes) recordCatalogChanges(this.#db, changes, firstSync);
    } catch (error) {
      if (signal?.aborted) throw error;
    }
  }
}
