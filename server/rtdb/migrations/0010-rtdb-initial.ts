import type { Database } from 'better-sqlite3';

/**
 * The realtime database's first schema. One row per leaf: a subtree is one range of the primary
 * key, and a write replaces exactly the rows below its location. (The SQL keeps the indentation
 * it was released with: SQLite stores the statement's text, and a released one is never edited.)
 */
export function updateToSchemaVersion10(db: Database): void {
  db.exec(`
        CREATE TABLE leaves (
          path TEXT PRIMARY KEY,
          value TEXT NOT NULL CHECK (json_valid(value))
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;

        -- Legacy database secrets: only a SHA-256 of each is kept; revoked ones stay listed.
        CREATE TABLE secrets (
          id TEXT PRIMARY KEY,
          secret_hash TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL,
          revoked_at TEXT
        ) STRICT;

        -- Service accounts of the identity provider: the public half of each key and the scopes
        -- the account is permitted.
        CREATE TABLE service_accounts (
          client_email TEXT PRIMARY KEY,
          key_id TEXT NOT NULL UNIQUE,
          public_key_pem TEXT NOT NULL,
          scopes TEXT NOT NULL CHECK (json_valid(scopes) AND json_type(scopes) = 'array'),
          created_at TEXT NOT NULL
        ) STRICT;
      `);
}
