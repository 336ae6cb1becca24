import { DEFAULT_SYNC_INTERVAL_MINUTES, SyncIntervalMinutes } from '../../../shared/ipc/index.ts';
import { backgroundTimers, type Timers } from '../../../shared/base/timers.ts';
import { ApiError } from '../api/ApiError.ts';
import { classifyError, isTransient, needsSignIn, type ErrorKind } from '../api/errorKind.ts';
import type { WritableDB } from '../db/Interface.ts';
import { setSyncState } from '../db/syncStateQueries.ts';
import { Emitter, type Event } from '../../../shared/base/Emitter.ts';
import { DisposableStore } from '../../../shared/base/lifecycle.ts';
import { BackoffState, type BackoffPolicy } from '../api/backoff.ts';
import type { Outbox } from '../outbox/Outbox.ts';
import type { FlushProgress, FlushResult } from '../outbox/types.ts';
import type { SnapshotDiff } from './diff.ts';
import type { Puller, PullResult } from './Puller.ts';

/** Why a sync ran. `push` only sends the outbox (after a toggle); every other trigger pushes, then pulls. */
export type SyncTrigger = 'start' | 'interval' | 'resume' | 'online' | 'manual' | 'retry' | 'push';

export type SyncStatus = 'ok' | 'backoff' | 'sign-in-needed' | 'cancelled' | 'error';

export interface SyncReport {
  trigger: SyncTrigger;
  status: SyncStatus;
  push: FlushResult | undefined;
  pull: PullResult | undefined;
  /** What the pull changed (also on `pull` when applied). */
  diff: SnapshotDiff | undefined;
  startedAt: number;
  finishedAt: number;
  /** When the scheduler will try again by itself (status `backoff` or `error`). */
  retryAt?: number;
  error?: string;
  /** What kind of failure `error` is; decisions are taken from this, never from the wording. */
  errorKind?: ErrorKind;
}

export type SyncProgress =
  | { phase: 'push'; trigger: SyncTrigger; push: FlushProgress | undefined }
  | { phase: 'pull'; trigger: SyncTrigger }
  | { phase: 'apply'; trigger: SyncTrigger; breaches: number }
  | { phase: 'done'; trigger: SyncTrigger; status: SyncStatus };

export type SchedulerState = 'idle' | 'syncing' | 'backoff' | 'sign-in-needed' | 'stopped';

export type { Timers };

export { DEFAULT_SYNC_INTERVAL_MINUTES };

export interface SyncSchedulerOptions {
  db: WritableDB;
  outbox: Outbox;
  puller: Puller;
  timers?: Timers;
  now?: () => number;
  random?: () => number;
  backoff?: Partial<BackoffPolicy>;
  /** The account's wait, shared with the outbox (`openAccountSync`); by default the scheduler's own. */
  backoffState?: BackoffState;
  /** Minutes between syncs; the app passes its setting (`settings.json` is where the interval lives). */
  intervalMinutes?: number;
  /** Delay between a toggle and the push that sends it; toggles within it go together. Default 2 s; negative: no automatic push. */
  pushDelayMs?: number;
}

interface Queued {
  trigger: SyncTrigger;
  resolve: (report: SyncReport) => void;
  promise: Promise<SyncReport>;
}

/**
 * When sync runs: at start, every N minutes (setting, default 30), on resume and back-online
 * signals from the host, on demand, shortly after a toggle (push only), and after a backoff.
 * One run at a time: a trigger during a run queues one follow-up (triggers coalesce), so a
 * change made during a run is never left for the next interval. Each run pushes, then pulls.
 */
export class SyncScheduler {
  readonly #db: WritableDB;
  readonly #outbox: Outbox;
  readonly #puller: Puller;
  readonly #timers: Timers;
  readonly #now: () => number;
  readonly #backoff: BackoffState;
  readonly #pushDelayMs: number;
  readonly #onProgress = new Emitter<SyncProgress>();
  readonly #onDidSync = new Emitter<SyncReport>();
  readonly #onDidChangeState = new Emitter<SchedulerState>();
  readonly #subscriptions = new DisposableStore();
  #state: SchedulerState = 'idle';
  #current: Promise<SyncReport> | undefined;
  #controller: AbortController | undefined;
  #queued: Queued | undefined;
  #intervalTimer: unknown;
  #retryTimer: unknown;
  #pushTimer: unknown;
  #started = false;
  #lastReport: SyncReport | undefined;
  #intervalMinutes: number;

  readonly onProgress: Event<SyncProgress> = this.#onProgress.event;
  readonly onDidSync: Event<SyncReport> = this.#onDidSync.event;
  readonly onDidChangeState: Event<SchedulerState> = this.#onDidChangeState.event;

  /** Listeners still registered (tests check that owners disposed theirs). */
  get listenerCount(): number {
    return this.#onProgress.listenerCount + this.#onDidSync.listenerCount + this.#onDidChangeState.listenerCount;
  }

  constructor(options: SyncSchedulerOptions) {
    this.#db = options.db;
    this.#outbox = options.outbox;
    this.#puller = options.puller;
    this.#timers = options.timers ?? backgroundTimers;
    this.#now = options.now ?? Date.now;
    this.#backoff = options.backoffState ?? new BackoffState({ ...(options.backoff ? { policy: options.backoff } : {}), ...(options.random ? { random: options.random } : {}), now: this.#now });
    this.#pushDelayMs = options.pushDelayMs ?? 2000;
    this.#intervalMinutes = SyncIntervalMinutes.parse(options.intervalMinutes ?? DEFAULT_SYNC_INTERVAL_MINUTES);
    if (this.#pushDelayMs >= 0) this.#subscriptions.add(this.#outbox.onDidChange((summary) => summary.pending > 0 && this.#schedulePush()));
  }

  get state(): SchedulerState {
    return this.#state;
  }

  get lastReport(): SyncReport | undefined {
    return this.#lastReport;
  }

  get intervalMinutes(): number {
    return this.#intervalMinutes;
  }

  /** Takes a new interval (the setting changed) and re-arms the timer from now. */
  setIntervalMinutes(minutes: number): void {
    this.#intervalMinutes = SyncIntervalMinutes.parse(minutes);
    if (this.#started && !this.#current) this.#armInterval();
  }

  /** Syncs now and keeps syncing on the interval. */
  start(): Promise<SyncReport> {
    if (this.#state === 'stopped') throw new Error('the scheduler is stopped');
    this.#started = true;
    return this.syncNow('start');
  }

  /** Runs a sync now, or (when one is running) right after it; resolves with that run's report. */
  syncNow(trigger: SyncTrigger = 'manual'): Promise<SyncReport> {
    if (this.#state === 'stopped') return Promise.resolve(this.#report(trigger, 'cancelled', this.#now(), { error: 'the scheduler is stopped' }));
    if (!this.#current) return this.#begin(trigger);
    if (this.#queued) {
      // A full sync outranks a push-only one.
      if (this.#queued.trigger === 'push' && trigger !== 'push') this.#queued.trigger = trigger;
      return this.#queued.promise;
    }
    let resolve!: (report: SyncReport) => void;
    const promise = new Promise<SyncReport>((r) => (resolve = r));
    this.#queued = { trigger, resolve, promise };
    return promise;
  }

  /** The host says the machine woke up. */
  notifyResume(): void {
    void this.syncNow('resume');
  }

  /** The host says the network is back: waits caused by the network end now (a service's Retry-After does not). */
  notifyOnline(): void {
    this.#outbox.resetBackoff();
    this.#backoff.connectivityRestored();
    void this.syncNow('online');
  }

  /** Stops the running sync (requests in flight are abandoned; their rows are sent again later) and drops a queued one. */
  cancel(): void {
    this.#controller?.abort(new DOMException('sync cancelled', 'AbortError'));
    const queued = this.#queued;
    this.#queued = undefined;
    queued?.resolve(this.#report(queued.trigger, 'cancelled', this.#now(), { error: 'cancelled before it started' }));
  }

  /** Cancels, clears every timer and waits for the running sync to end. */
  async stop(): Promise<void> {
    this.#setState('stopped');
    for (const timer of [this.#intervalTimer, this.#retryTimer, this.#pushTimer]) if (timer !== undefined) this.#timers.clearTimeout(timer);
    this.#intervalTimer = this.#retryTimer = this.#pushTimer = undefined;
    this.cancel();
    await this.#current?.catch(() => undefined);
    this.#subscriptions.dispose();
    this.#onProgress.dispose();
    this.#onDidSync.dispose();
    this.#onDidChangeState.dispose();
  }

  #begin(trigger: SyncTrigger): Promise<SyncReport> {
    const controller = new AbortController();
    this.#controller = controller;
    const run = this.#run(trigger, controller.signal).finally(() => {
      this.#current = undefined;
      this.#controller = undefined;
      const queued = this.#queued;
      this.#queued = undefined;
      if (queued && this.#state !== 'stopped') void this.#begin(queued.trigger).then(queued.resolve);
      else if (queued) queued.resolve(this.#report(queued.trigger, 'cancelled', this.#now(), { error: 'the scheduler is stopped' }));
    });
    this.#current = run;
    return run;
  }

  async #run(trigger: SyncTrigger, signal: AbortSignal): Promise<SyncReport> {
    const startedAt = this.#now();
    this.#setState('syncing');
    let report: SyncReport;
    try {
      report = await this.#pushThenPull(trigger, signal, startedAt);
    } catch (error) {
      // A failure of our own (the database, a bug): reported, and tried again later rather than never.
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = this.#backoff.fail('internal', message);
      report = this.#report(trigger, 'error', startedAt, { retryAt, error: message, errorKind: 'internal' });
    }
    this.#lastReport = report;
    if (this.#state !== 'stopped') {
      if (report.retryAt !== undefined) this.#armRetry(report.retryAt);
      if (this.#started && trigger !== 'push') this.#armInterval();
      this.#setState(report.status === 'sign-in-needed' ? 'sign-in-needed' : report.status === 'backoff' || report.status === 'error' ? 'backoff' : 'idle');
    }
    this.#onProgress.fire({ phase: 'done', trigger, status: report.status });
    this.#onDidSync.fire(report);
    return report;
  }

  async #pushThenPull(trigger: SyncTrigger, signal: AbortSignal, startedAt: number): Promise<SyncReport> {
    // A person pressed "Sync now": they want an attempt, not a report of the wait earlier
    // failures set (after an outage the service is often back long before the wait is over).
    // A wait the network caused ends now, as when the host says it is back online; one the
    // service asked for (429, 503 with Retry-After, a 5xx) is kept, and the sync line says until when.
    if (trigger === 'manual') {
      this.#outbox.resetBackoff();
      this.#backoff.connectivityRestored();
    }
    this.#onProgress.fire({ phase: 'push', trigger, push: undefined });
    const push = await this.#outbox.flush({ signal, onProgress: (progress) => this.#onProgress.fire({ phase: 'push', trigger, push: progress }) });
    if (push.status === 'cancelled') return this.#report(trigger, 'cancelled', startedAt, { push, error: push.error, errorKind: 'cancelled' });
    if (push.status === 'sign-in-needed') return this.#report(trigger, 'sign-in-needed', startedAt, { push, error: push.error, errorKind: push.errorKind ?? 'auth-needed' });
    // A service that is failing or asking us to slow down gets no GET either until the wait is over.
    if (push.status === 'backoff') return this.#report(trigger, 'backoff', startedAt, { push, retryAt: push.retryAt, error: push.error, errorKind: push.errorKind });
    if (trigger === 'push') return this.#report(trigger, 'ok', startedAt, { push });
    if (this.#backoff.waiting()) return this.#report(trigger, 'backoff', startedAt, { push, retryAt: this.#backoff.notBefore, error: 'waiting before pulling again', errorKind: this.#backoff.kind });

    let pull: PullResult | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const deliveries = this.#outbox.deliveries;
      this.#onProgress.fire({ phase: 'pull', trigger });
      try {
        pull = await this.#puller.pull({
          signal,
          isStale: () => this.#outbox.deliveries !== deliveries,
          onApplying: (breaches) => this.#onProgress.fire({ phase: 'apply', trigger, breaches }),
        });
      } catch (error) {
        const kind = signal.aborted ? 'cancelled' : classifyError(error);
        if (kind === 'cancelled') return this.#report(trigger, 'cancelled', startedAt, { push, error: 'cancelled', errorKind: kind });
        const message = error instanceof Error ? error.message : String(error);
        if (needsSignIn(kind)) return this.#report(trigger, 'sign-in-needed', startedAt, { push, error: message, errorKind: kind });
        // No account at the service: only the person signing up helps. No retry timer (never a
        // loop); the next interval or "Sync now" asks again.
        if (kind === 'no-account') return this.#report(trigger, 'error', startedAt, { push, error: message, errorKind: kind });
        const retryAt = this.#backoff.fail(kind, message, error instanceof ApiError ? error.retryAfterMs : undefined);
        return this.#report(trigger, isTransient(kind) ? 'backoff' : 'error', startedAt, { push, retryAt, error: message, errorKind: kind });
      }
      if (pull.status !== 'stale') break;
    }
    this.#backoff.succeed();
    // A pull that applied a snapshot or found none recorded the time in its own transaction.
    if (pull?.status !== 'applied' && pull?.status !== 'unchanged') setSyncState(this.#db, 'lastSyncAt', new Date(this.#now()).toISOString());
    return this.#report(trigger, 'ok', startedAt, { push, pull, ...(pull?.status === 'applied' ? { diff: pull.diff } : {}) });
  }

  #report(
    trigger: SyncTrigger,
    status: SyncStatus,
    startedAt: number,
    extra: { push?: FlushResult; pull?: PullResult; diff?: SnapshotDiff; retryAt?: number | undefined; error?: string | undefined; errorKind?: ErrorKind | undefined } = {},
  ): SyncReport {
    return {
      trigger,
      status,
      push: extra.push,
      pull: extra.pull,
      diff: extra.diff,
      startedAt,
      finishedAt: this.#now(),
      ...(extra.retryAt !== undefined ? { retryAt: extra.retryAt } : {}),
      ...(extra.error !== undefined ? { error: extra.error } : {}),
      ...(extra.error !== undefined && extra.errorKind !== undefined ? { errorKind: extra.errorKind } : {}),
    };
  }

  #armInterval(): void {
    if (this.#intervalTimer !== undefined) this.#timers.clearTimeout(this.#intervalTimer);
    this.#intervalTimer = this.#timers.setTimeout(() => {
      this.#intervalTimer = undefined;
      void this.syncNow('interval');
    }, this.intervalMinutes * 60_000);
  }

  #armRetry(at: number): void {
    if (this.#retryTimer !== undefined) this.#timers.clearTimeout(this.#retryTimer);
    this.#retryTimer = this.#timers.setTimeout(
      () => {
        this.#retryTimer = undefined;
        void this.syncNow('retry');
      },
      Math.max(0, at - this.#now()),
    );
  }

  #schedulePush(): void {
    if (this.#pushTimer !== undefined || this.#state === 'stopped') return;
    this.#pushTimer = this.#timers.setTimeout(() => {
      this.#pushTimer = undefined;
      void this.syncNow('push');
    }, this.#pushDelayMs);
  }

  #setState(state: SchedulerState): void {
    if (this.#state === state || this.#state === 'stopped') return;
    this.#state = state;
    this.#onDidChangeState.fire(state);
  }
}
