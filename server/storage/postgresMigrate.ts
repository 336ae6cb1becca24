import type pg from 'pg';
import { SchemaTooNewError } from './sqliteMigrate.ts';
import { LEGACY_VERSION_TABLES, POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION, type LegacyVersionTable, type PostgresMigration } from './migrations/index.ts';

/** Held while migrating, so instances starting together migrate once, one after another. */
export const MIGRATION_LOCK = 0x6272_6561; // "brea"

/** The one table the database's schema version lives in. */
export const SCHEMA_VERSION_TABLE = 'schema_version';

export interface PostgresMigrationRun {
  /** `schema_version` before the run (0 for an empty database). */
  from: number;
  to: number;
  /** The versions this run applied, in order (none when another instance had already). */
  applied: number[];
  /** The previous layout's version tables read and dropped by this run. */
  adopted: LegacyVersionTable[];
}

/**
 * Brings the database up to the last of `migrations` (the one list, by default), in ONE
 * transaction under an advisory lock: PostgreSQL's DDL is transactional, so a failing migration
 * leaves the database exactly as it was, and instances starting together migrate once, the later
 * ones finding nothing left to do.
 *
 * A database of the previous layout (a version table per component) is upgraded in the same
 * transaction: a migration counts as applied when the table of the migration it replaces says
 * that version was reached; the others run in order; then the one version is recorded and the
 * old tables dropped. A version table of either layout above what this code knows is refused.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<PostgresMigrationRun> {
  assertOrdered(migrations);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // Not under the pool's statement timeout: waiting for another instance's migration, and a
    // migration itself (a table rewritten), may take longer than any one query should, and a
    // second instance starting beside the first must wait for it, not fail. Reset before the
    // connection goes back to the pool.
    await client.query('SET statement_timeout = 0');
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('BEGIN');
      try {
        const run = await migrateIn(client, migrations);
        await client.query('COMMIT');
        return run;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
        throw error;
      }
    } finally {
      // A lost connection releases its advisory lock with it.
      if (!broken) await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch((unlock: Error) => (broken = unlock));
    }
  } finally {
    if (!broken) await client.query('RESET statement_timeout').catch((reset: Error) => (broken = reset));
    client.release(broken);
  }
}

async function migrateIn(client: pg.ClientBase, migrations: readonly PostgresMigration[]): Promise<PostgresMigrationRun> {
  await client.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA_VERSION_TABLE} (version integer NOT NULL)`);
  const from = await versionIn(client, SCHEMA_VERSION_TABLE);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) throw new SchemaTooNewError(from, latest, SCHEMA_VERSION_TABLE);
  const legacy = await legacyVersions(client);
  for (const [table, version] of legacy) {
    const known = Math.max(0, ...migrations.filter((m) => m.replaces?.table === table).map((m) => m.replaces!.version));
    if (version > known) throw new SchemaTooNewError(version, known, table);
  }
  const reached = (table: PostgresMigration['replaces'] & {}): boolean => (table.table === SCHEMA_VERSION_TABLE ? from : (legacy.get(table.table) ?? 0)) >= table.version;
  const pending = migrations.filter((m) => m.version > from && !(m.replaces && reached(m.replaces)));
  for (const migration of pending) {
    try {
      await client.query(migration.sql);
    } catch (error) {
      throw new Error(`PostgreSQL migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error });
    }
  }
  if (from !== latest) {
    await client.query(`DELETE FROM ${SCHEMA_VERSION_TABLE}`);
    await client.query(`INSERT INTO ${SCHEMA_VERSION_TABLE} (version) VALUES ($1)`, [latest]);
  }
  // Every version they held is now in schema_version: all migrations up to `latest` are applied.
  for (const table of legacy.keys()) await client.query(`DROP TABLE ${table}`);
  return { from, to: latest, applied: pending.map((m) => m.version), adopted: [...legacy.keys()] };
}

/** The previous layout's version tables that exist, with the version each holds (0 when empty). */
async function legacyVersions(client: pg.ClientBase): Promise<Map<LegacyVersionTable, number>> {
  const { rows } = await client.query<{ name: LegacyVersionTable }>('SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NOT NULL', [LEGACY_VERSION_TABLES]);
  const versions = new Map<LegacyVersionTable, number>();
  for (const { name } of rows) versions.set(name, await versionIn(client, name));
  return versions;
}

async function versionIn(client: pg.ClientBase | pg.Pool, table: string): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${table}`);
  return rows[0]?.version ?? 0;
}

/** The database's schema version, without creating anything (0 when it was never migrated). */
export async function postgresSchemaVersion(client: pg.ClientBase | pg.Pool): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [SCHEMA_VERSION_TABLE]);
  return rows[0]?.exists ? versionIn(client, SCHEMA_VERSION_TABLE) : 0;
}

/**
 * What each store checks when it opens, instead of migrating: the database is at exactly this
 * code's version. One that is behind was not migrated (everything that opens a store goes through
 * `openStorage` first); one that is ahead was written by newer code.
 */
export async function requireCurrentSchema(pool: pg.Pool): Promise<void> {
  const version = await postgresSchemaVersion(pool);
  if (version > POSTGRES_SCHEMA_VERSION) throw new SchemaTooNewError(version, POSTGRES_SCHEMA_VERSION, SCHEMA_VERSION_TABLE);
  if (version < POSTGRES_SCHEMA_VERSION) throw new Error(`database schema version ${version}, this code needs ${POSTGRES_SCHEMA_VERSION}: the database was not migrated (openStorage migrates it)`);
}

function assertOrdered(migrations: readonly PostgresMigration[]): void {
  migrations.forEach((migration, index) => {
    const previous = migrations[index - 1];
    if (!Number.isInteger(migration.version) || migration.version <= 0) throw new Error(`migration ${migration.name} has an invalid version ${migration.version}`);
    if (previous && migration.version <= previous.version) throw new Error(`migrations are out of order: ${migration.name} (${migration.version}) after ${previous.name} (${previous.version})`);
  });
}
