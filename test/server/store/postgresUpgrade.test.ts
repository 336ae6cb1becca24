// The upgrade from the previous PostgreSQL layout (three migration lists, three version tables:
// test/server/fixtures/oldPostgresLayout.ts) to the one list, through `openStorage` as a service
// starts: every old state a real database can be in is built by running the OLD lists, data is put
// in each component present, and the first start with this code must keep the data, end with the
// schema of a fresh database, and leave only `schema_version`. Two instances starting together on
// an old layout migrate once. Only `openStorage` of the code under test is used here, so the file
// runs unchanged against the previous release (where the old version tables stay: it fails).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { createLogger, type Logger } from '../../../server/log.ts';
import { mintApiToken } from '../../../server/search/ApiTokenStore.ts';
import { openStorage, type ServiceStorage } from '../../../server/openStorage.ts';
import { POSTGRES_SCHEMA_VERSION } from '../../../server/storage/migrations/index.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { OLD_BREACH, OLD_RTDB, OLD_SEARCH, runOldMigrations } from '../fixtures/oldPostgresLayout.ts';

const postgres = usePrivatePostgres();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Component = 'breach' | 'rtdb' | 'search';

/** One state a database of the previous layout can be in: each component present at a version. */
interface OldState {
  name: string;
  breach?: number;
  rtdb?: number;
  search?: number;
}

const OLD_STATES: OldState[] = [
  // The search storage opens on the first search: a database may well have no search tables.
  { name: 'the breach store only (as the previous release left it before any search)', breach: 40 },
  { name: 'the breach store and the realtime database', breach: 40, rtdb: 10 },
  { name: 'all three components at their latest', breach: 40, rtdb: 10, search: 20 },
  { name: 'a breach store at 30 (older than 40) with the realtime database', breach: 30, rtdb: 10 },
  { name: 'a breach store at 20 with the realtime database and the search at 10', breach: 20, rtdb: 10, search: 10 },
  // `rtdb-secret create --database-url` opened the realtime database alone.
  { name: 'the realtime database only (the rtdb-secret command on an empty database)', rtdb: 10 },
];

async function emptyDatabase(ctx: TestContext): Promise<string> {
  const server = postgres.server() ?? ctx.skip('PostgreSQL could not start (see the message above)');
  return server.createDatabase();
}

async function withPool<T>(url: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

async function rows<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  return withPool(url, async (pool) => (await pool.query<R>(sql)).rows);
}

/** A logger whose lines the test reads back. */
function capturedLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), lines: () => lines };
}

async function start(url: string, logger: Logger = createLogger({ level: 'silent' })): Promise<ServiceStorage> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pg-upgrade-'));
  dirs.push(dataDir);
  return openStorage({ dataDir, databaseUrl: url, databasePoolSize: 4, databaseInvalidation: 'check' }, logger);
}

/** Builds `state` with the previous release's own lists and runner, one component after another. */
async function buildOldLayout(url: string, state: OldState): Promise<void> {
  await withPool(url, async (pool) => {
    if (state.breach) await runOldMigrations(pool, OLD_BREACH, state.breach);
    if (state.rtdb) await runOldMigrations(pool, OLD_RTDB, state.rtdb);
    if (state.search) await runOldMigrations(pool, OLD_SEARCH, state.search);
  });
}

const TOKEN = mintApiToken('local', { scopes: ['ai-search:read'], name: 'kept across the upgrade' }, Date.UTC(2026, 0, 1));

/** Rows in each component present, written as the previous release wrote them (its tables, plain SQL). */
async function putOldData(url: string, state: OldState): Promise<void> {
  await withPool(url, async (pool) => {
    if (state.breach) {
      await pool.query(`INSERT INTO breaches VALUES ('Adobe', 'adobe.com', '2013-10-04', '2013-12-04T00:00:00Z', '2013-12-04T00:00:00Z', '["Email addresses","Passwords"]', false)`);
      await pool.query(`INSERT INTO accounts VALUES ('alice', '["a@example.com"]', false)`);
      await pool.query(`INSERT INTO exposure_records VALUES ('a@example.com'); INSERT INTO exposures VALUES ('a@example.com', 'Adobe')`);
      await pool.query(`INSERT INTO resolutions VALUES ('a@example.com', 'Adobe', 'passwords', 'Passwords', '2026-01-01T10:00:00Z')`);
    }
    if (state.rtdb) {
      await pool.query(`INSERT INTO rtdb_leaves (path, value) VALUES ('prefs/alice/theme', '"dark"'), ('prefs/alice/digest', 'true')`);
      await pool.query(`INSERT INTO rtdb_secrets (id, secret_hash, created_at) VALUES ('kept-secret', 'aa', '2026-01-01T00:00:00Z')`);
      await pool.query('UPDATE rtdb_revision SET revision = 7');
    }
    if (state.search) {
      const { row } = TOKEN;
      await pool.query(`INSERT INTO search_api_tokens (id, account_id, name, secret_hash, scopes, allow_ips, created_at, expires_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8)`, [
        row.id,
        row.accountId,
        row.name,
        row.secretHash,
        JSON.stringify(row.scopes),
        JSON.stringify(row.allowIps),
        row.createdAt,
        row.expiresAt,
      ]);
    }
  });
}

/** The data above, read back through the stores this code opens. */
async function expectOldDataKept(storage: ServiceStorage, state: OldState): Promise<void> {
  if (state.breach) {
    expect((await storage.breaches.listBreaches()).map((breach) => breach.id)).toEqual(['Adobe']);
    expect(await storage.breaches.getAccount('alice')).toEqual({ sub: 'alice', emails: ['a@example.com'], deleted: false });
    expect(await storage.breaches.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolvedAt: '2026-01-01T10:00:00Z' }]);
  }
  if (state.rtdb) {
    expect(await storage.rtdb.get(['prefs'])).toEqual({ alice: { theme: 'dark', digest: true } });
    expect((await storage.rtdb.listSecrets()).map((secret) => secret.id)).toEqual(['kept-secret']);
  }
  if (state.search) {
    const search = await storage.search({ readDetails: () => ({}), readDetailsOf: () => undefined });
    expect(await search.tokens.find(TOKEN.token)).toMatchObject({ id: TOKEN.row.id, name: 'kept across the upgrade', scopes: ['ai-search:read'] });
  }
}

/**
 * What a schema is made of, in a form two databases can be compared by: every column (type,
 * nullability, default, collation, generation), index, constraint, sequence and text search
 * configuration and dictionary of the public schema.
 */
async function schemaOf(url: string): Promise<Record<string, unknown[]>> {
  return {
    columns: await rows(
      url,
      `SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, collation_name, is_generated, generation_expression
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    ),
    indexes: await rows(url, "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname"),
    constraints: await rows(
      url,
      `SELECT conrelid::regclass::text AS relation, conname, contype, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY relation, conname`,
    ),
    sequences: await rows(url, "SELECT sequence_name, data_type, start_value, increment FROM information_schema.sequences WHERE sequence_schema = 'public' ORDER BY sequence_name"),
    textSearch: await rows(
      url,
      `SELECT 'config' AS kind, cfgname AS name FROM pg_ts_config WHERE cfgnamespace = 'public'::regnamespace
       UNION ALL SELECT 'dictionary', dictname FROM pg_ts_dict WHERE dictnamespace = 'public'::regnamespace ORDER BY kind, name`,
    ),
    mappings: await rows(
      url,
      `SELECT c.cfgname, m.maptokentype, d.dictname FROM pg_ts_config_map m JOIN pg_ts_config c ON c.oid = m.mapcfg JOIN pg_ts_dict d ON d.oid = m.mapdict
       WHERE c.cfgnamespace = 'public'::regnamespace ORDER BY 1, 2, m.mapseqno`,
    ),
  };
}

/** A fresh database brought up by this code: what every upgraded one must equal. */
let freshSchema: Promise<Record<string, unknown[]>> | undefined;
function schemaOfFreshDatabase(ctx: TestContext): Promise<Record<string, unknown[]>> {
  freshSchema ??= (async () => {
    const url = await emptyDatabase(ctx);
    const storage = await start(url);
    await storage.search({ readDetails: () => ({}), readDetailsOf: () => undefined });
    await storage.close();
    return schemaOf(url);
  })();
  return freshSchema;
}

async function versionTables(url: string): Promise<string[]> {
  return (await rows<{ table_name: string }>(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE '%schema_version' ORDER BY 1")).map(
    (row) => row.table_name,
  );
}

describe('the first start on a database of the previous layout', () => {
  it.for(OLD_STATES)("$name: keeps the data, ends with a fresh database's schema and only schema_version", async (state, ctx) => {
    const fresh = await schemaOfFreshDatabase(ctx);
    const url = await emptyDatabase(ctx);
    await buildOldLayout(url, state);
    await putOldData(url, state);
    const old = (['breach', 'rtdb', 'search'] as Component[]).filter((component) => state[component] !== undefined);
    expect(await versionTables(url)).toEqual(old.map((component) => ({ breach: 'schema_version', rtdb: 'rtdb_schema_version', search: 'search_schema_version' })[component]).sort());

    const storage = await start(url);
    try {
      await expectOldDataKept(storage, state);
      // The search tables exist from the start now (the one list creates them), searched or not.
      await storage.search({ readDetails: () => ({}), readDetailsOf: () => undefined });
    } finally {
      await storage.close();
    }
    expect(await versionTables(url)).toEqual(['schema_version']);
    expect(await rows(url, 'SELECT version FROM schema_version')).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
    expect(await schemaOf(url)).toEqual(fresh);

    // A second start finds nothing left to do and the data still there.
    const again = await start(url);
    try {
      await expectOldDataKept(again, state);
    } finally {
      await again.close();
    }
  });

  it('refuses an old version table newer than this code knows, naming it, and changes nothing', async (ctx) => {
    const url = await emptyDatabase(ctx);
    await buildOldLayout(url, { name: 'all three', breach: 40, rtdb: 10, search: 20 });
    await putOldData(url, { name: 'breach', breach: 40 });
    // A realtime database list of a release this code never saw.
    await rows(url, 'UPDATE rtdb_schema_version SET version = 20');
    const before = await schemaOf(url);
    const error = (await start(url).catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ name: 'SchemaTooNewError', found: 20, known: 10 });
    expect(error.message).toMatch(/schema version 20 is newer than this code knows \(table rtdb_schema_version, latest 10\)/);
    expect(await schemaOf(url)).toEqual(before);
    expect(await versionTables(url)).toEqual(['rtdb_schema_version', 'schema_version', 'search_schema_version']);
    expect(await rows(url, 'SELECT (SELECT version FROM schema_version) AS breach, (SELECT version FROM rtdb_schema_version) AS rtdb')).toEqual([{ breach: 40, rtdb: 20 }]);
  });

  it('two instances starting at once on an old layout: one migrates, the other finds it done, both open', async (ctx) => {
    const fresh = await schemaOfFreshDatabase(ctx);
    const state: OldState = { name: 'breach at 30 and rtdb', breach: 30, rtdb: 10 };
    const url = await emptyDatabase(ctx);
    await buildOldLayout(url, state);
    await putOldData(url, state);
    const [one, two] = [capturedLogger(), capturedLogger()];
    const opened = await Promise.all([start(url, one.logger), start(url, two.logger)]);
    try {
      for (const storage of opened) await expectOldDataKept(storage, state);
    } finally {
      for (const storage of opened) await storage.close();
    }
    const migrated = [...one.lines(), ...two.lines()].filter((line) => line.msg === 'database schema migrated');
    expect(migrated).toEqual([expect.objectContaining({ from: 30, to: POSTGRES_SCHEMA_VERSION, applied: [40, 60, 70, 80, 90, 100, 110, 120, 130], adopted: ['rtdb_schema_version'] })]);
    expect(await versionTables(url)).toEqual(['schema_version']);
    expect(await schemaOf(url)).toEqual(fresh);
    // Migration 10's one-row tables were not filled twice.
    expect(await rows(url, 'SELECT key, value FROM meta ORDER BY key')).toEqual([
      { key: 'catalog_revision', value: '1' },
      { key: 'revision', value: '1' },
    ]);
    expect(await rows(url, 'SELECT count(*)::int AS n FROM source_state')).toEqual([{ n: 1 }]);
  });
});
