import { emailKey, UserChecks, type BreachDataSource } from '../../../shared/api/index.ts';
import { nextViewSeq } from '../../../shared/ipc/viewOrder.ts';
import { ChecksView } from '../../../shared/ipc/index.ts';
import { clearServerState } from './breachQueries.ts';
import { statement, type ReadableDB, type WritableDB } from './Interface.ts';
import { getSyncState, setSyncState } from './syncStateQueries.ts';

/** The two headers as read from one answer; undefined where the service did not say (or said something unreadable). */
export interface BreachDataHeaderValues {
  source: BreachDataSource | undefined;
  pending: number | undefined;
  /** `breach-checks-version` / `breach-catalog-changes-version`: absent from services that do not say (then the follow-ups are asked every time). */
  checksVersion?: string | undefined;
  catalogChangesVersion?: string | undefined;
  /** `breach-catalog-version`: the version of the service's own details feed; absent from services that do not say (then the feed is read after every sync). */
  catalogVersion?: string | undefined;
}

interface Row {
  source: BreachDataSource | null;
  pending: number | null;
  checks_json: string | null;
  checks_served: 'yes' | 'no' | 'unknown';
  updated_at: string | null;
  demo_cleared_at: string | null;
}

/**
 * The account's breach-data row as the UI sees it, numbered (`seq`) so a window keeps the latest
 * of an answer and an event that crossed. A stored answer that no longer parses counts as unknown.
 */
export function readChecksView(db: ReadableDB): ChecksView {
  const row = statement(db, 'SELECT source, pending, checks_json, checks_served, updated_at, demo_cleared_at FROM breach_data WHERE id = 1').get() as Row | undefined;
  const seq = nextViewSeq();
  if (!row) return ChecksView.parse({ source: 'unknown', pending: null, checks: null, checksServed: 'unknown', updatedAt: null, demoClearedAt: null, seq });
  let checks: UserChecks | null = null;
  if (row.checks_json !== null) {
    const parsed = UserChecks.safeParse(JSON.parse(row.checks_json));
    if (parsed.success) checks = parsed.data;
  }
  return { source: row.source ?? 'unknown', pending: row.pending, checks, checksServed: row.checks_served, updatedAt: row.updated_at, demoClearedAt: row.demo_cleared_at, seq };
}

export function storedSource(db: ReadableDB): BreachDataSource | undefined {
  return (statement(db, 'SELECT source FROM breach_data WHERE id = 1').pluck().get() as BreachDataSource | null | undefined) ?? undefined;
}

/**
 * Records the headers of one answer; call inside the transaction that applies that answer, before
 * it writes breaches. When the source moves from `demo` to anything else, the invented exposures
 * are removed first (and the ETag with them, so the next pull is a full one), and the next
 * snapshot is a new baseline: real breaches arriving after demo ones are not announced as "new".
 * Any other change of source also starts a new baseline. Returns how many breaches were removed.
 */
export function recordBreachDataHeaders(db: WritableDB, values: BreachDataHeaderValues, now: string): { demoCleared: number } {
  const previous = storedSource(db);
  let demoCleared = 0;
  if (values.source !== undefined && previous !== undefined && values.source !== previous) {
    if (previous === 'demo') demoCleared = clearDemoExposures(db, now);
    setSyncState(db, 'baselineAt', undefined);
  }
  if (values.source === undefined && values.pending === undefined) return { demoCleared };
  statement(db, 'UPDATE breach_data SET source = coalesce(?, source), pending = ?, updated_at = ? WHERE id = 1').run(values.source ?? null, values.pending ?? null, now);
  return { demoCleared };
}

/**
 * Records the headers of a `GET /user/breaches` answer (200 or 304), as {@link recordBreachDataHeaders}
 * does, and what that list leaves out: the checks, read after it, may already say those addresses
 * were checked, and then the list is behind them until the next pull ({@link listPending}).
 */
export function recordListHeaders(db: WritableDB, values: BreachDataHeaderValues, now: string): { demoCleared: number } {
  const result = recordBreachDataHeaders(db, values, now);
  setSyncState(db, 'listPending', values.pending === undefined ? undefined : String(values.pending));
  return result;
}

/** Addresses the local list leaves out (pending when it was served); undefined when the service did not say. */
export function listPending(db: ReadableDB): number | undefined {
  const text = getSyncState(db, 'listPending');
  return text === undefined ? undefined : Number(text);
}

/**
 * Removes every breach the service served (they were invented) and what sync remembers of them.
 * The person's own queued changes stay in the outbox: they are theirs, and a real service
 * answers for breaches it does not know.
 */
export function clearDemoExposures(db: WritableDB, now: string): number {
  const count = statement(db, 'SELECT count(*) FROM breaches').pluck().get() as number;
  clearServerState(db);
  setSyncState(db, 'etag', undefined);
  setSyncState(db, 'baselineAt', undefined);
  setSyncState(db, 'newBreachIds', undefined);
  setSyncState(db, 'listPending', undefined);
  setSyncState(db, 'checksVersion', undefined);
  setSyncState(db, 'catalogChangesVersion', undefined);
  statement(db, "UPDATE breach_data SET source = NULL, pending = NULL, checks_json = NULL, checks_served = 'unknown', listed_json = NULL, demo_cleared_at = ? WHERE id = 1").run(now);
  return count;
}

/** `GET /user/checks` answered (validated against the contract) or said it does not serve it (404). */
export type ChecksAnswer = { status: 'served'; checks: UserChecks; headers: BreachDataHeaderValues } | { status: 'not-served' };

/**
 * Records an answer of `GET /user/checks` in one transaction. `accountsPerEmail`: how many of the
 * stored breaches name each email, when the caller has just written them (a snapshot counts them
 * as it writes); otherwise they are counted from the table.
 */
export function recordChecks(db: WritableDB, answer: ChecksAnswer, now: string, accountsPerEmail?: ReadonlyMap<string, number>): void {
  db.transaction(() => {
    if (answer.status === 'not-served') {
      statement(db, "UPDATE breach_data SET checks_json = NULL, checks_served = 'no', listed_json = NULL WHERE id = 1").run();
      return;
    }
    // The body says its source too; the header is the contract's word, the body's is the fallback.
    const headers = { source: answer.headers.source ?? answer.checks.source, pending: answer.headers.pending ?? answer.checks.addresses.filter((a) => a.state === 'pending').length };
    const { demoCleared } = recordBreachDataHeaders(db, headers, now);
    // Breaches removed just now (demo data left behind) are no longer what the caller counted.
    const listed = demoCleared === 0 && accountsPerEmail ? accountsPerEmail : storedAccountsPerEmail(db);
    // Validated once, when the answer was read (readChecksAnswer), and again whenever it is read back.
    statement(db, "UPDATE breach_data SET checks_json = ?, checks_served = 'yes', listed_json = ?, updated_at = ? WHERE id = 1").run(
      JSON.stringify(answer.checks),
      JSON.stringify(listedAddresses(listed, answer.checks)),
      now,
    );
  }).immediate();
}

/**
 * The stored checks read again against the list just written (which of their checked addresses
 * it holds), where the checks were not asked again because their version stood still.
 */
export function relistChecks(db: WritableDB, accountsPerEmail?: ReadonlyMap<string, number>): void {
  const { checks } = readChecksView(db);
  if (!checks) return;
  statement(db, 'UPDATE breach_data SET listed_json = ? WHERE id = 1').run(JSON.stringify(listedAddresses(accountsPerEmail ?? storedAccountsPerEmail(db), checks)));
}

/**
 * The stored checks still wait on a lookup (an address pending, stealer-log searches to come):
 * what they show of it ("next check in 3 min", the queue) is an estimate that moves with time,
 * so they are asked again whatever their version.
 */
export function checksAwaitLookups(db: ReadableDB): boolean {
  const { checks } = readChecksView(db);
  if (!checks) return false;
  return checks.addresses.some((address) => address.state === 'pending') || (checks.stealerLogs.available && (checks.stealerLogs.pending ?? 0) > 0);
}

/** Email → how many stored breaches name it. */
function storedAccountsPerEmail(db: ReadableDB): Map<string, number> {
  return new Map(statement(db, 'SELECT email, count(*) FROM breached_accounts GROUP BY email').raw().all() as [string, number][]);
}

/**
 * The checked addresses whose breaches the local list already holds: at least as many breaches
 * name the address here as its check found. One checked between the service's list and its
 * checks answer (or whose breaches the service's catalog does not have yet) is not among them
 * until the list catches up, so what its first check found is never announced as new.
 */
function listedAddresses(listed: ReadonlyMap<string, number>, checks: UserChecks): string[] {
  return checks.addresses
    .filter((address) => address.state !== 'pending' && address.checkedAt !== null && address.breachCount !== null)
    .map((address) => ({ key: emailKey(address.email), found: address.breachCount! }))
    .filter(({ key, found }) => (listed.get(key) ?? 0) >= found)
    .map(({ key }) => key);
}

/** Forgets the "demo data was cleared" note (once the person has seen it, or a new account). */
export function forgetDemoCleared(db: WritableDB): void {
  statement(db, 'UPDATE breach_data SET demo_cleared_at = NULL WHERE id = 1').run();
}

/**
 * Which addresses the service had already checked at the previous sync, with their breaches in the
 * local list (`listedAddresses`): a breach that names only other addresses is what a first check
 * found, not a new breach, and is not announced.
 * `undefined` means "no way to tell" (an older service that says nothing): every new breach is
 * announced as before. With the pending count but no per-address checks, all or none were known.
 */
export function addressesCheckedBefore(db: ReadableDB): { has(email: string): boolean } | undefined {
  const view = readChecksView(db);
  if (view.checks) {
    const raw = statement(db, 'SELECT listed_json FROM breach_data WHERE id = 1').pluck().get() as string | null;
    const known = new Set<string>(raw ? (JSON.parse(raw) as string[]) : []);
    return { has: (email) => known.has(emailKey(email)) };
  }
  if (view.source === 'unknown' || view.pending === null) return undefined;
  const all = view.pending === 0;
  return { has: () => all };
}
