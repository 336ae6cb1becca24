import type { BreachAlertClient } from '../api/BreachAlertClient.ts';
import { recordBreachDataHeaders, recordChecks } from '../db/breachDataQueries.ts';
import type { WritableDB } from '../db/Interface.ts';
import { getSyncState } from '../db/syncStateQueries.ts';
import { applySnapshot } from './applySnapshot.ts';
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
  client: Pick<BreachAlertClient, 'listBreaches'> & Partial<Pick<BreachAlertClient, 'getChecks'>>;
  now?: () => Date;
}

/**
 * Pulls `GET /user/breaches?includeSensitive=true` (every breach is kept; views filter) with
 * the stored ETag, and applies a changed snapshot. Errors are the client's ApiError /
 * SignInRequiredError; the scheduler decides what they mean.
 */
export class Puller {
  readonly #db: WritableDB;
  readonly #client: Pick<BreachAlertClient, 'listBreaches'> & Partial<Pick<BreachAlertClient, 'getChecks'>>;
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
      const { demoCleared } = breachData ? this.#db.transaction(() => recordBreachDataHeaders(this.#db, breachData, this.#now().toISOString())).immediate() : { demoCleared: 0 };
      return { status: 'unchanged', ...(demoCleared ? { demoCleared } : {}), ...(await this.#pullChecks(options.signal)) };
    }
    options.signal?.throwIfAborted();
    if (options.isStale?.()) return { status: 'stale' };
    options.onApplying?.(answer.items.length);
    const diff = applySnapshot(this.#db, { items: answer.items, etag: answer.etag, ...(answer.breachData ? { breachData: answer.breachData } : {}) }, this.#now());
    return { status: 'applied', diff, breaches: answer.items.length, bytes: answer.bytes, ...(diff.demoCleared ? { demoCleared: diff.demoCleared } : {}), ...(await this.#pullChecks(options.signal)) };
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
}
