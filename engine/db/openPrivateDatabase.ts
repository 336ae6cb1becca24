import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** Long enough to ride out a checkpoint by another connection, short enough to surface a stuck writer. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) a SQLite file of the person's data: folder 0700, file 0600 (breach
 * exposure is personal data, readable by this user only), WAL, a busy timeout, then `prepare`
 * (migrations). The connection is closed again if any of it fails. `:memory:` skips the files.
 */
export function openPrivateDatabase(file: string, options: { synchronous: 'FULL' | 'NORMAL' }, prepare: (db: Database.Database) => void): Database.Database {
  const inMemory = file === ':memory:';
  if (!inMemory) mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const created = !inMemory && !existsSync(file);
  const db = new Database(file);
  try {
    if (!inMemory) {
      db.pragma('journal_mode = WAL');
      if (created) chmodSync(file, 0o600);
    }
    db.pragma(`synchronous = ${options.synchronous}`);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    prepare(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
