// The lookup queue's schema is written once per dialect (SQLite's migration 30 and PostgreSQL's
// `lookup-queue`): its rules are stated once here and checked against both, so the two cannot
// drift apart unnoticed. Each dialect's database is the one a real service creates (started
// and stopped here), read afterwards: the same columns in the same order, the same nullability
// and defaults, the same indexes, and the same rows refused by the same rules.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService } from '../../../server/app.ts';
import { serviceStores } from '../../support/postgres.ts';

const STORES = await serviceStores();
const TABLES = ['address_checks', 'searched_domains', 'source_requests', 'source_state'] as const;
/**
 * Indexes only PostgreSQL has: they order the queue for the planner at a million addresses
 * (PostgreSQL's migration `lookup-queue-order-indexes`, measured by `npm run bench:scale`). They
 * change no rule a row must follow; SQLite keeps one person's queue and needs none of them.
 */
const POSTGRES_ONLY_INDEXES = ['address_checks_fresh_order', 'address_checks_recheck_order', 'address_checks_next_due', 'address_checks_next_stealer_due'];

/** A flag as each dialect stores it: 0/1 in SQLite (STRICT has no boolean), a boolean in PostgreSQL. */
const FLAG = (value: boolean) => ({ flag: value });
type Param = string | number | null | { flag: boolean };

interface Probe {
  what: string;
  sql: string;
  params: Param[];
  accepted: boolean;
}

const ADDRESS = 'INSERT INTO address_checks (email, domain, added_at, seen_at, via_domain, breach_count, stealer_domains) VALUES (?, ?, ?, ?, ?, ?, ?)';
const address = (change: { email?: Param; domain?: Param; viaDomain?: Param; breachCount?: Param; stealerDomains?: Param } = {}): Param[] => {
  const row = { email: 'alice@example.com', domain: 'example.com', viaDomain: FLAG(false), breachCount: null, stealerDomains: null, ...change };
  return [row.email, row.domain, 1_700_000_000_000, 1_700_000_000_000, row.viaDomain, row.breachCount, row.stealerDomains];
};

/** The rules, stated once: what each dialect must take and refuse. */
const PROBES: Probe[] = [
  { what: 'a checked address', sql: ADDRESS, params: address({ breachCount: 0, stealerDomains: '["example.com"]' }), accepted: true },
  { what: 'an empty email', sql: ADDRESS, params: address({ email: '' }), accepted: false },
  { what: 'an email not in lower case', sql: ADDRESS, params: address({ email: 'Alice@example.com' }), accepted: false },
  { what: 'a negative breach count', sql: ADDRESS, params: address({ breachCount: -1 }), accepted: false },
  { what: 'stealer-log domains that are an object', sql: ADDRESS, params: address({ stealerDomains: '{"example.com": 1}' }), accepted: false },
  { what: 'stealer-log domains that are not JSON', sql: ADDRESS, params: address({ stealerDomains: 'example.com' }), accepted: false },
  { what: 'no domain', sql: ADDRESS, params: address({ domain: null }), accepted: false },
  { what: 'no via-domain flag', sql: ADDRESS, params: address({ viaDomain: null }), accepted: false },
  { what: 'a searched domain', sql: 'INSERT INTO searched_domains (domain) VALUES (?)', params: ['example.com'], accepted: true },
  { what: 'an empty searched domain', sql: 'INSERT INTO searched_domains (domain) VALUES (?)', params: [''], accepted: false },
  { what: 'a searched domain not in lower case', sql: 'INSERT INTO searched_domains (domain) VALUES (?)', params: ['Example.com'], accepted: false },
  { what: 'a request sent', sql: 'INSERT INTO source_requests (sent_at) VALUES (?)', params: [1_700_000_000_000], accepted: true },
  { what: 'a request without a time', sql: 'INSERT INTO source_requests (sent_at) VALUES (?)', params: [null], accepted: false },
  { what: 'a second source state', sql: 'INSERT INTO source_state (id) VALUES (?)', params: [2], accepted: false },
  { what: 'a rate of 10 a minute', sql: 'UPDATE source_state SET rpm = ? WHERE id = 1', params: [10], accepted: true },
  { what: 'a rate of 0 a minute', sql: 'UPDATE source_state SET rpm = ? WHERE id = 1', params: [0], accepted: false },
  { what: 'stealer logs on', sql: 'UPDATE source_state SET stealer_logs = ? WHERE id = 1', params: [FLAG(true)], accepted: true },
];

/** Column types each SQLite type may be in PostgreSQL (flags and JSON are checked by the probes). */
const TYPE_PAIRS: Record<string, readonly string[]> = { INTEGER: ['integer', 'bigint', 'boolean'], TEXT: ['text', 'jsonb'] };

interface Column {
  name: string;
  type: string;
  nullable: boolean;
  /** The default as a value: 0 for `0` and `false`, null for none. */
  defaultValue: number | null;
  primaryKey: boolean;
}

interface Dialect {
  columns(table: string): Promise<Column[]>;
  /** Index name → its columns and partial condition, normalized. */
  indexes(table: string): Promise<Record<string, string>>;
  /** Runs `sql` and undoes it; whether the database took it. */
  tries(sql: string, params: Param[]): Promise<boolean>;
  /** The source state row as stored, flags as booleans. */
  sourceState(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const defaultOf = (text: string | null): number | null => (text === null ? null : text === 'false' ? 0 : text === 'true' ? 1 : Number(text));
/** `(due_at) WHERE due_at IS NOT NULL` whatever the dialect's spacing and parentheses. */
const normalizeIndex = (text: string) =>
  text
    .replace(/^.*? ON \S+ (USING btree )?/i, '')
    .replace(/[()\s]/g, '')
    .toLowerCase();

function sqliteDialect(file: string): Dialect {
  const db = new Database(file);
  const values = (params: Param[]) => params.map((param) => (param !== null && typeof param === 'object' ? (param.flag ? 1 : 0) : param));
  return {
    async columns(table) {
      return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[]).map((row) => ({
        name: row.name,
        type: row.type,
        nullable: row.notnull === 0 && row.pk === 0,
        defaultValue: defaultOf(row.dflt_value),
        primaryKey: row.pk > 0,
      }));
    },
    async indexes(table) {
      const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table) as { name: string; sql: string }[];
      return Object.fromEntries(rows.map((row) => [row.name, normalizeIndex(row.sql)]));
    },
    async tries(sql, params) {
      db.exec('SAVEPOINT probe');
      try {
        db.prepare(sql).run(...values(params));
        return true;
      } catch {
        return false;
      } finally {
        db.exec('ROLLBACK TO probe; RELEASE probe');
      }
    },
    async sourceState() {
      const row = db.prepare('SELECT * FROM source_state').get() as Record<string, unknown>;
      return { ...row, stealer_logs: row.stealer_logs === 1 };
    },
    async close() {
      db.close();
    },
  };
}

async function postgresDialect(url: string): Promise<Dialect> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const values = (params: Param[]) => params.map((param) => (param !== null && typeof param === 'object' ? param.flag : param));
  return {
    async columns(table) {
      const { rows } = await client.query<{ column_name: string; data_type: string; is_nullable: string; column_default: string | null; primary: boolean }>(
        `SELECT c.column_name, c.data_type, c.is_nullable, c.column_default,
                EXISTS (SELECT 1 FROM information_schema.key_column_usage k JOIN information_schema.table_constraints t USING (constraint_name, table_name)
                        WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name AND k.column_name = c.column_name) AS primary
           FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name = $1 ORDER BY c.ordinal_position`,
        [table],
      );
      return rows.map((row) => ({
        name: row.column_name,
        type: row.data_type,
        nullable: row.is_nullable === 'YES',
        defaultValue: defaultOf(row.column_default),
        primaryKey: row.primary,
      }));
    },
    async indexes(table) {
      const { rows } = await client.query<{ indexname: string; indexdef: string }>(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1 AND indexname NOT LIKE '%_pkey'",
        [table],
      );
      return Object.fromEntries(rows.map((row) => [row.indexname, normalizeIndex(row.indexdef)]));
    },
    async tries(sql, params) {
      await client.query('BEGIN');
      try {
        await client.query(numbered(sql), values(params));
        return true;
      } catch {
        return false;
      } finally {
        await client.query('ROLLBACK');
      }
    },
    async sourceState() {
      const { rows } = await client.query<Record<string, unknown>>('SELECT * FROM source_state');
      // bigint columns come back as strings from node-postgres.
      return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value]));
    },
    async close() {
      await client.end();
    },
  };
}

describe('the lookup queue schema, the same rules on SQLite and PostgreSQL', () => {
  const postgres = STORES.find((store) => store.name === 'postgres')!;
  const dirs: string[] = [];
  let sqlite: Dialect;
  let postgresql: Dialect | undefined;

  beforeAll(async () => {
    // Each database as a real service leaves it.
    const sqliteDir = mkdtempSync(path.join(tmpdir(), 'lookup-schema-'));
    dirs.push(sqliteDir);
    await (await startService({ port: 0, dataDir: sqliteDir, logLevel: 'silent' })).close();
    sqlite = sqliteDialect(path.join(sqliteDir, 'service.db'));
    if (postgres.available) {
      const { databaseUrl } = await postgres.serviceOptions();
      const postgresDir = mkdtempSync(path.join(tmpdir(), 'lookup-schema-pg-'));
      dirs.push(postgresDir);
      await (await startService({ port: 0, dataDir: postgresDir, logLevel: 'silent', databaseUrl })).close();
      postgresql = await postgresDialect(databaseUrl!);
    }
  }, 60_000);
  afterAll(async () => {
    await sqlite?.close();
    await postgresql?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach((ctx) => {
    if (!postgresql) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  it.each(TABLES)('%s: the same columns in the same order, nullability, defaults and primary key; types that hold the same values', async (table) => {
    const [liteColumns, postgreColumns] = [await sqlite.columns(table), await postgresql!.columns(table)];
    expect(liteColumns.length, `${table} exists`).toBeGreaterThan(0);
    const shape = (columns: Column[]) => columns.map(({ name, nullable, defaultValue, primaryKey }) => ({ name, nullable, defaultValue, primaryKey }));
    expect(shape(postgreColumns)).toEqual(shape(liteColumns));
    for (const [index, column] of liteColumns.entries())
      expect(TYPE_PAIRS[column.type], `${table}.${column.name}: ${column.type} ~ ${postgreColumns[index]!.type}`).toContain(postgreColumns[index]!.type);
  });

  it('the same indexes, on the same columns and conditions', async () => {
    const shared = (indexes: Record<string, string>) => Object.fromEntries(Object.entries(indexes).filter(([name]) => !POSTGRES_ONLY_INDEXES.includes(name)));
    for (const table of TABLES) expect(shared(await postgresql!.indexes(table)), table).toEqual(await sqlite.indexes(table));
    expect(Object.keys(await postgresql!.indexes('address_checks'))).toEqual(expect.arrayContaining(POSTGRES_ONLY_INDEXES));
  });

  it('the same rows taken and refused, as the rules say', async () => {
    const outcomes = async (dialect: Dialect) => {
      const results: Record<string, boolean> = {};
      for (const probe of PROBES) results[probe.what] = await dialect.tries(probe.sql, probe.params);
      return results;
    };
    const expected = Object.fromEntries(PROBES.map((probe) => [probe.what, probe.accepted]));
    expect(await outcomes(sqlite), 'SQLite').toEqual(expected);
    expect(await outcomes(postgresql!), 'PostgreSQL').toEqual(expected);
  });

  it('one source state, the same on both as migrated', async () => {
    expect(await postgresql!.sourceState()).toEqual(await sqlite.sourceState());
  });
});
