import { UNKNOWN_CHECKS, type ChecksView } from '../../../shared/ipc/index.ts';
import { emitWhenChanged } from '../../../shared/ipc/viewOrder.ts';
import { backgroundTimers, type Timers } from '../../../shared/base/timers.ts';

export interface ChecksPublisherOptions {
  /** The open account's view; undefined when none is open. */
  read(): ChecksView | undefined;
  /** The `checks-changed` event. */
  emit(view: ChecksView): void;
  /** Asks for a sync (the open account's scheduler); what it brings is published by the caller's next `publish()`. */
  syncSoon(): void;
  /** How many addresses the open account's local list leaves out (its last answer's pending count); undefined when unknown. */
  listPending?(): number | undefined;
  timers?: Timers;
  now?: () => number;
}

/** How soon to look again while addresses are pending: at the queue's own estimate, within these bounds. */
export const FOLLOW_UP_MIN_MS = 10_000;
export const FOLLOW_UP_MAX_MS = 120_000;

/**
 * Publishes `checks-changed` when what the UI shows about the source and the checks changed,
 * and, while the service still has addresses pending, asks for the next sync sooner than the
 * interval (at the queue's `nextCheckAt`, between 10 s and 2 min): "Checking 2 of your
 * addresses…" should move while the person watches, not half an hour later. Also when nothing is
 * pending any more but the local list is behind the checks: a sync reads the list first and the
 * checks after it, so an address checked in between is "checked, in 2 breaches" while the list
 * still leaves it out; without a look soon, the list would catch up only at the interval. And
 * while the service says stealer-log searches are still to come (they run after every address's
 * breaches).
 */
export class ChecksPublisher {
  readonly #options: ChecksPublisherOptions;
  readonly #timers: Timers;
  readonly #now: () => number;
  readonly #emit: (view: ChecksView) => void;
  #followUp: unknown;

  constructor(options: ChecksPublisherOptions) {
    this.#options = options;
    this.#emit = emitWhenChanged((view) => options.emit(view));
    this.#timers = options.timers ?? backgroundTimers;
    this.#now = options.now ?? Date.now;
  }

  publish(): ChecksView {
    const view = this.#options.read() ?? UNKNOWN_CHECKS;
    this.#emit(view);
    this.#armFollowUp(view, this.#options.listPending?.());
    return view;
  }

  /**
   * The follow-up delay for a view and the count the local list leaves out; undefined when
   * nothing is pending, the list has caught up with the checks, and no stealer-log search is to come.
   */
  static followUpDelay(view: ChecksView, now: number, listPending?: number): number | undefined {
    const pending = view.pending ?? view.checks?.addresses.filter((address) => address.state === 'pending').length ?? 0;
    if (view.source === 'none' || view.checks?.problem) return undefined;
    // Checked since the list was served: the next list has their breaches now.
    if ((listPending ?? 0) > pending) return FOLLOW_UP_MIN_MS;
    if (pending === 0) return ChecksPublisher.#stealerDelay(view);
    const next = view.checks?.queue.nextCheckAt ? Date.parse(view.checks.queue.nextCheckAt) - now : FOLLOW_UP_MIN_MS;
    return Math.min(FOLLOW_UP_MAX_MS, Math.max(FOLLOW_UP_MIN_MS, next));
  }

  /**
   * Stealer logs are searched after every address's breaches: with none pending, some may still
   * be to come. Looks again when the queue should have run what is waiting now (at its rate).
   */
  static #stealerDelay(view: ChecksView): number | undefined {
    const checks = view.checks;
    if (!checks?.stealerLogs.available || !checks.stealerLogs.pending) return undefined;
    const { waiting, requestsPerMinute } = checks.queue;
    const estimate = requestsPerMinute ? Math.ceil((waiting / requestsPerMinute) * 60_000) : FOLLOW_UP_MIN_MS;
    return Math.min(FOLLOW_UP_MAX_MS, Math.max(FOLLOW_UP_MIN_MS, estimate));
  }

  stop(): void {
    if (this.#followUp !== undefined) this.#timers.clearTimeout(this.#followUp);
    this.#followUp = undefined;
  }

  #armFollowUp(view: ChecksView, listPending: number | undefined): void {
    this.stop();
    const delay = ChecksPublisher.followUpDelay(view, this.#now(), listPending);
    if (delay === undefined) return;
    this.#followUp = this.#timers.setTimeout(() => {
      this.#followUp = undefined;
      this.#options.syncSoon();
    }, delay);
  }
}
