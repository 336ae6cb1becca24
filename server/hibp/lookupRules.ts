import { SourceProblemCode } from '../../shared/api/index.ts';
import { MONITORED_WITHIN_MS, type LookupJob, type SlotAnswer, type SourceState } from './LookupStore.ts';

// The lookup queue's rules, kept above its SQLite and PostgreSQL implementations so both decide
// exactly alike (test/server/store/lookupStore.test.ts runs them on each); the dialect classes
// only say each step in their SQL.

/** While another request is in flight, ask again this soon (it usually lands within a few hundred ms). */
export const IN_FLIGHT_POLL_MS = 250;

/**
 * The queues a claim takes work from, in the order it tries them (see `LookupStore.claim`):
 * - `new`: addresses never looked up, oldest first — a person waits for the first answer;
 * - `domain`: searched domains, never searched first, then the longest unsearched;
 * - `stealer`: stealer logs of addresses still asked about (only when the key includes them);
 * - `recheck`: addresses still asked about, the longest unchecked first.
 */
export type ClaimQueue = 'new' | 'domain' | 'stealer' | 'recheck';

const CLAIM_ORDER: readonly ClaimQueue[] = ['new', 'domain', 'stealer', 'recheck'];

export function claimOrder(stealerLogs: boolean): readonly ClaimQueue[] {
  return stealerLogs ? CLAIM_ORDER : CLAIM_ORDER.filter((queue) => queue !== 'stealer');
}

/** Queues that only take addresses someone asked about since {@link monitoredSince}. */
export function onlyMonitored(queue: ClaimQueue): boolean {
  return queue === 'stealer' || queue === 'recheck';
}

/** The oldest `seenAt` an address may have and still be looked up again (see {@link MONITORED_WITHIN_MS}). */
export function monitoredSince(now: number): number {
  return now - MONITORED_WITHIN_MS;
}

/** The job a claim hands out for the row `key` (an email, or a domain) of `queue`. */
export function claimedJob(queue: ClaimQueue, key: string): LookupJob {
  if (queue === 'domain') return { kind: 'domain', domain: key };
  return { kind: queue === 'stealer' ? 'stealer' : 'account', email: key };
}

/** The source's row as a slot needs it: its holds and the request in flight. */
export interface SlotHolds {
  blockedUntil: number;
  backoffUntil: number;
  inFlightUntil: number;
}

/** A slot's first look, at the source's row: a hold or a request in flight refuses it (and says when to ask again). */
export function refusedByHolds(now: number, holds: SlotHolds): SlotAnswer | undefined {
  const hold = Math.max(holds.blockedUntil, holds.backoffUntil);
  if (now < hold) return { granted: false, retryAt: hold };
  if (now < holds.inFlightUntil) return { granted: false, retryAt: Math.min(holds.inFlightUntil, now + IN_FLIGHT_POLL_MS) };
  return undefined;
}

/**
 * Which of the sent requests a slot reads: those sent after `countAfter` fill the window; those
 * sent at or before `forgetUpTo` are deleted first (ten windows stay, for `LookupStore.sentSince`).
 */
export function requestWindow(now: number, windowMs: number): { forgetUpTo: number; countAfter: number } {
  return { forgetUpTo: now - 10 * windowMs, countAfter: now - windowMs };
}

/**
 * A slot's second look, at the requests sent in the window (oldest first): with `rpm` of them
 * already, the next may go once the oldest of the last `rpm` leaves the window.
 */
export function refusedByBudget(recent: readonly number[], rpm: number, windowMs: number): SlotAnswer | undefined {
  if (recent.length < rpm) return undefined;
  return { granted: false, retryAt: recent[recent.length - rpm]! + windowMs };
}

/** The `source_state` row with its columns as values (each dialect converts its own types first). */
export interface SourceStateColumns {
  rpm: number | null;
  blocked_until: number;
  backoff_until: number;
  failures: number;
  stealer_logs: boolean;
  problem_code: string | null;
  problem_detail: string | null;
}

/** The source state a row records; its problem only when the code is one the service knows and a detail is present. */
export function sourceStateOf(row: SourceStateColumns): SourceState {
  const code = SourceProblemCode.safeParse(row.problem_code);
  return {
    rpm: row.rpm,
    blockedUntil: row.blocked_until,
    backoffUntil: row.backoff_until,
    failures: row.failures,
    stealerLogs: row.stealer_logs,
    problem: code.success && row.problem_detail !== null ? { code: code.data, detail: row.problem_detail } : null,
  };
}

/** Holds only ever move later (another instance may have set a longer one), unless reset. */
export function mergeState(current: SourceState, patch: Partial<SourceState>, reset: boolean): SourceState {
  const next = { ...current, ...patch };
  if (!reset) {
    next.blockedUntil = Math.max(current.blockedUntil, patch.blockedUntil ?? 0);
    next.backoffUntil = Math.max(current.backoffUntil, patch.backoffUntil ?? 0);
  }
  return next;
}
