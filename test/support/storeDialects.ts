// The two databases every service store runs on, for store-contract suites (test/server/store/
// *.contract.test.ts): SQLite in a temporary folder, and PostgreSQL on one private server per test
// file (test/support/postgres.ts: skipped loudly outside CI when it cannot start, failing in CI).
// Besides a place for a store, each dialect can run SQL beside the store's own connections:
// how a suite plants a trigger that makes a write fail part-way, to prove the write is atomic.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll } from 'vitest';
import type { PrivatePostgres } from '../../tools/privatePostgres.ts';
import { usePrivatePostgres } from './postgres.ts';

export type Dialect = 'sqlite' | 'postgres';
export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

/** The message every planted failure raises, so a test can tell it from any other error. */
export const INJECTED_FAILURE = 'injected failure (store-contract trigger)';

/** One fresh, empty database of a dialect. */
export interface DialectPlace {
  dialect: Dialect;
  /** SQLite: a database file (not created yet) in a private temporary folder. */
  file: string;
  /** SQLite: the temporary folder holding `file`. */
  dir: string;
  /** PostgreSQL: the new database's URL (trust authentication on loopback). */
  url: string;
  /** Runs SQL on its own connection, beside whatever connections the stores hold. */
  exec(sql: string): Promise<void>;
  /** Rows of one query, on its own connection. */
  rows<R>(sql: string): Promise<R[]>;
  /**
   * Makes every insert (and update) of a row of `table` for which `condition` (SQL over `NEW`,
   * the same text in both dialects) holds fail with {@link INJECTED_FAILURE}: a BEFORE trigger,
   * `RAISE(ABORT, …)` on SQLite, a plpgsql `RAISE EXCEPTION` on PostgreSQL. The statement that
   * meets such a row fails; whether what the write did before it stays is what the suite checks.
   */
  failWhen(table: string, condition: string): Promise<void>;
}

export interface StoreDialectOptions {
  /**
   * Brings a new PostgreSQL database to what every test starts from (e.g. runs the store's
   * migrations by opening and closing it). Run once per file, on a template that each test's
   * database is then copied from, which is far quicker than migrating every one.
   */
  preparePostgres?: (url: string) => Promise<void>;
}

export interface StoreDialects {
  /** A fresh database; undefined for PostgreSQL when it could not start (the message says why). */
  place(dialect: Dialect): Promise<DialectPlace | undefined>;
}

let triggers = 0;

/** Call once at the top of a test file: starts that file's one private PostgreSQL server. */
export function useStoreDialects(options: StoreDialectOptions = {}): StoreDialects {
  const postgres = usePrivatePostgres();
  const dirs: string[] = [];
  let template: Promise<string> | undefined;
  let databases = 0;
  /** A new database copied from the prepared template, created over one short connection. */
  async function createDatabase(server: PrivatePostgres): Promise<string> {
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    template ??= (async () => {
      await admin('CREATE DATABASE contract_template');
      const url = server.url.replace(/\/postgres$/, '/contract_template');
      await options.preparePostgres?.(url);
      return 'contract_template';
    })();
    const name = `contract_${++databases}`;
    await admin(`CREATE DATABASE ${name} TEMPLATE ${await template}`);
    return server.url.replace(/\/postgres$/, `/${name}`);
  }
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    async place(dialect) {
      if (dialect === 'sqlite') {
        const dir = mkdtempSync(path.join(tmpdir(), 'store-contract-'));
        dirs.push(dir);
        const file = path.join(dir, 'store.db');
        return { ...databaseAt({ file }), dialect, file, dir, url: '' };
      }
      const server = postgres.server();
      if (!server) return undefined;
      const url = await createDatabase(server);
      return { ...databaseAt({ url }), dialect, file: '', dir: '', url };
    },
  };
}

/**
 * SQL beside a store's own connections on a database that exists already: a SQLite `file` or a
 * PostgreSQL `url`. See {@link DialectPlace} for what each does.
 */
export function databaseAt(target: { file: string } | { url: string }): Pick<DialectPlace, 'exec' | 'rows' | 'failWhen'> {
  if ('file' in target) {
    const withDb = <T>(work: (db: Database.Database) => T): T => {
      const db = new Database(target.file);
      try {
        db.pragma('busy_timeout = 5000');
        return work(db);
      } finally {
        db.close();
      }
    };
    return {
      exec: async (sql) => void withDb((db) => db.exec(sql)),
      rows: async <R>(sql: string) => withDb((db) => db.prepare(sql).all() as R[]),
      async failWhen(table, condition) {
        const name = `contract_fail_${++triggers}`;
        withDb((db) =>
          db.exec(`
            CREATE TRIGGER ${name}_insert BEFORE INSERT ON ${table} WHEN ${condition} BEGIN SELECT RAISE(ABORT, '${INJECTED_FAILURE}'); END;
            CREATE TRIGGER ${name}_update BEFORE UPDATE ON ${table} WHEN ${condition} BEGIN SELECT RAISE(ABORT, '${INJECTED_FAILURE}'); END;`),
        );
      },
    };
  }
  const withClient = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    exec: (sql) => withClient(async (client) => void (await client.query(sql))),
    rows: <R>(sql: string) => withClient(async (client) => (await client.query(sql)).rows as R[]),
    async failWhen(table, condition) {
      const name = `contract_fail_${++triggers}`;
      await withClient(async (client) => {
        await client.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${INJECTED_FAILURE}'; END $$`);
        await client.query(`CREATE TRIGGER ${name} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW WHEN (${condition}) EXECUTE FUNCTION ${name}()`);
      });
    },
  };
}
