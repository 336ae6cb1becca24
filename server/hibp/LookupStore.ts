import type { SourceProblemCode } from '../../shared/api/index.ts';

/** What the queue knows about one monitored address. Times are milliseconds since the epoch. */
export interface AddressCheckRow {
  email: string;
  /** When the service first monitored it: new addresses are looked up first, oldest first. */
  addedAt: number;
  /** When an answer last asked about it (to the hour): re-checks stop for addresses nobody asks about. */
  seenAt: number;
  /** When HIBP last answered for it; null until then (unknown, not clean). */
  checkedAt: number | null;
  /** When it is due for a lookup; null when it is looked up through its domain. */
  dueAt: number | null;
  breachCount: number | null;
  viaDomain: boolean;
  /** The last try's failure, a sentence; null when the last try answered. */
  problem: string | null;
  stealerCheckedAt: number | null;
  stealerDomains: string[] | null;
}

/** One lookup the queue hands to a worker. */
export type LookupJob = { kind: 'account'; email: string } | { kind: 'domain'; domain: string } | { kind: 'stealer'; email: string };

/** What every instance sharing the database knows about the source (one row). */
export interface SourceState {
  /** The key's rate limit from `subscription/status`; null until read. */
  rpm: number | null;
  /** No request to HIBP before this (a 429's `retry-after`). */
  blockedUntil: number;
  /** No request before this either: HIBP failed (5xx, timeout) and the queue backs off. */
  backoffUntil: number;
  /** Consecutive failures that set `backoffUntil`. */
  failures: number;
  stealerLogs: boolean;
  problem: { code: SourceProblemCode; detail: string } | null;
}

/** A granted slot names its request in flight, so its answer can end the flight (see {@link LookupStore.landed}). */
export type SlotAnswer = { granted: true; flight: string } | { granted: false; retryAt: number };

/**
 * The lookup queue and the rate budget, in the service's database so that instances sharing
 * one PostgreSQL share one budget (SQLite: `SqliteLookupStore`; PostgreSQL:
 * `PostgresLookupStore`). Every method is one transaction (but see `dueAgainIfCheckedBefore`). Emails are in `emailKey` form.
 */
export interface LookupStore {
  /**
   * Starts tracking the addresses it does not know yet, due `now`. An address on one of
   * `searchedDomains` is looked up with its domain instead: the domain becomes due unless it was
   * searched after the address was added.
   */
  track(emails: readonly string[], now: number, searchedDomains: readonly string[]): Promise<void>;
  checks(emails: readonly string[]): Promise<Map<string, AddressCheckRow>>;
  /** Someone asked about these tracked addresses at `now`: they stay monitored (see {@link MONITORED_WITHIN_MS}). */
  seen(emails: readonly string[], now: number): Promise<void>;
  /** Tracked addresses on `domain` (lower case). */
  emailsOnDomain(domain: string): Promise<string[]>;
  /** Lookups due at `now` across the service (addresses, domains, stealer logs when `stealerLogs`). */
  waiting(now: number, stealerLogs: boolean): Promise<number>;
  /**
   * Due account lookups ordered before `email`'s (0 when it is next), for estimates; counted up to
   * `limit` when given (an estimate further out than that needs only to know it is that far: after
   * a new breach at a million people an address can have two million ahead of it).
   */
  aheadOf(email: string, now: number, limit?: number): Promise<number>;
  /** The earliest time any lookup falls due (≤ now when one is due now), judged at `now`; null when none is scheduled. */
  nextDue(now: number, stealerLogs: boolean): Promise<number | null>;
  /**
   * Leases the most urgent due lookup to `owner` until `leaseUntil`: new addresses, then
   * domains, then stealer logs of checked addresses, then the longest-unchecked re-checks.
   */
  claim(now: number, leaseUntil: number, owner: string, stealerLogs: boolean): Promise<LookupJob | undefined>;
  accountChecked(email: string, now: number, breachCount: number, nextDueAt: number): Promise<void>;
  /** Records a domain search: every tracked address on it, with its breach count (0 when absent). */
  domainChecked(domain: string, now: number, nextDueAt: number, counts: ReadonlyMap<string, number>): Promise<void>;
  stealerChecked(email: string, now: number, domains: readonly string[], nextDueAt: number): Promise<void>;
  /** The lookup failed for a reason of its own; it is due again at `retryAt`. */
  failed(job: LookupJob, problem: string, retryAt: number): Promise<void>;
  /** Gives a leased lookup back untouched (HIBP asked to wait): due as it was. */
  release(job: LookupJob): Promise<void>;
  /**
   * Checked addresses last looked up before `time` become due at `now` (a breach added to the
   * catalog). The one method that may take several transactions: PostgreSQL's makes addresses due
   * in batches, so a million of them never sit under one transaction's locks.
   */
  dueAgainIfCheckedBefore(time: number, now: number): Promise<number>;
  /**
   * The domains searched as a whole (`--hibp-domain`): new ones are due now and take their
   * tracked addresses over; addresses of a domain no longer searched are looked up one by one.
   */
  setSearchedDomains(domains: readonly string[], now: number): Promise<void>;

  /**
   * Takes one request's place in the budget: granted when no hold is on, no other request is in
   * flight (until `now + flightMs` at the latest: a crashed instance cannot block the rest), and
   * fewer than `rpm` requests were sent in the `windowMs` before `now`; otherwise when to ask
   * again. One request in flight at a time, across instances, so a 429 is always known before the
   * next request leaves.
   */
  takeSlot(now: number, rpm: number, windowMs: number, flightMs: number): Promise<SlotAnswer>;
  /** The request of `flight` has its answer (and what it taught is recorded): the next may go. */
  landed(flight: string): Promise<void>;
  /** When the requests still in the budget's memory were sent after `after`, across instances, oldest first. */
  sentSince(after: number): Promise<number[]>;
  state(): Promise<SourceState>;
  /**
   * Brings a hold (`blockedUntil`, `backoffUntil`) later than `latest` back to `latest`, in one
   * transaction: a hold stored by an older version, or from a `retry-after` no one should obey,
   * cannot outlive the bound. Answers the state as it was before.
   */
  clampHolds(latest: number): Promise<SourceState>;
  /** Changes the shared source state; `blockedUntil`/`backoffUntil` only ever move later unless `reset`. */
  updateState(patch: Partial<SourceState>, options?: { reset?: boolean }): Promise<SourceState>;
  close(): Promise<void>;
}

/**
 * An address no answer has asked about for this long (nobody monitors it any more, or nobody
 * signs in) is not looked up again until someone does: HIBP asks that only addresses of people
 * who expect it are searched.
 */
export const MONITORED_WITHIN_MS = 30 * 24 * 3600 * 1000;
/** `seenAt` is written at most this often per address, so reading an answer rarely writes. */
export const SEEN_GRANULARITY_MS = 3600 * 1000;

export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function aliasOf(email: string): string {
  return email.slice(0, email.lastIndexOf('@'));
}
