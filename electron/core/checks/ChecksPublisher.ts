import { UNKNOWN_CHECKS, type ChecksView } from '../../../shared/ipc/index.ts';
import type { Timers } from '../sync/SyncScheduler.ts';

export interface ChecksPublisherOptions {
  /** The open account's view; undefined when none is open. */
  read(): ChecksView | undefined;
  /** The `checks-changed` event. */
  emit(view: ChecksView): void;
  /** Asks for a sync (the open account's scheduler); what it brings is published by the caller's next `publish()`. */
  syncSoon(): void;
  timers?: Timers;
  now?: () => number;
}

/** How soon to look again while addresses are pending: at the queue's own estimate, within these bounds. */
export const FOLLOW_UP_MIN_MS = 10_000;
export const FOLLOW_UP_MAX_MS = 120_000;

const realTimers: Timers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Publishes `checks-changed` when what the UI shows about the source and the checks changed,
 * and, while the service still has addresses pending, asks for the next sync sooner than the
 * interval (at the queue's `nextCheckAt`, between 10 s and 2 min): "Checking 2 of your
 * addresses…" should move while the person watches, not half an hour later.
 */
export class ChecksPublisher {
  readonly #options: ChecksPublisherOptions;
  readonly #timers: Timers;
  readonly #now: () => number;
  #last: string | undefined;
  #followUp: unknown;

  constructor(options: ChecksPublisherOptions) {
    this.#options = options;
    this.#timers = options.timers ?? realTimers;
    this.#now = options.now ?? Date.now;
  }

  publish(): ChecksView {
    const view = this.#options.read() ?? UNKNOWN_CHECKS;
    const key = JSON.stringify(view);
    if (key !== this.#last) {
      this.#last = key;
      this.#options.emit(view);
    }
    this.#armFollowUp(view);
    return view;
  }

  /** The follow-up delay for a view; undefined when nothing is pending. */
  static followUpDelay(view: ChecksView, now: number): number | undefined {
    const pending = view.pending ?? view.checks?.addresses.filter((address) => address.state === 'pending').length ?? 0;
    if (pending === 0 || view.source === 'none' || view.checks?.problem) return undefined;
    const next = view.checks?.queue.nextCheckAt ? Date.parse(view.checks.queue.nextCheckAt) - now : FOLLOW_UP_MIN_MS;
    return Math.min(FOLLOW_UP_MAX_MS, Math.max(FOLLOW_UP_MIN_MS, next));
  }

  stop(): void {
    if (this.#followUp !== undefined) this.#timers.clearTimeout(this.#followUp);
    this.#followUp = undefined;
  }

  #armFollowUp(view: ChecksView): void {
    this.stop();
    const delay = ChecksPublisher.followUpDelay(view, this.#now());
    if (delay === undefined) return;
    this.#followUp = this.#timers.setTimeout(() => {
      this.#followUp = undefined;
      this.#options.syncSoon();
    }, delay);
  }
}
