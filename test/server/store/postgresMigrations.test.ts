// The one PostgreSQL migration list and its runner (server/storage/postgresMigrate.ts) on a private
// server: from empty, the list being the previous layout's three lists unchanged, one transaction
// for a whole run (a failure part-way leaves the database exactly as it was, old layout included),
// refusals of a version above what this code knows, and concurrent runs. The upgrade through
// openStorage from every old state is postgresUpgrade.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it, type TestContext } from 'vitest';
import { parseCommandLine } from '../../../server/config.ts';
import { runSecretCommand } from '../../../server/commands/secretCommand.ts';
import { runApiTokenCommand } from '../../../server/commands/apiTokenCommand.ts';
import { MIGRATION_LOCK, migratePostgres } from '../../../server/storage/postgresMigrate.ts';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from '../../../server/storage/migrations/index.ts';
import { createPool } from '../../../server/storage/pool.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { OLD_BREACH, OLD_RTDB, OLD_SEARCH, runOldMigrations } from '../fixtures/oldPostgresLayout.ts';
import { openPostgresBreachStoreAt } from '../../support/storeOpeners.ts';

const postgres = usePrivatePostgres();

async function withPool<T>(ctx: TestContext, work: (pool: pg.Pool, url: string) => Promise<T>): Promise<T> {
  const server = postgres.server() ?? ctx.skip('PostgreSQL could not start (see the message above)');
  const url = await server.createDatabase();
  const pool = createPool({ url, max: 2, onIdleError: () => {} });
  try {
    return await work(pool, url);
  } finally {
    await pool.end();
  }
}

async function tables(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1");
  return rows.map((row) => row.table_name);
}

const ALL_VERSIONS = POSTGRES_MIGRATIONS.map((migration) => migration.version);

describe('the one PostgreSQL migration list', () => {
  it("begins with the previous layout's three lists in order, each migration's SQL unchanged, each replaced once; what follows replaces nothing", () => {
    expect(ALL_VERSIONS).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130]);
    const old = [OLD_BREACH, OLD_RTDB, OLD_SEARCH].flatMap((set) => set.migrations.map((migration) => ({ table: set.versionTable, ...migration })));
    const released = POSTGRES_MIGRATIONS.slice(0, old.length);
    expect(released.map((migration) => migration.replaces)).toEqual(old.map(({ table, version }) => ({ table, version })));
    released.forEach((migration, index) => expect(migration.sql, `migration ${migration.version}`).toBe(old[index]!.sql));
    expect(POSTGRES_MIGRATIONS.slice(old.length).map((migration) => migration.replaces)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('builds the whole schema from an empty database in one run; a second run changes nothing', async (ctx) => {
    await withPool(ctx, async (pool) => {
      expect(await migratePostgres(pool)).toEqual({ from: 0, to: POSTGRES_SCHEMA_VERSION, applied: ALL_VERSIONS, adopted: [] });
      expect(await migratePostgres(pool)).toEqual({ from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION, applied: [], adopted: [] });
      expect(await tables(pool)).toEqual([
        'accounts',
        'address_checks',
        'breaches',
        'catalog_changes',
        'catalog_log',
        'catalog_origin',
        'email_revisions',
        'exposure_records',
        'exposures',
        'identity_keys',
        'meta',
        'oidc_models',
        'person_emails',
        'removed_breaches',
        'resolutions',
        'rtdb_leaves',
        'rtdb_revision',
        'rtdb_secrets',
        'rtdb_service_accounts',
        'rtdb_settings',
        'schema_version',
        'search_api_tokens',
        'search_documents',
        'search_index_state',
        'search_postings',
        'searched_domains',
        'source_requests',
        'source_state',
        'users',
        'verification_sends',
      ]);
      expect((await pool.query('SELECT version FROM schema_version')).rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
    });
  });

  it("upgrades a breach store of version 10 with data (the previous layout's first release), giving its emails revisions", async (ctx) => {
    await withPool(ctx, async (pool, url) => {
      await runOldMigrations(pool, OLD_BREACH, 10);
      await pool.query(`INSERT INTO breaches VALUES ('Adobe', 'adobe.com', '2013-10-04', '2013-12-04T00:00:00Z', '2013-12-04T00:00:00Z', '["Email addresses","Passwords"]', false)`);
      await pool.query(`INSERT INTO exposure_records VALUES ('a@example.com'); INSERT INTO exposures VALUES ('a@example.com', 'Adobe')`);
      await pool.query(`INSERT INTO resolutions VALUES ('a@example.com', 'Adobe', 'passwords', 'Passwords', '2026-01-01T10:00:00Z')`);
      expect(await migratePostgres(pool)).toEqual({ from: 10, to: POSTGRES_SCHEMA_VERSION, applied: ALL_VERSIONS.slice(1), adopted: [] });
      const store = await openPostgresBreachStoreAt({ url });
      try {
        expect((await store.listBreaches()).map((b) => b.id)).toEqual(['Adobe']);
        expect(await store.getResolutions(['A@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolvedAt: '2026-01-01T10:00:00Z' }]);
        expect(await store.changeStamp(['a@example.com'])).not.toBe(await store.changeStamp(['b@example.com']));
      } finally {
        await store.close();
      }
    });
  });

  it('runs an upgrade in one transaction: a migration failing part-way leaves the old layout exactly as it was', async (ctx) => {
    await withPool(ctx, async (pool) => {
      await runOldMigrations(pool, OLD_BREACH, 30);
      await runOldMigrations(pool, OLD_RTDB);
      // In the way of migration 60, after 40 (the breach store's) has run in the same transaction.
      await pool.query('CREATE TABLE search_api_tokens (planted integer)');
      const before = await tables(pool);
      await expect(migratePostgres(pool)).rejects.toThrow(/PostgreSQL migration 60 \(search-api-tokens-and-index\) failed: relation "search_api_tokens" already exists/);
      expect(await tables(pool)).toEqual(before);
      expect(before).not.toContain('removed_breaches');
      expect((await pool.query('SELECT (SELECT version FROM schema_version) AS breach, (SELECT version FROM rtdb_schema_version) AS rtdb')).rows).toEqual([{ breach: 30, rtdb: 10 }]);
      // Once the obstacle is gone, the same upgrade goes through.
      await pool.query('DROP TABLE search_api_tokens');
      expect(await migratePostgres(pool)).toEqual({ from: 30, to: POSTGRES_SCHEMA_VERSION, applied: [40, 60, 70, 80, 90, 100, 110, 120, 130], adopted: ['rtdb_schema_version'] });
    });
  });

  it('refuses a schema_version above the last migration, naming the table, and changes nothing', async (ctx) => {
    await withPool(ctx, async (pool) => {
      await migratePostgres(pool);
      await pool.query(`UPDATE schema_version SET version = ${POSTGRES_SCHEMA_VERSION + 10}`);
      await expect(migratePostgres(pool)).rejects.toMatchObject({
        name: 'SchemaTooNewError',
        message: expect.stringMatching(new RegExp(`schema version ${POSTGRES_SCHEMA_VERSION + 10} is newer than this code knows \\(table schema_version, latest ${POSTGRES_SCHEMA_VERSION}\\)`)),
      });
      expect((await pool.query('SELECT version FROM schema_version')).rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION + 10 }]);
    });
  });

  it('two runs at once on an old layout: the advisory lock lets one migrate and the other find it done', async (ctx) => {
    await withPool(ctx, async (pool, url) => {
      await runOldMigrations(pool, OLD_BREACH);
      await runOldMigrations(pool, OLD_RTDB);
      await runOldMigrations(pool, OLD_SEARCH, 10);
      const other = createPool({ url, max: 1, onIdleError: () => {} });
      try {
        const runs = await Promise.all([migratePostgres(pool), migratePostgres(other)]);
        expect(runs.map((run) => run.applied).sort((a, b) => b.length - a.length)).toEqual([[70, 80, 90, 100, 110, 120, 130], []]);
        expect(runs.map((run) => run.adopted).sort((a, b) => b.length - a.length)).toEqual([['rtdb_schema_version', 'search_schema_version'], []]);
      } finally {
        await other.end();
      }
      expect((await tables(pool)).filter((name) => name.endsWith('schema_version'))).toEqual(['schema_version']);
    });
  });

  it('an instance waits for another one migrating longer than its statement timeout, then finds it done; its connection keeps the timeout after', async (ctx) => {
    await withPool(ctx, async (pool, url) => {
      // The pool's queries may take 300 ms at most; the other instance holds the lock for 1.5 s.
      await migratePostgres(pool);
      const strict = new pg.Pool({ connectionString: url, max: 1, statement_timeout: 300 });
      const holder = await pool.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        const waiting = migratePostgres(strict);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        expect(await waiting).toEqual({ from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION, applied: [], adopted: [] });
        expect((await strict.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows).toEqual([{ statement_timeout: '300ms' }]);
        await expect(strict.query('SELECT pg_sleep(1)')).rejects.toThrow(/statement timeout/);
      } finally {
        holder.release();
        await strict.end();
      }
    });
  });

  it("drops the empty version table the previous release's rtdb-secret command leaves on a migrated database, re-running nothing", async (ctx) => {
    await withPool(ctx, async (pool) => {
      await migratePostgres(pool);
      // The old runner creates its version table outside its transaction, then fails on tables that exist.
      await expect(runOldMigrations(pool, OLD_RTDB)).rejects.toThrow(/relation "rtdb_revision" already exists/);
      expect((await pool.query('SELECT count(*)::int AS n FROM rtdb_schema_version')).rows).toEqual([{ n: 0 }]);
      expect(await migratePostgres(pool)).toEqual({ from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION, applied: [], adopted: ['rtdb_schema_version'] });
      expect((await tables(pool)).filter((name) => name.endsWith('schema_version'))).toEqual(['schema_version']);
    });
  });

  it('the commands that open a store without openStorage (rtdb-secret, api-token) migrate an empty database first', async (ctx) => {
    const server = postgres.server() ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pg-commands-'));
    try {
      for (const argv of [
        ['rtdb-secret', 'create'],
        ['api-token', 'create', '--scopes', 'ai-search:read'],
      ]) {
        const url = await server.createDatabase();
        const { config, secret, apiToken, token } = parseCommandLine([...argv, '--data', dataDir, '--database-url', url], {});
        const lines: string[] = [];
        if (secret) await runSecretCommand(config, secret, (line) => lines.push(line));
        else await runApiTokenCommand(config, apiToken!, (line) => lines.push(line), token.expiresIn);
        expect(lines.join('\n'), argv.join(' ')).toMatch(/secret: |created API token /);
        const pool = createPool({ url, max: 1, onIdleError: () => {} });
        try {
          expect((await pool.query('SELECT version FROM schema_version')).rows, argv.join(' ')).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
          expect((await pool.query(`SELECT count(*)::int AS n FROM ${secret ? 'rtdb_secrets' : 'search_api_tokens'}`)).rows).toEqual([{ n: 1 }]);
        } finally {
          await pool.end();
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
