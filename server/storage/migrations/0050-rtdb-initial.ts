/**
 * The realtime database's tables (released as `rtdb_schema_version` 10). As in SQLite, one row per
 * leaf, keyed by its path in byte order (`COLLATE "C"`), so a subtree is one range of the primary
 * key. `rtdb_revision` moves with every write of any instance: cached snapshots are keyed by it, and
 * writers take its row lock, so a request's checks and its write see no other writer in between.
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const rtdbInitialSql = `
        CREATE TABLE rtdb_revision (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), revision bigint NOT NULL);
        INSERT INTO rtdb_revision (revision) VALUES (1);

        CREATE TABLE rtdb_leaves (
          path text COLLATE "C" PRIMARY KEY,
          value text NOT NULL CHECK (value::jsonb IS NOT NULL)
        );

        CREATE TABLE rtdb_settings (key text PRIMARY KEY, value text NOT NULL);

        -- Legacy database secrets: only a SHA-256 of each is kept; revoked ones stay listed.
        CREATE TABLE rtdb_secrets (
          id text PRIMARY KEY,
          secret_hash text NOT NULL UNIQUE,
          created_at text NOT NULL,
          revoked_at text
        );

        -- Service accounts of the identity provider: the public half of each key and its scopes.
        CREATE TABLE rtdb_service_accounts (
          client_email text PRIMARY KEY,
          key_id text NOT NULL UNIQUE,
          public_key_pem text NOT NULL,
          scopes jsonb NOT NULL CHECK (jsonb_typeof(scopes) = 'array'),
          created_at text NOT NULL
        );
      `;
