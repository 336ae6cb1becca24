import type { Database } from 'better-sqlite3';
import { createOrAdopt } from '../../../../engine/db/createOrAdopt.ts';

/**
 * The details feed's copy and its state. Files written before this list (the same statements run
 * with IF NOT EXISTS on every open, `user_version` 0) hold exactly these tables: the text is the
 * one they were made with, so it adopts theirs, and refuses a table of that name with any other
 * schema. Never edited: later changes follow it.
 */
export function updateToSchemaVersion10(db: Database): void {
  createOrAdopt(
    db,
    `CREATE TABLE IF NOT EXISTS details (id TEXT PRIMARY KEY, details TEXT NOT NULL CHECK (json_valid(details))) STRICT, WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS feed_state (only INTEGER PRIMARY KEY CHECK (only = 1), url TEXT NOT NULL, etag TEXT, synced_at TEXT NOT NULL, count INTEGER NOT NULL) STRICT;`,
  );
}
