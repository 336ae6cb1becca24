import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** Long enough to ride out a checkpoint by another connection, short enough to surface a stuck writer. */
const BUSY_TIMEOUT_MS = 5000;

export interface PrivateDatabaseOptions {
  /** FULL where an answered write must survive a power cut; NORMAL where it may be redone. */
  synchronous: 'FULL' | 'NORMAL';
  /** SQLite leaves foreign keys off on every new connection; on where the schema relies on them. */
  foreignKeys?: boolean;
  /**
   * Before opening, make the folder 0700 again even if it existed, and create the file 0600
   * with any WAL/shared-memory companions it already has: the service's data folder may have
   * been made by hand or by an older version. (SQLite gives the companions it creates later the
   * database file's mode, so creating the file 0600 first covers them too.) Left out, the folder
   * is created 0700 if missing and a new file is made 0600 once SQLite has created it.
   */
  tightenExisting?: boolean;
}

/**
 * Opens (creating if needed) a SQLite file of the person's data: folder 0700, file 0600 (breach
 * exposure is personal data, readable by this user only), WAL, a busy timeout, then `prepare`
 * (migrations). The connection is closed again if any of it fails. `:memory:` skips the files.
 */
export function openPrivateDatabase(file: string, options: PrivateDatabaseOptions, prepare: (db: Database.Database) => void): Database.Database {
  const inMemory = file === ':memory:';
  if (!inMemory && options.tightenExisting) tightenPrivateFile(file);
  else if (!inMemory) mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const created = !inMemory && !existsSync(file);
  const db = new Database(file);
  try {
    if (!inMemory) {
      db.pragma('journal_mode = WAL');
      if (created) chmodSync(file, 0o600);
    }
    db.pragma(`synchronous = ${options.synchronous}`);
    if (options.foreignKeys) db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    prepare(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function tightenPrivateFile(file: string): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  closeSync(openSync(file, 'a', 0o600));
  for (const companion of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(companion)) chmodSync(companion, 0o600);
}
