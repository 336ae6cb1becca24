import type { Migration } from '../store/migrations/index.ts';

/**
 * The realtime database's own file (`rtdb.db` in the data folder), apart from the breach
 * store so each can change schema on its own. One row per leaf: a subtree is one range of the
 * primary key, and a write replaces exactly the rows below its location.
 */
export const RTDB_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'rtdb-initial',
    up(db) {
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
    },
  },
];
