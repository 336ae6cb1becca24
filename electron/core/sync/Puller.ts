import { setImmediate as nextTurn } from 'node:timers/promises';
import { NO_CATALOG_CHANGES_VERSION } from '../../../shared/api/index.ts';
import { settled, type Settled } from '../../../shared/base/settled.ts';
import type { BreachAlertClient, CatalogChangesAnswer } from '../api/BreachAlertClient.ts';
import { checksAwaitLookups, recordChecks, recordListHeaders, relistChecks, type BreachDataHeaderValues, type ChecksAnswer } from '../db/breachDataQueries.ts';
import { relaxedDurability, type WritableDB } from '../db/Interface.ts';
import { getSyncState, setSyncState } from '../db/syncStateQueries.ts';
import { applySnapshot } from './applySnapshot.ts';
import { recordCatalogChanges } from './catalogChanges.ts';
import type { SnapshotDiff } from './diff.ts';

/**
 * How `GET /user/checks` went after the breaches: `recorded`, `not-served` (404: an older or
 * another party's service), `failed` (kept what was known; `checksError` says why; the breaches
 * are not affected), or absent when the client has no such call.
 */
export type ChecksOutcome = 'recorded' | 'not-served' | 'failed';

/**
 * `catalogVersion`: the list's `breach-catalog-version` (the service's details feed), for what
 * follows a sync to read that feed only when it moved; absent when the service did not say.
 */
export type PullResult =
  | { status: 'unchanged'; checks?: ChecksOutcome; checksError?: string; demoCleared?: number; catalogVersion?: string }
  | { status: 'applied'; diff: SnapshotDiff; breaches: number; bytes: number; checks?: ChecksOutcome; checksError?: string; demoCleared?: number; catalogVersion?: string }
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
    // older than it, and their round trips overlap reading and checking the list.
    let followUps: FollowUps | undefined;
    const startFollowUps = (breachData?: BreachDataHeaderValues): FollowUps => (followUps ??= this.#requestFollowUps(this.#wanted(breachData, 200), signal));
    let answer: Awaited<ReturnType<PullerOptions['client']['listBreaches']>>;
    try {
      answer = await this.#client.listBreaches({ includeSensitive: true }, { etag, ...(signal ? { signal } : {}), onListed: startFollowUps });
    } catch (error) {
      followUps?.abandon();
      throw error;
    }
    if (answer.status === 304) return this.#unchanged(answer.breachData, signal);
    // One turn of the event loop before the snapshot's synchronous write: the follow-ups'
    // requests are not all on the wire yet (fetch writes them in later turns), and their answers
    // may be in and not yet read. A heavy user's write holds the loop for milliseconds: given
    // the turn, the service answers them while the snapshot is written instead of after.
    if (followUps) await nextTurn();
    if (signal?.aborted || options.isStale?.()) {
      followUps?.abandon();
      signal?.throwIfAborted();
      return { status: 'stale' };
    }
    // A client that cannot say when the headers came (tests' fakes) is asked now, still after the list.
    const pending = startFollowUps(answer.breachData);
    options.onApplying?.(answer.items.length);
    const now = this.#now();
    const firstSync = getSyncState(this.#db, 'baselineAt') === undefined;
    const snapshot = { items: answer.items, etag: answer.etag, ...(answer.breachData ? { breachData: answer.breachData } : {}) };
    // Answers already in (a big list takes longer to read than they take to come) are written
    // with the snapshot, in its commit; otherwise the snapshot is written while they come, and
    // they are recorded in a second commit.
    const early = pending.answers;
    let checks: { checks?: ChecksOutcome; checksError?: string } = {};
    let diff: SnapshotDiff;
    let accountsPerEmail: ReadonlyMap<string, number> | undefined;
    try {
      diff = applySnapshot(this.#db, snapshot, now, (written) => {
        accountsPerEmail = written.accountsPerEmail;
        if (early) checks = this.#recordFollowUps(early, firstSync, now.toISOString(), accountsPerEmail);
      });
    } catch (error) {
      pending.abandon();
      throw error;
    }
    if (!early) {
      const answers = await pending.settled;
      if (signal?.aborted) throw signal.reason;
      // The snapshot's counts still hold unless its breaches were removed meanwhile (demo data
      // cleared, which forgets the ETag too); then they are counted from the table.
      const counted = getSyncState(this.#db, 'etag') === answer.etag ? accountsPerEmail : undefined;
      relaxedDurability(this.#db, () => this.#db.transaction(() => (checks = this.#recordFollowUps(answers, firstSync, this.#now().toISOString(), counted))).immediate());
    }
    return {
      status: 'applied',
      diff,
      breaches: answer.items.length,
      bytes: answer.bytes,
      ...(diff.demoCleared ? { demoCleared: diff.demoCleared } : {}),
      ...checks,
      ...catalogVersionOf(answer.breachData),
    };
  }

  /**
   * A 304: the list's headers, the checks and the time of this sync, in one commit. Relaxed
   * durability, as for a new snapshot: a power cut can only lose what the next pull asks for
   * again. The checks' failure never fails the pull (the list is what matters; they show next time).
   */
  async #unchanged(breachData: BreachDataHeaderValues | undefined, signal: AbortSignal | undefined): Promise<PullResult> {
    // Nothing asked when the list's headers name the versions already recorded: one request in all.
    const wanted = this.#wanted(breachData, 304);
    const [fetched, changes] = wanted.checks || wanted.catalogChanges ? await this.#requestFollowUps(wanted, signal).settled : [];
    const failed = [fetched, changes].find((answer) => answer && !answer.ok);
    if (failed && !failed.ok && signal?.aborted) throw failed.error;
    const now = this.#now().toISOString();
    let demoCleared = 0;
    let outcome: { checks?: ChecksOutcome; checksError?: string } = {};
    relaxedDurability(this.#db, () =>
      this.#db
        .transaction(() => {
          if (breachData) ({ demoCleared } = recordListHeaders(this.#db, breachData, now));
          outcome = this.#recordChecks(fetched, now);
          this.#recordCatalogChanges(changes, getSyncState(this.#db, 'baselineAt') === undefined);
          setSyncState(this.#db, 'lastSyncAt', now);
        })
        .immediate(),
    );
    return { status: 'unchanged', ...(demoCleared ? { demoCleared } : {}), ...outcome, ...catalogVersionOf(breachData) };
  }

  /**
   * Which follow-ups a list's answer calls for. Each is asked unless the service named its version
   * (`breach-checks-version`, `breach-catalog-changes-version`) and it is the one recorded; a
   * service that names none is asked as before: the checks after every list, the catalog changes
   * after a new one. Checks that still wait on a lookup are asked anyway: the estimates the
   * person reads ("next check in 3 min") move with time, which no version says.
   */
  #wanted(breachData: BreachDataHeaderValues | undefined, status: 200 | 304): Wanted {
    const client = this.#client;
    const moved = (version: string | undefined, key: 'checksVersion' | 'catalogChangesVersion'): boolean => version === undefined || version !== getSyncState(this.#db, key);
    const checksVersion = breachData?.checksVersion;
    const changesVersion = breachData?.catalogChangesVersion;
    const catalogChanges =
      client.catalogChanges !== undefined && (status === 200 ? moved(changesVersion, 'catalogChangesVersion') : changesVersion !== undefined && moved(changesVersion, 'catalogChangesVersion'));
    return {
      checks: client.getChecks !== undefined && (moved(checksVersion, 'checksVersion') || checksAwaitLookups(this.#db)),
      catalogChanges,
      // The documented version of no changes: the answer is known, and recorded without asking.
      catalogChangesKnownEmpty: catalogChanges && changesVersion === NO_CATALOG_CHANGES_VERSION,
    };
  }

  /** Sends `GET /user/checks` and `GET /user/catalog-changes` together (those `wanted`); the answers never reject. */
  #requestFollowUps(wanted: Wanted, signal: AbortSignal | undefined): FollowUps {
    const abandoned = new AbortController();
    const combined = signal ? AbortSignal.any([signal, abandoned.signal]) : abandoned.signal;
    const client = this.#client;
    const followUps: FollowUps = {
      settled: Promise.all([
        wanted.checks ? settled(client.getChecks!(combined)) : undefined,
        wanted.catalogChanges ? settled(wanted.catalogChangesKnownEmpty ? Promise.resolve(NO_CATALOG_CHANGES) : client.catalogChanges!(combined)) : undefined,
      ] as const).then((answers) => (followUps.answers = answers)),
      answers: undefined,
      abandon: () => abandoned.abort(new DOMException('the list was not applied', 'AbortError')),
    };
    return followUps;
  }

  /**
   * Records the follow-ups of an applied list, in the caller's transaction (the snapshot's, or
   * a relaxed one right after it: both are asked for again at the next pull, so a power cut can
   * only leave the snapshot without them). Best effort: the snapshot is applied whatever happens
   * here (a failed check says why; the next new snapshot asks for the catalog changes again),
   * each part in a savepoint of its own. A sync cancelled while they come records neither.
   */
  #recordFollowUps([checks, changes]: FollowUpAnswers, firstSync: boolean, now: string, accountsPerEmail?: ReadonlyMap<string, number>): { checks?: ChecksOutcome; checksError?: string } {
    // Checks not asked (their version stood still) are still read against the new list: which addresses it holds.
    if (!checks) relistChecks(this.#db, accountsPerEmail);
    const outcome = this.#recordChecks(checks, now, accountsPerEmail);
    this.#recordCatalogChanges(changes, firstSync);
    return outcome;
  }

  /** Records an answer of `GET /user/catalog-changes` and its version in a savepoint; best effort (asked again while its version differs). */
  #recordCatalogChanges(changes: Settled<CatalogChangesAnswer | undefined> | undefined, firstSync: boolean): void {
    if (!changes?.ok || !changes.value) return;
    const { changes: list, version } = changes.value;
    try {
      this.#db.transaction(() => {
        recordCatalogChanges(this.#db, list, firstSync);
        setSyncState(this.#db, 'catalogChangesVersion', version);
      })();
    } catch {
      // best effort, as above
    }
  }

  /** Records an answer of `GET /user/checks` in a savepoint (a failure to record it rolls back only it), and says how it went. */
  #recordChecks(checks: Settled<ChecksAnswer> | undefined, now: string, accountsPerEmail?: ReadonlyMap<string, number>): { checks?: ChecksOutcome; checksError?: string } {
    if (!checks) return {};
    if (!checks.ok) return { checks: 'failed', checksError: describe(checks.error) };
    try {
      this.#db.transaction(() => {
        recordChecks(this.#db, checks.value, now, accountsPerEmail);
        setSyncState(this.#db, 'checksVersion', checks.value.status === 'served' ? checks.value.headers.checksVersion : undefined);
      })();
      return { checks: checks.value.status === 'served' ? 'recorded' : 'not-served' };
    } catch (error) {
      return { checks: 'failed', checksError: describe(error) };
    }
  }
}

type FollowUpAnswers = readonly [Settled<ChecksAnswer> | undefined, Settled<CatalogChangesAnswer | undefined> | undefined];

/** Which follow-ups to send. */
interface Wanted {
  checks: boolean;
  catalogChanges: boolean;
  /** The list named {@link NO_CATALOG_CHANGES_VERSION}: the catalog changes are recorded as none, unasked. */
  catalogChangesKnownEmpty: boolean;
}

/** The answer of `GET /user/catalog-changes` that {@link NO_CATALOG_CHANGES_VERSION} stands for. */
const NO_CATALOG_CHANGES: CatalogChangesAnswer = { changes: [], version: NO_CATALOG_CHANGES_VERSION };

interface FollowUps {
  readonly settled: Promise<FollowUpAnswers>;
  /** The answers once both are in; undefined until then. */
  answers: FollowUpAnswers | undefined;
  /** The list will not be applied: the follow-ups in flight are cancelled and their answers dropped. */
  abandon(): void;
}

function catalogVersionOf(breachData: BreachDataHeaderValues | undefined): { catalogVersion?: string } {
  return breachData?.catalogVersion === undefined ? {} : { catalogVersion: breachData.catalogVersion };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
