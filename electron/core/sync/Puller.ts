import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BreachAlertClient } from '../api/BreachAlertClient.ts';
import type { CatalogChange } from '../../../shared/api/index.ts';
import { recordChecks, recordListHeaders, type ChecksAnswer } from '../db/breachDataQueries.ts';
import { relaxedDurability, type WritableDB } from '../db/Interface.ts';
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
    const { signal } = options;
    const etag = getSyncState(this.#db, 'etag');
    // What follows a new list (the checks, the catalog changes) is asked for as soon as the
    // list's headers are in: the service has computed the list by then, so the answers are no
    // older than it, and their round trips overlap reading, checking and writing the list.
    let followUps: FollowUps | undefined;
    const startFollowUps = (): FollowUps => (followUps ??= this.#requestFollowUps(signal));
    let answer: Awaited<ReturnType<PullerOptions['client']['listBreaches']>>;
    try {
      answer = await this.#client.listBreaches({ includeSensitive: true }, { etag, ...(signal ? { signal } : {}), onListed: startFollowUps });
    } catch (error) {
      followUps?.abandon();
      throw error;
    }
    if (answer.status === 304) {
      const breachData = answer.breachData;
      const { demoCleared } = breachData ? this.#db.transaction(() => recordListHeaders(this.#db, breachData, this.#now().toISOString())).immediate() : { demoCleared: 0 };
      return { status: 'unchanged', ...(demoCleared ? { demoCleared } : {}), ...(await this.#pullChecks(signal)) };
    }
    // One turn of the event loop before the snapshot's synchronous write: the follow-ups'
    // requests are not all on the wire yet (fetch writes them in later turns), and a heavy
    // user's write holds the loop for milliseconds; given the turn, the service answers them
    // while the snapshot is written instead of after.
    if (followUps) await nextTurn();
    if (signal?.aborted || options.isStale?.()) {
      followUps?.abandon();
      signal?.throwIfAborted();
      return { status: 'stale' };
    }
    options.onApplying?.(answer.items.length);
    const firstSync = getSyncState(this.#db, 'baselineAt') === undefined;
    // A client that cannot say when the headers came (tests' fakes) is asked now, still after the list.
    const pending = startFollowUps();
    let diff: SnapshotDiff;
    try {
      diff = applySnapshot(this.#db, { items: answer.items, etag: answer.etag, ...(answer.breachData ? { breachData: answer.breachData } : {}) }, this.#now());
    } catch (error) {
      pending.abandon();
      throw error;
    }
    const checks = this.#recordFollowUps(await pending.settled, firstSync, signal);
    return { status: 'applied', diff, breaches: answer.items.length, bytes: answer.bytes, ...(diff.demoCleared ? { demoCleared: diff.demoCleared } : {}), ...checks };
  }

  /** The checks after the breaches (304 path): their failure never fails the pull (the list is what matters; the checks show next time). */
  async #pullChecks(signal: AbortSignal | undefined): Promise<{ checks?: ChecksOutcome; checksError?: string }> {
    if (!this.#client.getChecks) return {};
    try {
      const answer = await this.#client.getChecks(signal);
      recordChecks(this.#db, answer, this.#now().toISOString());
      return { checks: answer.status === 'served' ? 'recorded' : 'not-served' };
    } catch (error) {
      if (signal?.aborted) throw error;
      return { checks: 'failed', checksError: describe(error) };
    }
  }

  /** Sends `GET /user/checks` and `GET /user/catalog-changes` together (where the client has them); the answers never reject. */
  #requestFollowUps(signal: AbortSignal | undefined): FollowUps {
    const abandoned = new AbortController();
    const combined = signal ? AbortSignal.any([signal, abandoned.signal]) : abandoned.signal;
    const settle = <T>(request: ((signal: AbortSignal) => Promise<T>) | undefined): Promise<Fetched<T> | undefined> =>
      request
        ? request(combined).then(
            (value): Fetched<T> => ({ ok: true, value }),
            (error: unknown): Fetched<T> => ({ ok: false, error }),
          )
        : Promise.resolve(undefined);
    const client = this.#client;
    return {
      settled: Promise.all([settle(client.getChecks && ((s) => client.getChecks!(s))), settle(client.catalogChanges && ((s) => client.catalogChanges!(s)))]),
      abandon: () => abandoned.abort(new DOMException('the list was not applied', 'AbortError')),
    };
  }

  /**
   * Records the follow-ups of an applied list in one commit. Best effort: the snapshot is applied
   * whatever happens here (a failed check says why; the next new snapshot asks for the catalog
   * changes again); only a cancelled sync throws, as it did when each was asked in turn (checks
   * cancelled: nothing recorded; catalog changes cancelled: the checks recorded). Relaxed
   * durability, like the snapshot it follows: both are asked for again at the next pull, and a
   * power cut can only leave the snapshot without them, as a crash between the two commits can.
   */
  #recordFollowUps(
    [checks, changes]: [Fetched<ChecksAnswer> | undefined, Fetched<CatalogChange[] | undefined> | undefined],
    firstSync: boolean,
    signal: AbortSignal | undefined,
  ): { checks?: ChecksOutcome; checksError?: string } {
    if (checks && !checks.ok && signal?.aborted) throw checks.error;
    let outcome: { checks?: ChecksOutcome; checksError?: string } = {};
    relaxedDurability(this.#db, () =>
      this.#db
        .transaction(() => {
          if (checks?.ok) {
            try {
              recordChecks(this.#db, checks.value, this.#now().toISOString());
              outcome = { checks: checks.value.status === 'served' ? 'recorded' : 'not-served' };
            } catch (error) {
              outcome = { checks: 'failed', checksError: describe(error) };
            }
          } else if (checks) outcome = { checks: 'failed', checksError: describe(checks.error) };
          if (changes?.ok && changes.value) {
            try {
              this.#db.transaction(() => recordCatalogChanges(this.#db, changes.value!, firstSync))();
            } catch {
              // best effort, as above
            }
          }
        })
        .immediate(),
    );
    if (changes && !changes.ok && signal?.aborted) throw changes.error;
    return outcome;
  }
}

/** One follow-up answer, or why there is none. */
type Fetched<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface FollowUps {
  readonly settled: Promise<[Fetched<ChecksAnswer> | undefined, Fetched<CatalogChange[] | undefined> | undefined]>;
  /** The list will not be applied: the follow-ups in flight are cancelled and their answers dropped. */
  abandon(): void;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
