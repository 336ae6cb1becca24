import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { domainOf, SEEN_GRANULARITY_MS, type AddressCheckRow, type LookupJob, type LookupStore, type SlotAnswer, type SourceState } from './LookupStore.ts';
import { claimedJob, claimOrder, mergeState, monitoredSince, onlyMonitored, refusedByBudget, refusedByHolds, requestWindow, sourceStateOf, type ClaimQueue } from './lookupRules.ts';
import { guarded, transaction } from '../storage/pool.ts';

const ATTEMPTS = 8;
/** Addresses made due again per transaction (see dueAgainIfCheckedBefore): a few hundred milliseconds at most on a busy machine. */
const DUE_BATCH = 1000;

/** Each claim queue's next row (see lookupRules' `claimOrder`), locked; `$1` is now, `$2` `monitoredSince(now)` where the queue asks for it. */
const NEXT_IN_QUEUE: Record<ClaimQueue, string> = {
  new: `SELECT email AS key FROM address_checks WHERE NOT via_domain AND checked_at IS NULL AND due_at <= $1 AND lease_until <= $1
        ORDER BY added_at, email COLLATE "C" LIMIT 1 FOR UPDATE SKIP LOCKED`,
  domain: `SELECT domain AS key FROM searched_domains WHERE due_at <= $1 AND lease_until <= $1
           ORDER BY checked_at NULLS FIRST, domain COLLATE "C" LIMIT 1 FOR UPDATE SKIP LOCKED`,
  stealer: `SELECT email AS key FROM address_checks WHERE stealer_due_at <= $1 AND lease_until <= $1 AND seen_at >= $2
            ORDER BY stealer_checked_at NULLS FIRST, email COLLATE "C" LIMIT 1 FOR UPDATE SKIP LOCKED`,
  recheck: `SELECT email AS key FROM address_checks WHERE NOT via_domain AND checked_at IS NOT NULL AND due_at <= $1 AND lease_until <= $1 AND seen_at >= $2
            ORDER BY checked_at, email COLLATE "C" LIMIT 1 FOR UPDATE SKIP LOCKED`,
};

interface CheckRecord {
  email: string;
  added_at: string;
  seen_at: string;
  checked_at: string | null;
  due_at: string | null;
  breach_count: number | null;
  via_domain: boolean;
  problem: string | null;
  stealer_checked_at: string | null;
  stealer_domains: string[] | null;
}

interface StateRecord {
  rpm: number | null;
  blocked_until: string;
  backoff_until: string;
  failures: number;
  stealer_logs: boolean;
  problem_code: string | null;
  problem_detail: string | null;
}

/**
 * {@link LookupStore} on PostgreSQL: one queue and one rate budget for every instance sharing the
 * database. Taking a slot locks the single `source_state` row, so instances take slots one at a
 * time and together never exceed the key's Rpm; claims skip rows another instance has locked.
 * The breach store's migrations create the tables (version 30).
 */
export class PostgresLookupStore implements LookupStore {
  readonly #pool: pg.Pool;
  readonly #where: string;
  readonly #ownsPool: boolean;

  /** `ownsPool`: close ends the pool (the queue's own); otherwise the pool's opener ends it (the service's one pool). */
  constructor(pool: pg.Pool, where: string, { ownsPool }: { ownsPool: boolean }) {
    this.#pool = pool;
    this.#where = where;
    this.#ownsPool = ownsPool;
  }

  async track(emails: readonly string[], now: number, searchedDomains: readonly string[]): Promise<void> {
    if (emails.length === 0) return;
    const searched = new Set(searchedDomains);
    const rows = emails.map((email) => ({ email, domain: domainOf(email), via: searched.has(domainOf(email)) }));
    await this.#tx(async (client) => {
      const { rows: added } = await client.query<{ domain: string; via_domain: boolean }>(
        `INSERT INTO address_checks (email, domain, added_at, seen_at, due_at, via_domain)
         SELECT e, d, $4, $4, CASE WHEN v THEN NULL ELSE $4::bigint END, v FROM unnest($1::text[], $2::text[], $3::boolean[]) AS t(e, d, v)
         ON CONFLICT (email) DO NOTHING RETURNING domain, via_domain`,
        [rows.map((r) => r.email), rows.map((r) => r.domain), rows.map((r) => r.via), now],
      );
      const domains = [...new Set(added.filter((row) => row.via_domain).map((row) => row.domain))];
      if (domains.length > 0) {
        await client.query(
          `INSERT INTO searched_domains (domain, due_at) SELECT unnest($1::text[]), $2
           ON CONFLICT (domain) DO UPDATE SET due_at = LEAST(coalesce(searched_domains.due_at, excluded.due_at), excluded.due_at)`,
          [domains, now],
        );
      }
    });
  }

  async checks(emails: readonly string[]): Promise<Map<string, AddressCheckRow>> {
    const { rows } = await this.#query<CheckRecord>(
      `SELECT c.email, c.added_at, c.seen_at, c.checked_at, coalesce(d.due_at, c.due_at) AS due_at, c.breach_count, c.via_domain,
              coalesce(c.problem, d.problem) AS problem, c.stealer_checked_at, c.stealer_domains
       FROM address_checks AS c LEFT JOIN searched_domains AS d ON c.via_domain AND d.domain = c.domain
       WHERE c.email = ANY($1::text[])`,
      [[...emails]],
    );
    return new Map(rows.map((row) => [row.email, fromRecord(row)]));
  }

  async seen(emails: readonly string[], now: number): Promise<void> {
    await this.#query('UPDATE address_checks SET seen_at = $1 WHERE email = ANY($2::text[]) AND seen_at < $3', [now, [...emails], now - SEEN_GRANULARITY_MS]);
  }

  async emailsOnDomain(domain: string): Promise<string[]> {
    const { rows } = await this.#query<{ email: string }>('SELECT email FROM address_checks WHERE domain = $1 ORDER BY email COLLATE "C"', [domain]);
    return rows.map((row) => row.email);
  }

  async waiting(now: number, stealerLogs: boolean): Promise<number> {
    const { rows } = await this.#query<{ n: string }>(
      `SELECT (SELECT count(*) FROM address_checks WHERE NOT via_domain AND due_at <= $1 AND (checked_at IS NULL OR seen_at >= $3))
            + (SELECT count(*) FROM searched_domains WHERE due_at <= $1)
            + CASE WHEN $2 THEN (SELECT count(*) FROM address_checks WHERE stealer_due_at <= $1 AND seen_at >= $3) ELSE 0 END AS n`,
      [now, stealerLogs, monitoredSince(now)],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async aheadOf(email: string, now: number, limit?: number): Promise<number> {
    const me = (await this.#query<{ added_at: string; checked_at: string | null }>('SELECT added_at, checked_at FROM address_checks WHERE email = $1', [email])).rows[0];
    if (!me) return 0;
    // Each count is a range of one index of migration 120, in its order ((added_at, email) for new
    // addresses, (checked_at, email) for re-checks), read up to `limit` entries (LIMIT NULL: all).
    // With the address's own place as values, not a join, so the planner can take that range.
    const count = async (sql: string, values: unknown[]) => Number((await this.#query<{ n: string }>(sql, values)).rows[0]?.n ?? 0);
    const freshAhead = `SELECT count(*) AS n FROM (SELECT 1 FROM address_checks WHERE NOT via_domain AND checked_at IS NULL AND due_at <= $1`;
    if (me.checked_at === null) {
      return count(`${freshAhead} AND (added_at, email COLLATE "C") < ($2::bigint, $3 COLLATE "C") LIMIT $4) AS ahead`, [now, me.added_at, email, limit ?? null]);
    }
    const fresh = await count(`${freshAhead} LIMIT $2) AS ahead`, [now, limit ?? null]);
    if (limit !== undefined && fresh >= limit) return fresh;
    const rechecks = await count(
      `SELECT count(*) AS n FROM (SELECT 1 FROM address_checks WHERE NOT via_domain AND checked_at IS NOT NULL AND due_at <= $1
         AND (checked_at, email COLLATE "C") < ($2::bigint, $3 COLLATE "C") LIMIT $4) AS ahead`,
      [now, me.checked_at, email, limit === undefined ? null : limit - fresh],
    );
    return fresh + rechecks;
  }

  async nextDue(now: number, stealerLogs: boolean): Promise<number | null> {
    const { rows } = await this.#query<{ at: string | null }>(
      `SELECT LEAST(
         (SELECT min(GREATEST(due_at, lease_until)) FROM address_checks WHERE NOT via_domain AND due_at IS NOT NULL AND (checked_at IS NULL OR seen_at >= $2)),
         (SELECT min(GREATEST(due_at, lease_until)) FROM searched_domains WHERE due_at IS NOT NULL),
         CASE WHEN $1 THEN (SELECT min(GREATEST(stealer_due_at, lease_until)) FROM address_checks WHERE stealer_due_at IS NOT NULL AND seen_at >= $2) END) AS at`,
      [stealerLogs, monitoredSince(now)],
    );
    const at = rows[0]?.at;
    return at === null || at === undefined ? null : Number(at);
  }

  async claim(now: number, leaseUntil: number, owner: string, stealerLogs: boolean): Promise<LookupJob | undefined> {
    return this.#tx(async (client) => {
      for (const queue of claimOrder(stealerLogs)) {
        const values = onlyMonitored(queue) ? [now, monitoredSince(now)] : [now];
        const key = (await client.query<{ key: string }>(NEXT_IN_QUEUE[queue], values)).rows[0]?.key;
        if (key !== undefined) return lease(client, claimedJob(queue, key), leaseUntil, owner);
      }
      return undefined;
    });
  }

  async accountChecked(email: string, now: number, breachCount: number, nextDueAt: number): Promise<void> {
    await this.#query(
      `UPDATE address_checks SET checked_at = $1, breach_count = $2, due_at = $3, problem = NULL, lease_until = 0, lease_owner = NULL,
         stealer_due_at = LEAST(coalesce(stealer_due_at, $1), $1) WHERE email = $4`,
      [now, breachCount, nextDueAt, email],
    );
  }

  async domainChecked(domain: string, now: number, nextDueAt: number, counts: ReadonlyMap<string, number>): Promise<void> {
    await this.#tx(async (client) => {
      await client.query('UPDATE searched_domains SET checked_at = $1, due_at = $2, problem = NULL, lease_until = 0, lease_owner = NULL WHERE domain = $3', [now, nextDueAt, domain]);
      const { rows } = await client.query<{ email: string }>('SELECT email FROM address_checks WHERE domain = $1 AND via_domain FOR UPDATE', [domain]);
      const emails = rows.map((row) => row.email);
      await client.query(
        `UPDATE address_checks AS c SET checked_at = $1, breach_count = t.n, problem = NULL, stealer_due_at = LEAST(coalesce(c.stealer_due_at, $1), $1)
         FROM unnest($2::text[], $3::int[]) AS t(email, n) WHERE c.email = t.email`,
        [now, emails, emails.map((email) => counts.get(email) ?? 0)],
      );
    });
  }

  async stealerChecked(email: string, now: number, domains: readonly string[], nextDueAt: number): Promise<void> {
    await this.#query('UPDATE address_checks SET stealer_checked_at = $1, stealer_domains = $2::jsonb, stealer_due_at = $3, lease_until = 0, lease_owner = NULL WHERE email = $4', [
      now,
      JSON.stringify(domains),
      nextDueAt,
      email,
    ]);
  }

  async failed(job: LookupJob, problem: string, retryAt: number): Promise<void> {
    if (job.kind === 'account') await this.#query('UPDATE address_checks SET problem = $1, due_at = $2, lease_until = 0, lease_owner = NULL WHERE email = $3', [problem, retryAt, job.email]);
    else if (job.kind === 'stealer') await this.#query('UPDATE address_checks SET stealer_due_at = $1, lease_until = 0, lease_owner = NULL WHERE email = $2', [retryAt, job.email]);
    else await this.#query('UPDATE searched_domains SET problem = $1, due_at = $2, lease_until = 0, lease_owner = NULL WHERE domain = $3', [problem, retryAt, job.domain]);
  }

  async release(job: LookupJob): Promise<void> {
    if (job.kind === 'domain') await this.#query('UPDATE searched_domains SET lease_until = 0, lease_owner = NULL WHERE domain = $1', [job.domain]);
    else await this.#query('UPDATE address_checks SET lease_until = 0, lease_owner = NULL WHERE email = $1', [job.email]);
  }

  /**
   * In batches of {@link DUE_BATCH} addresses in key order, each its own transaction: at a million
   * addresses one statement held every row's lock for seconds, stalling the lookups and reads that
   * write them (docs/decisions/0266-due-again-batches.md). A batch that fails leaves the rest as
   * they were; the next catalog refresh makes them due.
   */
  async dueAgainIfCheckedBefore(time: number, now: number): Promise<number> {
    let count = 0;
    for (let after: string | null = ''; after !== null;) {
      const result: pg.QueryResult<{ last: string | null; n: string }> = await this.#query(
        `WITH batch AS (SELECT email FROM address_checks WHERE email > $3 ORDER BY email LIMIT $4),
              changed AS (UPDATE address_checks AS c SET due_at = $1 FROM batch
                          WHERE c.email = batch.email AND NOT c.via_domain AND c.checked_at IS NOT NULL AND c.checked_at < $2 AND c.due_at > $1 RETURNING 1)
         SELECT (SELECT max(email) FROM batch) AS last, (SELECT count(*) FROM changed) AS n`,
        [now, time, after, DUE_BATCH],
      );
      count += Number(result.rows[0]?.n ?? 0);
      after = result.rows[0]?.last ?? null;
    }
    const d = await this.#query('UPDATE searched_domains SET due_at = $1 WHERE checked_at IS NOT NULL AND checked_at < $2 AND due_at > $1', [now, time]);
    return count + (d.rowCount ?? 0);
  }

  async setSearchedDomains(domains: readonly string[], now: number): Promise<void> {
    await this.#tx(async (client) => {
      const list = [...domains];
      await client.query('UPDATE address_checks SET via_domain = false, due_at = $1 WHERE via_domain AND NOT (domain = ANY($2::text[]))', [now, list]);
      await client.query('DELETE FROM searched_domains WHERE NOT (domain = ANY($1::text[]))', [list]);
      await client.query('UPDATE address_checks SET via_domain = true, due_at = NULL WHERE NOT via_domain AND domain = ANY($1::text[])', [list]);
      // Due now only with addresses to search for; otherwise the first tracked address makes it due.
      await client.query(
        `INSERT INTO searched_domains (domain, due_at)
         SELECT d, CASE WHEN EXISTS (SELECT 1 FROM address_checks WHERE domain = d) THEN $2::bigint END FROM unnest($1::text[]) AS d
         ON CONFLICT (domain) DO NOTHING`,
        [list, now],
      );
    });
  }

  async takeSlot(now: number, rpm: number, windowMs: number, flightMs: number): Promise<SlotAnswer> {
    return this.#tx(async (client): Promise<SlotAnswer> => {
      // The row lock is the budget's turnstile: one instance at a time counts and takes.
      const { rows } = await client.query<{ blocked_until: string; backoff_until: string; in_flight_until: string }>(
        'SELECT blocked_until, backoff_until, in_flight_until FROM source_state WHERE id = 1 FOR UPDATE',
      );
      const row = rows[0];
      const held = refusedByHolds(now, { blockedUntil: Number(row?.blocked_until ?? 0), backoffUntil: Number(row?.backoff_until ?? 0), inFlightUntil: Number(row?.in_flight_until ?? 0) });
      if (held) return held;
      const { forgetUpTo, countAfter } = requestWindow(now, windowMs);
      await client.query('DELETE FROM source_requests WHERE sent_at <= $1', [forgetUpTo]);
      const recent = (await client.query<{ sent_at: string }>('SELECT sent_at FROM source_requests WHERE sent_at > $1 ORDER BY sent_at', [countAfter])).rows.map((sent) => Number(sent.sent_at));
      const full = refusedByBudget(recent, rpm, windowMs);
      if (full) return full;
      await client.query('INSERT INTO source_requests (sent_at) VALUES ($1)', [now]);
      const flight = randomUUID();
      await client.query('UPDATE source_state SET in_flight_id = $1, in_flight_until = $2 WHERE id = 1', [flight, now + flightMs]);
      return { granted: true, flight };
    });
  }

  async landed(flight: string): Promise<void> {
    await this.#query('UPDATE source_state SET in_flight_id = NULL, in_flight_until = 0 WHERE id = 1 AND in_flight_id = $1', [flight]);
  }

  async sentSince(after: number): Promise<number[]> {
    const { rows } = await this.#query<{ sent_at: string }>('SELECT sent_at FROM source_requests WHERE sent_at > $1 ORDER BY sent_at', [after]);
    return rows.map((row) => Number(row.sent_at));
  }

  async state(): Promise<SourceState> {
    const { rows } = await this.#query<StateRecord>('SELECT * FROM source_state WHERE id = 1');
    return fromState(rows[0]!);
  }

  async clampHolds(latest: number): Promise<SourceState> {
    return this.#tx(async (client) => {
      const { rows } = await client.query<StateRecord>('SELECT * FROM source_state WHERE id = 1 FOR UPDATE');
      await client.query('UPDATE source_state SET blocked_until = LEAST(blocked_until, $1::bigint), backoff_until = LEAST(backoff_until, $1::bigint) WHERE id = 1', [latest]);
      return fromState(rows[0]!);
    });
  }

  async updateState(patch: Partial<SourceState>, options: { reset?: boolean } = {}): Promise<SourceState> {
    return this.#tx(async (client) => {
      const { rows } = await client.query<StateRecord>('SELECT * FROM source_state WHERE id = 1 FOR UPDATE');
      const next = mergeState(fromState(rows[0]!), patch, options.reset === true);
      await client.query('UPDATE source_state SET rpm = $1, blocked_until = $2, backoff_until = $3, failures = $4, stealer_logs = $5, problem_code = $6, problem_detail = $7 WHERE id = 1', [
        next.rpm,
        next.blockedUntil,
        next.backoffUntil,
        next.failures,
        next.stealerLogs,
        next.problem?.code ?? null,
        next.problem?.detail ?? null,
      ]);
      return next;
    });
  }

  async close(): Promise<void> {
    if (this.#ownsPool && !this.#pool.ended) await this.#pool.end();
  }

  #query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return guarded(this.#where, () => this.#pool.query<R>(sql, values));
  }

  #tx<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return transaction(this.#pool, this.#where, { attempts: ATTEMPTS }, work);
  }
}

/** Leases the claimed row to `owner` (as release gives it back); answers the job. */
async function lease(client: pg.PoolClient, job: LookupJob, leaseUntil: number, owner: string): Promise<LookupJob> {
  if (job.kind === 'domain') await client.query('UPDATE searched_domains SET lease_until = $1, lease_owner = $2 WHERE domain = $3', [leaseUntil, owner, job.domain]);
  else await client.query('UPDATE address_checks SET lease_until = $1, lease_owner = $2 WHERE email = $3', [leaseUntil, owner, job.email]);
  return job;
}

function num(value: string | null): number | null {
  return value === null ? null : Number(value);
}

function fromRecord(row: CheckRecord): AddressCheckRow {
  return {
    email: row.email,
    addedAt: Number(row.added_at),
    seenAt: Number(row.seen_at),
    checkedAt: num(row.checked_at),
    dueAt: num(row.due_at),
    breachCount: row.breach_count,
    viaDomain: row.via_domain,
    problem: row.problem,
    stealerCheckedAt: num(row.stealer_checked_at),
    stealerDomains: row.stealer_domains,
  };
}

function fromState(row: StateRecord): SourceState {
  return sourceStateOf({ ...row, blocked_until: Number(row.blocked_until), backoff_until: Number(row.backoff_until) });
}
