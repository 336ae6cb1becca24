import type { Database } from 'better-sqlite3';
import { createOrAdopt } from '../../../engine/db/createOrAdopt.ts';

/**
 * API tokens: only the SHA-256 of each secret is kept. Files written before this list (tables made
 * with `CREATE TABLE IF NOT EXISTS` on every open, `user_version` 0) hold exactly this table:
 * the statement is the one they were made with, IF NOT EXISTS included, so it adopts theirs (and
 * refuses a table of that name with any other schema). Never edited: later changes follow it.
 */
export function updateToSchemaVersion10(db: Database): void {
  createOrAdopt(
    db,
    `CREATE TABLE IF NOT EXISTS api_tokens (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      name TEXT,
      secret_hash BLOB NOT NULL,
      scopes TEXT NOT NULL,
      allow_ips TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      revoked_at INTEGER
    ) STRICT`,
  );
}
