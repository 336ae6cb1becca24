import type { AddressCheck, UserChecks } from '../../shared/api/index.ts';
import type { ExposureSource, Knowledge, Pending } from '../breaches/exposureSource.ts';
import type { BreachStore } from '../breaches/BreachStore.ts';
import type { Clock } from './clock.ts';
import { boundStealerDomains } from './stealerDomains.ts';
import { HIBP_ATTRIBUTION } from './client.ts';
import { DEFAULT_RPM, type LookupQueue } from './LookupQueue.ts';
import { domainOf, SEEN_GRANULARITY_MS, type AddressCheckRow, type LookupStore, type SourceState } from './LookupStore.ts';

/** A queue this long is counted at most every few seconds per instance (see HibpExposures#waiting). */
const LONG_QUEUE = 10_000;
/** How far ahead an address's place is counted, in minutes of lookups at the key's Rpm (see #expectedAt). */
export const AHEAD_COUNTED_MINUTES = 24 * 60;

/**
 * Exposures from Have I Been Pwned: what the lookup queue has stored, for the addresses it has
 * checked. An address the service has not seen before is added to the queue (new ones are
 * looked up first); until its lookup answers it is pending, never clean.
 */
export class HibpExposures implements ExposureSource {
  readonly kind = 'hibp';
  readonly #lookups: LookupStore;
  readonly #breaches: BreachStore;
  readonly #queue: LookupQueue;
  readonly #clock: Clock;
  readonly #domains: ReadonlySet<string>;
  /** The last long queue's count (see #waiting). */
  #longQueue: { count: number; stealerLogs: boolean; until: number } | undefined;
  /** The count under way, shared by the answers asked while it runs. */
  #counting: { stealerLogs: boolean; count: Promise<number> } | undefined;

  constructor(options: { lookups: LookupStore; breaches: BreachStore; queue: LookupQueue; clock: Clock; domains: readonly string[] }) {
    this.#lookups = options.lookups;
    this.#breaches = options.breaches;
    this.#queue = options.queue;
    this.#clock = options.clock;
    this.#domains = new Set(options.domains);
  }

  async know(emails: readonly string[]): Promise<Knowledge> {
    const rows = await this.#tracked(emails);
    const checked = emails.filter((email) => rows.get(email)?.checkedAt != null);
    const stored = checked.length === 0 ? new Map<string, string[]>() : await this.#breaches.getExposures(checked);
    const exposures = new Map(checked.map((email) => [email, stored.get(email) ?? []]));
    return { source: 'hibp', exposures, pending: emails.filter((email) => rows.get(email)?.checkedAt == null) };
  }

  async pending(emails: readonly string[]): Promise<Pending> {
    const [rows, state] = await Promise.all([this.#tracked(emails), this.#lookups.state()]);
    // What `checks` is built from besides the time (its estimates): the rows but when they were seen, and the source's state.
    const stamp = JSON.stringify([emails.map((email) => ({ ...rows.get(email), seenAt: undefined })), state]);
    return { source: 'hibp', pending: emails.filter((email) => rows.get(email)?.checkedAt == null), stamp };
  }

  async checks(emails: readonly string[]): Promise<UserChecks> {
    const rows = await this.#tracked(emails);
    const state = await this.#lookups.state();
    const now = this.#clock.now();
    const addresses: AddressCheck[] = [];
    for (const email of emails) {
      const row = rows.get(email);
      addresses.push({
        email,
        state: row?.problem ? 'failed' : row?.checkedAt != null ? 'checked' : 'pending',
        checkedAt: iso(row?.checkedAt ?? null),
        nextCheckAt: iso(row ? await this.#expectedAt(row, state, now) : null),
        breachCount: row?.checkedAt != null ? row.breachCount : null,
        viaDomainSearch: row?.viaDomain ?? this.#domains.has(domainOf(email)),
        problem: row?.problem ?? null,
      });
    }
    const unchecked = addresses.filter((address) => address.checkedAt === null && address.nextCheckAt !== null);
    const nextTimes = (unchecked.length > 0 ? unchecked : addresses).map((address) => address.nextCheckAt).filter((at): at is string => at !== null);
    return {
      source: 'hibp',
      attribution: HIBP_ATTRIBUTION,
      addresses,
      queue: {
        requestsPerMinute: state.rpm,
        waiting: await this.#waiting(now, state.stealerLogs),
        nextCheckAt: nextTimes.length === 0 ? null : nextTimes.reduce((a, b) => (a < b ? a : b)),
      },
      stealerLogs: {
        available: state.stealerLogs,
        pending: state.stealerLogs ? emails.filter((email) => rows.get(email)?.stealerCheckedAt == null).length : 0,
        entries: state.stealerLogs
          ? emails.flatMap((email) => {
              const row = rows.get(email);
              // Bounded again as served: rows stored before the answer was checked may hold anything.
              const domains = row?.stealerDomains ? boundStealerDomains(row.stealerDomains).domains : [];
              return domains.length > 0 && row!.stealerCheckedAt !== null ? [{ email, domains, checkedAt: iso(row!.stealerCheckedAt)! }] : [];
            })
          : [],
      },
      problem: state.problem,
    };
  }

  /**
   * How many lookups wait, for an answer's `queue.waiting` (an estimate, left out of the checks'
   * version). Counting reads every waiting row: after a new breach at a million people that is two
   * million rows, on every person's read. So a count of {@link LONG_QUEUE} or more is reused for
   * 20 times as long as it took (a second at least); a short queue is counted every time.
   */
  async #waiting(now: number, stealerLogs: boolean): Promise<number> {
    const known = this.#longQueue;
    if (known && known.stealerLogs === stealerLogs && now < known.until) return known.count;
    // Answers asked meanwhile share the count under way instead of each starting one: at two million
    // rows a count takes seconds, and sixteen at once took six seconds each.
    if (this.#counting?.stealerLogs === stealerLogs) return this.#counting.count;
    const count = this.#countWaiting(now, stealerLogs);
    this.#counting = { stealerLogs, count };
    try {
      return await count;
    } finally {
      if (this.#counting?.count === count) this.#counting = undefined;
    }
  }

  async #countWaiting(now: number, stealerLogs: boolean): Promise<number> {
    const started = performance.now();
    const count = await this.#lookups.waiting(now, stealerLogs);
    const took = performance.now() - started;
    this.#longQueue = count >= LONG_QUEUE ? { count, stealerLogs, until: now + Math.max(1000, 20 * took) } : undefined;
    return count;
  }

  /** The rows of `emails`, tracking (and waking the queue for) the ones never seen. */
  async #tracked(emails: readonly string[]): Promise<Map<string, AddressCheckRow>> {
    let rows = await this.#lookups.checks(emails);
    const now = this.#clock.now();
    const stale = [...rows.values()].filter((row) => row.seenAt < now - SEEN_GRANULARITY_MS).map((row) => row.email);
    if (stale.length > 0) {
      await this.#lookups.seen(stale, now);
      // An address nobody had asked about for a while may be overdue: look now.
      this.#queue.wake();
    }
    const unknown = emails.filter((email) => !rows.has(email));
    if (unknown.length > 0) {
      await this.#lookups.track(unknown, this.#clock.now(), [...this.#domains]);
      this.#queue.wake();
      rows = await this.#lookups.checks(emails);
    }
    return rows;
  }

  /**
   * When the queue expects to look the address up: its due time, no earlier than now or a hold,
   * plus a window for every Rpm lookups ahead of it. An estimate; null while nothing is scheduled.
   */
  async #expectedAt(row: AddressCheckRow, state: SourceState, now: number): Promise<number | null> {
    // Nothing is looked up with a refused key or from an address that is not HIBP's: no time to promise.
    if (row.dueAt === null || state.problem?.code === 'key-refused' || state.problem?.code === 'wrong-address') return null;
    const start = Math.max(row.dueAt, now, state.blockedUntil, state.backoffUntil);
    if (row.dueAt > now) return start;
    const rpm = state.rpm ?? DEFAULT_RPM;
    // Counted up to a day of lookups at the key's Rpm: further out, the estimate says a day (counting two million rows per address would stall every answer).
    const ahead = row.viaDomain ? 0 : await this.#lookups.aheadOf(row.email, now, rpm * AHEAD_COUNTED_MINUTES);
    return slotTime(await this.#lookups.sentSince(now - this.#queue.windowMs), ahead, start, rpm, this.#queue.windowMs);
  }
}

/**
 * When the budget lets the request `ahead` places down the queue go: each request waits until
 * fewer than `rpm` were sent in the window before it, the ones already sent included.
 */
export function slotTime(sent: readonly number[], ahead: number, start: number, rpm: number, windowMs: number): number {
  const times = [...sent];
  let at = start;
  for (let i = 0; i <= ahead; i++) {
    if (times.length >= rpm) at = Math.max(at, times[times.length - rpm]! + windowMs);
    times.push(at);
  }
  return at;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
