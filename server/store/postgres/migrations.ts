import type pg from 'pg';
import { SchemaTooNewError } from '../migrate.ts';

export interface PostgresMigration {
  /** The schema version after this migration; numbers step by 10 so later fixes can slot in. */
  version: number;
  name: string;
  sql: string;
}

/**
 * Forward-only and append-only: a released migration is never edited, only followed. Version 10
 * is the breach store as SQLite's version 20 has it (data classes keyed by their slug); 20 adds
 * what several instances share beyond it: per-email change revisions (the response cache's
 * stamps), the identity provider's state and its signing keys.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 10,
    name: 'initial-schema',
    sql: `
      CREATE TABLE meta (key text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO meta (key, value) VALUES ('revision', 1), ('catalog_revision', 1);

      CREATE TABLE breaches (
        id text PRIMARY KEY CHECK (id <> ''),
        domain text NOT NULL,
        breach_date text NOT NULL,
        added_date text NOT NULL,
        modified_date text NOT NULL CHECK (modified_date >= added_date),
        data_classes jsonb NOT NULL CHECK (jsonb_typeof(data_classes) = 'array'),
        is_sensitive boolean NOT NULL
      );

      CREATE TABLE accounts (
        sub text PRIMARY KEY CHECK (sub <> ''),
        emails jsonb NOT NULL CHECK (jsonb_typeof(emails) = 'array'),
        deleted boolean NOT NULL
      );

      CREATE TABLE users (sub text PRIMARY KEY CHECK (sub <> ''), created_at text NOT NULL);

      -- One row per email that has been looked up, so "found in no breach" differs from "never looked up".
      CREATE TABLE exposure_records (email text PRIMARY KEY CHECK (email <> '' AND email = lower(email)));

      CREATE TABLE exposures (
        email text NOT NULL REFERENCES exposure_records (email) ON DELETE CASCADE,
        breach_id text NOT NULL,
        PRIMARY KEY (email, breach_id)
      );

      -- The primary key doubles as the index of the per-request lookup by email.
      CREATE TABLE resolutions (
        email text NOT NULL CHECK (email <> '' AND email = lower(email)),
        breach_id text NOT NULL,
        data_class_key text NOT NULL CHECK (data_class_key <> '' AND data_class_key = lower(data_class_key)),
        data_class text NOT NULL,
        resolved_at text NOT NULL,
        PRIMARY KEY (email, breach_id, data_class_key)
      );
    `,
  },
  {
    version: 20,
    name: 'shared-instances',
    sql: `
      -- Moves whenever an email's exposures or resolutions change, whichever instance wrote:
      -- the response cache compares these, so another instance's write is seen at once.
      CREATE SEQUENCE change_counter;
      CREATE TABLE email_revisions (email text PRIMARY KEY, revision bigint NOT NULL);
      INSERT INTO email_revisions (email, revision)
        SELECT email, nextval('change_counter') FROM (SELECT email FROM exposure_records UNION SELECT email FROM resolutions) AS known;

      -- The development identity provider's grants, sessions, codes and tokens (oidc-provider's adapter).
      CREATE TABLE oidc_models (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        uid text,
        grant_id text,
        user_code text,
        consumed_at bigint,
        expires_at timestamptz,
        PRIMARY KEY (model, id)
      );
      CREATE INDEX oidc_models_grant ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
      CREATE INDEX oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL;
      CREATE INDEX oidc_models_user_code ON oidc_models (model, user_code) WHERE user_code IS NOT NULL;

      -- Signing keys, so any instance verifies a token another issued (one row: the current key set).
      CREATE TABLE identity_keys (name text PRIMARY KEY, jwks jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    `,
  },
  {
    version: 30,
    name: 'lookup-queue',
    // The breach-data source's lookup queue and rate budget, shared by every instance (see
    // server/hibp and SQLite's migration 30). Times are milliseconds since the epoch.
    sql: `
      CREATE TABLE address_checks (
        email text PRIMARY KEY CHECK (email <> '' AND email = lower(email)),
        domain text NOT NULL,
        added_at bigint NOT NULL,
        seen_at bigint NOT NULL,
        checked_at bigint,
        due_at bigint,
        breach_count integer CHECK (breach_count IS NULL OR breach_count >= 0),
        via_domain boolean NOT NULL,
        problem text,
        stealer_due_at bigint,
        stealer_checked_at bigint,
        stealer_domains jsonb CHECK (stealer_domains IS NULL OR jsonb_typeof(stealer_domains) = 'array'),
        lease_until bigint NOT NULL DEFAULT 0,
        lease_owner text
      );
      CREATE INDEX address_checks_due ON address_checks (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX address_checks_stealer_due ON address_checks (stealer_due_at) WHERE stealer_due_at IS NOT NULL;
      CREATE INDEX address_checks_domain ON address_checks (domain);

      CREATE TABLE searched_domains (
        domain text PRIMARY KEY CHECK (domain <> '' AND domain = lower(domain)),
        checked_at bigint,
        due_at bigint,
        problem text,
        lease_until bigint NOT NULL DEFAULT 0,
        lease_owner text
      );

      CREATE TABLE source_requests (sent_at bigint NOT NULL);
      CREATE INDEX source_requests_sent_at ON source_requests (sent_at);

      CREATE TABLE source_state (
        id integer PRIMARY KEY CHECK (id = 1),
        rpm integer CHECK (rpm IS NULL OR rpm >= 1),
        blocked_until bigint NOT NULL DEFAULT 0,
        backoff_until bigint NOT NULL DEFAULT 0,
        failures integer NOT NULL DEFAULT 0,
        stealer_logs boolean NOT NULL DEFAULT false,
        problem_code text,
        problem_detail text,
        in_flight_id text,
        in_flight_until bigint NOT NULL DEFAULT 0
      );
      INSERT INTO source_state (id) VALUES (1);
    `,
  },
  {
    version: 40,
    name: 'catalog-history',
    // Catalog changes keep people's history: see SQLite's migration 40 for each table's reason.
    sql: `
      CREATE TABLE removed_breaches (
        id text PRIMARY KEY CHECK (id <> ''),
        breach jsonb NOT NULL CHECK (jsonb_typeof(breach) = 'object'),
        removed_at text NOT NULL
      );

      ALTER TABLE exposure_records ADD COLUMN invented boolean NOT NULL DEFAULT false;
      UPDATE exposure_records SET invented = true
        WHERE email NOT IN (SELECT email FROM address_checks WHERE checked_at IS NOT NULL);

      CREATE TABLE catalog_changes (
        id bigserial PRIMARY KEY,
        at text NOT NULL,
        email text NOT NULL CHECK (email <> '' AND email = lower(email)),
        from_catalog text CHECK (from_catalog IN ('demo', 'hibp', 'file')),
        to_catalog text NOT NULL CHECK (to_catalog IN ('demo', 'hibp', 'file')),
        removed jsonb NOT NULL CHECK (jsonb_typeof(removed) = 'array'),
        invented_removed jsonb NOT NULL CHECK (jsonb_typeof(invented_removed) = 'array'),
        resolutions_kept integer NOT NULL CHECK (resolutions_kept >= 0),
        resolutions_removed integer NOT NULL CHECK (resolutions_removed >= 0)
      );
      CREATE INDEX catalog_changes_email ON catalog_changes (email, id);

      CREATE TABLE catalog_origin (
        id integer PRIMARY KEY CHECK (id = 1),
        origin text CHECK (origin IN ('demo', 'hibp', 'file')),
        file text
      );
      INSERT INTO catalog_origin (id, origin, file) VALUES (1, NULL, NULL);
    `,
  },
];

export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;

/** Held while migrating, so instances starting together migrate once, one after another. */
const MIGRATION_LOCK = 0x6272_6561; // "brea"

/** Where the breach store's version is kept; each other component names its own table (see {@link MigrationSet}). */
export const SCHEMA_VERSION_TABLE = 'schema_version';

/**
 * A component's own list of migrations and the table its version lives in, so components (the
 * breach store, the realtime database, …) change their schemas independently, each forward-only.
 */
export interface MigrationSet {
  /** A plain SQL identifier, e.g. `rtdb_schema_version`. */
  versionTable: string;
  migrations: readonly PostgresMigration[];
}

export async function postgresSchemaVersion(client: pg.ClientBase, versionTable: string = SCHEMA_VERSION_TABLE): Promise<number> {
  const table = identifier(versionTable);
  await client.query(`CREATE TABLE IF NOT EXISTS ${table} (version integer NOT NULL)`);
  const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${table}`);
  return rows[0]?.version ?? 0;
}

function identifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL identifier: ${JSON.stringify(name)}`);
  return name;
}

/**
 * Brings the schema up to the last of `migrations`, each in its own transaction (PostgreSQL's
 * DDL is transactional, so a failing migration leaves the previous version intact).
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly PostgresMigration[] | MigrationSet = POSTGRES_MIGRATIONS): Promise<{ from: number; to: number }> {
  const { versionTable, migrations: list } = 'versionTable' in migrations ? migrations : { versionTable: SCHEMA_VERSION_TABLE, migrations };
  const table = identifier(versionTable);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const from = await postgresSchemaVersion(client, table);
      const latest = list.at(-1)?.version ?? 0;
      if (from > latest) throw new SchemaTooNewError(from, latest);
      let to = from;
      for (const migration of list) {
        if (migration.version <= from) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query(`DELETE FROM ${table}`);
          await client.query(`INSERT INTO ${table} (version) VALUES ($1)`, [migration.version]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`PostgreSQL migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error });
        }
        to = migration.version;
      }
      return { from, to };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
