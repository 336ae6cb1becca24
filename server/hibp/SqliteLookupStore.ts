import { randomUUID } from 'node:crypto';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { domainOf, SEEN_GRANULARITY_MS, type AddressCheckRow, type LookupJob, type LookupStore, type SlotAnswer, type SourceState } from './LookupStore.ts';
import { claimedJob, claimOrder, mergeState, monitoredSince, onlyMonitored, refusedByBudget, refusedByHolds, requestWindow, sourceStateOf, type ClaimQueue, type SlotHolds } from './lookupRules.ts';
import { schemaVersion } from '../storage/sqliteMigrate.ts';
import { LATEST_SCHEMA_VERSION } from '../breaches/migrations/index.ts';
import { openPrivateDatabase } from '../../engine/db/openPrivateDatabase.ts';

/** Each claim queue's next row (see lookupRules' `claimOrder`): `now` twice, then `monitoredSince(now)` where the queue asks for it. */
const NEXT_IN_QUEUE: Record<ClaimQueue, string> = {
  new: 'SELECT email FROM address_checks WHERE via_domain = 0 AND checked_at IS NULL AND due_at <= ? AND lease_until <= ? ORDER BY added_at, email LIMIT 1',
  domain: 'SELECT domain FROM searched_domains WHERE due_at <= ? AND lease_until <= ? ORDER BY checked_at IS NOT NULL, checked_at, domain LIMIT 1',
  stealer: 'SELECT email FROM address_checks WHERE stealer_due_at <= ? AND lease_until <= ? AND seen_at >= ? ORDER BY stealer_checked_at IS NOT NULL, stealer_checked_at, email LIMIT 1',
  recheck: 'SELECT email FROM address_checks WHERE via_domain = 0 AND checked_at IS NOT NULL AND due_at <= ? AND lease_until <= ? AND seen_at >= ? ORDER BY checked_at, email LIMIT 1',
};

interface CheckRecord {
  email: string;
  added_at: number;
  seen_at: number;
  checked_at: number | null;
  due_at: number | null;
  breach_count: number | null;
  via_domain: number;
  problem: string | null;
  stealer_checked_at: number | null;
  stealer_domains: string | null;
}

interface StateRecord {
  rpm: number | null;
  blocked_until: number;
  backoff_until: number;
  failures: number;
  stealer_logs: number;
  problem_code: string | null;
  problem_detail: string | null;
}

/**
 * {@link LookupStore} on the service's SQLite file, through a connection of its own (the breach
 * store keeps its own). Writes run `BEGIN IMMEDIATE`, so two processes on one file (which the
 * service does not do, but a crash-restart overlap might) still take slots one at a time.
 */
export class SqliteLookupStore implements LookupStore {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    const version = schemaVersion(db);
    if (version !== LATEST_SCHEMA_VERSION) throw new Error(`database schema version is ${version}, expected ${LATEST_SCHEMA_VERSION}; open the breach store first (it migrates)`);
    this.#db = db;
  }

  async track(emails: readonly string[], now: number, searchedDomains: readonly string[]): Promise<void> {
    const searched = new Set(searchedDomains);
    const insert = this.#db.prepare(`INSERT INTO address_checks (email, domain, added_at, seen_at, due_at, via_domain) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING`);
    const domainDue = this.#db.prepare(
      `INSERT INTO searched_domains (domain, due_at) VALUES (?, ?)
       ON CONFLICT (domain) DO UPDATE SET due_at = min(coalesce(due_at, excluded.due_at), excluded.due_at)`,
    );
    this.#immediate(() => {
      for (const email of emails) {
        const domain = domainOf(email);
        const viaDomain = searched.has(domain);
        if (insert.run(email, domain, now, now, viaDomain ? null : now, viaDomain ? 1 : 0).changes === 1 && viaDomain) domainDue.run(domain, now);
      }
    });
  }

  async checks(emails: readonly string[]): Promise<Map<string, AddressCheckRow>> {
    const rows = this.#db
      .prepare(
        `SELECT c.email, c.added_at, c.seen_at, c.checked_at, coalesce(d.due_at, c.due_at) AS due_at, c.breach_count, c.via_domain,
                coalesce(c.problem, d.problem) AS problem, c.stealer_checked_at, c.stealer_domains
         FROM address_checks AS c LEFT JOIN searched_domains AS d ON c.via_domain = 1 AND d.domain = c.domain
         WHERE c.email IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(emails)) as CheckRecord[];
    return new Map(rows.map((row) => [row.email, fromRecord(row)]));
  }

  async seen(emails: readonly string[], now: number): Promise<void> {
    this.#db.prepare('UPDATE address_checks SET seen_at = ? WHERE email IN (SELECT value FROM json_each(?)) AND seen_at < ?').run(now, JSON.stringify(emails), now - SEEN_GRANULARITY_MS);
  }

  async emailsOnDomain(domain: string): Promise<string[]> {
    return this.#db.prepare('SELECT email FROM address_checks WHERE domain = ? ORDER BY email').pluck().all(domain) as string[];
  }

  async waiting(now: number, stealerLogs: boolean): Promise<number> {
    const active = monitoredSince(now);
    const accounts = this.#db.prepare('SELECT count(*) FROM address_checks WHERE via_domain = 0 AND due_at <= ? AND (checked_at IS NULL OR seen_at >= ?)').pluck().get(now, active) as number;
    const domains = this.#db.prepare('SELECT count(*) FROM searched_domains WHERE due_at <= ?').pluck().get(now) as number;
    const stealer = stealerLogs ? (this.#db.prepare('SELECT count(*) FROM address_checks WHERE stealer_due_at <= ? AND seen_at >= ?').pluck().get(now, active) as number) : 0;
    return accounts + domains + stealer;
  }

  async aheadOf(email: string, now: number, limit?: number): Promise<number> {
    const row = this.#db.prepare('SELECT added_at, checked_at FROM address_checks WHERE email = ?').get(email) as { added_at: number; checked_at: number | null } | undefined;
    if (!row) return 0;
    const newAhead = this.#db
      .prepare(
        `SELECT count(*) FROM (SELECT 1 FROM address_checks WHERE via_domain = 0 AND checked_at IS NULL AND due_at <= ?
         AND (? = 1 OR added_at < ? OR (added_at = ? AND email < ?)) LIMIT ?)`,
      )
      .pluck()
      .get(now, row.checked_at === null ? 0 : 1, row.added_at, row.added_at, email, limit ?? -1) as number;
    if (row.checked_at === null || (limit !== undefined && newAhead >= limit)) return newAhead;
    const recheckAhead = this.#db
      .prepare(`SELECT count(*) FROM (SELECT 1 FROM address_checks WHERE via_domain = 0 AND checked_at IS NOT NULL AND due_at <= ? AND (checked_at < ? OR (checked_at = ? AND email < ?)) LIMIT ?)`)
      .pluck()
      .get(now, row.checked_at, row.checked_at, email, limit === undefined ? -1 : limit - newAhead) as number;
    return newAhead + recheckAhead;
  }

  async nextDue(now: number, stealerLogs: boolean): Promise<number | null> {
    const active = monitoredSince(now);
    const candidates = [
      this.#db.prepare('SELECT min(max(due_at, lease_until)) FROM address_checks WHERE via_domain = 0 AND due_at IS NOT NULL AND (checked_at IS NULL OR seen_at >= ?)').pluck().get(active) as
        number | null,
      this.#db.prepare('SELECT min(max(due_at, lease_until)) FROM searched_domains WHERE due_at IS NOT NULL').pluck().get() as number | null,
      stealerLogs
        ? (this.#db.prepare('SELECT min(max(stealer_due_at, lease_until)) FROM address_checks WHERE stealer_due_at IS NOT NULL AND seen_at >= ?').pluck().get(active) as number | null)
        : null,
    ].filter((value): value is number => value !== null);
    return candidates.length === 0 ? null : Math.min(...candidates);
  }

  async claim(now: number, leaseUntil: number, owner: string, stealerLogs: boolean): Promise<LookupJob | undefined> {
    return this.#immediate(() => {
      for (const queue of claimOrder(stealerLogs)) {
        const monitored = onlyMonitored(queue) ? [monitoredSince(now)] : [];
        const key = this.#db
          .prepare(NEXT_IN_QUEUE[queue])
          .pluck()
          .get(now, now, ...monitored) as string | undefined;
        if (key !== undefined) return this.#lease(claimedJob(queue, key), leaseUntil, owner);
      }
      return undefined;
    });
  }

  async accountChecked(email: string, now: number, breachCount: number, nextDueAt: number): Promise<void> {
    this.#db
      .prepare(
        `UPDATE address_checks SET checked_at = ?, breach_count = ?, due_at = ?, problem = NULL, lease_until = 0, lease_owner = NULL,
           stealer_due_at = coalesce(min(stealer_due_at, ?), ?) WHERE email = ?`,
      )
      .run(now, breachCount, nextDueAt, now, now, email);
  }

  async domainChecked(domain: string, now: number, nextDueAt: number, counts: ReadonlyMap<string, number>): Promise<void> {
    const update = this.#db.prepare(
      `UPDATE address_checks SET checked_at = ?, breach_count = ?, problem = NULL, stealer_due_at = coalesce(min(stealer_due_at, ?), ?) WHERE email = ? AND via_domain = 1`,
    );
    this.#immediate(() => {
      this.#db.prepare('UPDATE searched_domains SET checked_at = ?, due_at = ?, problem = NULL, lease_until = 0, lease_owner = NULL WHERE domain = ?').run(now, nextDueAt, domain);
      for (const email of this.#db.prepare('SELECT email FROM address_checks WHERE domain = ? AND via_domain = 1').pluck().all(domain) as string[]) {
        update.run(now, counts.get(email) ?? 0, now, now, email);
      }
    });
  }

  async stealerChecked(email: string, now: number, domains: readonly string[], nextDueAt: number): Promise<void> {
    this.#db
      .prepare('UPDATE address_checks SET stealer_checked_at = ?, stealer_domains = ?, stealer_due_at = ?, lease_until = 0, lease_owner = NULL WHERE email = ?')
      .run(now, JSON.stringify(domains), nextDueAt, email);
  }

  async failed(job: LookupJob, problem: string, retryAt: number): Promise<void> {
    this.#immediate(() => {
      if (job.kind === 'account') this.#db.prepare('UPDATE address_checks SET problem = ?, due_at = ?, lease_until = 0, lease_owner = NULL WHERE email = ?').run(problem, retryAt, job.email);
      else if (job.kind === 'stealer') this.#db.prepare('UPDATE address_checks SET stealer_due_at = ?, lease_until = 0, lease_owner = NULL WHERE email = ?').run(retryAt, job.email);
      else {
        this.#db.prepare('UPDATE searched_domains SET problem = ?, due_at = ?, lease_until = 0, lease_owner = NULL WHERE domain = ?').run(problem, retryAt, job.domain);
      }
    });
  }

  async release(job: LookupJob): Promise<void> {
    if (job.kind === 'domain') this.#db.prepare('UPDATE searched_domains SET lease_until = 0, lease_owner = NULL WHERE domain = ?').run(job.domain);
    else this.#db.prepare('UPDATE address_checks SET lease_until = 0, lease_owner = NULL WHERE email = ?').run(job.email);
  }

  async dueAgainIfCheckedBefore(time: number, now: number): Promise<number> {
    return this.#immediate(() => {
      const accounts = this.#db.prepare('UPDATE address_checks SET due_at = ? WHERE via_domain = 0 AND checked_at IS NOT NULL AND checked_at < ? AND due_at > ?').run(now, time, now).changes;
      const domains = this.#db.prepare('UPDATE searched_domains SET due_at = ? WHERE checked_at IS NOT NULL AND checked_at < ? AND due_at > ?').run(now, time, now).changes;
      return accounts + domains;
    });
  }

  async setSearchedDomains(domains: readonly string[], now: number): Promise<void> {
    const list = JSON.stringify(domains);
    this.#immediate(() => {
      // A domain no longer searched: its addresses go back to one-by-one lookups, due now.
      this.#db.prepare('UPDATE address_checks SET via_domain = 0, due_at = ? WHERE via_domain = 1 AND domain NOT IN (SELECT value FROM json_each(?))').run(now, list);
      this.#db.prepare('DELETE FROM searched_domains WHERE domain NOT IN (SELECT value FROM json_each(?))').run(list);
      this.#db.prepare('UPDATE address_checks SET via_domain = 1, due_at = NULL WHERE via_domain = 0 AND domain IN (SELECT value FROM json_each(?))').run(list);
      // Due now only with addresses to search for; otherwise the first tracked address makes it due.
      const insert = this.#db.prepare(
        `INSERT INTO searched_domains (domain, due_at) VALUES (?, CASE WHEN EXISTS (SELECT 1 FROM address_checks WHERE domain = ?) THEN ? END) ON CONFLICT (domain) DO NOTHING`,
      );
      for (const domain of domains) insert.run(domain, domain, now);
    });
  }

  async takeSlot(now: number, rpm: number, windowMs: number, flightMs: number): Promise<SlotAnswer> {
    return this.#immediate((): SlotAnswer => {
      const holds = this.#db.prepare('SELECT blocked_until AS blockedUntil, backoff_until AS backoffUntil, in_flight_until AS inFlightUntil FROM source_state WHERE id = 1').get() as SlotHolds;
      const held = refusedByHolds(now, holds);
      if (held) return held;
      const { forgetUpTo, countAfter } = requestWindow(now, windowMs);
      this.#db.prepare('DELETE FROM source_requests WHERE sent_at <= ?').run(forgetUpTo);
      const recent = this.#db.prepare('SELECT sent_at FROM source_requests WHERE sent_at > ? ORDER BY sent_at').pluck().all(countAfter) as number[];
      const full = refusedByBudget(recent, rpm, windowMs);
      if (full) return full;
      this.#db.prepare('INSERT INTO source_requests (sent_at) VALUES (?)').run(now);
      const flight = randomUUID();
      this.#db.prepare('UPDATE source_state SET in_flight_id = ?, in_flight_until = ? WHERE id = 1').run(flight, now + flightMs);
      return { granted: true, flight };
    });
  }

  async landed(flight: string): Promise<void> {
    this.#db.prepare('UPDATE source_state SET in_flight_id = NULL, in_flight_until = 0 WHERE id = 1 AND in_flight_id = ?').run(flight);
  }

  async sentSince(after: number): Promise<number[]> {
    return this.#db.prepare('SELECT sent_at FROM source_requests WHERE sent_at > ? ORDER BY sent_at').pluck().all(after) as number[];
  }

  async state(): Promise<SourceState> {
    return fromState(this.#db.prepare('SELECT * FROM source_state WHERE id = 1').get() as StateRecord);
  }

  async clampHolds(latest: number): Promise<SourceState> {
    return this.#immediate(() => {
      const before = fromState(this.#db.prepare('SELECT * FROM source_state WHERE id = 1').get() as StateRecord);
      this.#db.prepare('UPDATE source_state SET blocked_until = MIN(blocked_until, ?), backoff_until = MIN(backoff_until, ?) WHERE id = 1').run(latest, latest);
      return before;
    });
  }

  async updateState(patch: Partial<SourceState>, options: { reset?: boolean } = {}): Promise<SourceState> {
    return this.#immediate(() => {
      const current = fromState(this.#db.prepare('SELECT * FROM source_state WHERE id = 1').get() as StateRecord);
      const next = mergeState(current, patch, options.reset === true);
      this.#db
        .prepare('UPDATE source_state SET rpm = ?, blocked_until = ?, backoff_until = ?, failures = ?, stealer_logs = ?, problem_code = ?, problem_detail = ? WHERE id = 1')
        .run(next.rpm, next.blockedUntil, next.backoffUntil, next.failures, next.stealerLogs ? 1 : 0, next.problem?.code ?? null, next.problem?.detail ?? null);
      return next;
    });
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }

  /** Leases the claimed row to `owner` (see {@link release}); answers the job. */
  #lease(job: LookupJob, leaseUntil: number, owner: string): LookupJob {
    if (job.kind === 'domain') this.#db.prepare('UPDATE searched_domains SET lease_until = ?, lease_owner = ? WHERE domain = ?').run(leaseUntil, owner, job.domain);
    else this.#db.prepare('UPDATE address_checks SET lease_until = ?, lease_owner = ? WHERE email = ?').run(leaseUntil, owner, job.email);
    return job;
  }

  #immediate<T>(work: () => T): T {
    return this.#db.transaction(work).immediate();
  }
}

/** A second connection to the service's SQLite file, already migrated by the breach store (its constructor checks the version). */
export function openSqliteLookupStore(path: string): SqliteLookupStore {
  const db = openPrivateDatabase(path, { synchronous: 'FULL' }, () => {});
  try {
    return new SqliteLookupStore(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

function fromRecord(row: CheckRecord): AddressCheckRow {
  return {
    email: row.email,
    addedAt: row.added_at,
    seenAt: row.seen_at,
    checkedAt: row.checked_at,
    dueAt: row.due_at,
    breachCount: row.breach_count,
    viaDomain: row.via_domain === 1,
    problem: row.problem,
    stealerCheckedAt: row.stealer_checked_at,
    stealerDomains: row.stealer_domains === null ? null : (JSON.parse(row.stealer_domains) as string[]),
  };
}

function fromState(row: StateRecord): SourceState {
  return sourceStateOf({ ...row, stealer_logs: row.stealer_logs === 1 });
}
