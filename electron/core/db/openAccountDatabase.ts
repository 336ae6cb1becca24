import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { accountId } from '../accounts/accountId.ts';
import type { WritableDB } from './Interface.ts';
import { migrate, schemaVersion } from './migrate.ts';
import { LATEST_SCHEMA_VERSION } from './migrations/index.ts';

/** Long enough to ride out a checkpoint by another connection, short enough to surface a stuck writer. */
const BUSY_TIMEOUT_MS = 5000;

export interface AccountDatabase {
  readonly db: WritableDB;
  /** The file, or `:memory:`. */
  readonly path: string;
  close(): void;
}

/** `<dataDir>/accounts/<accountId>.db`: one file per signed-in account, named without the subject in clear. */
export function accountDatabasePath(dataDir: string, issuer: string, subject: string): string {
  return path.join(dataDir, 'accounts', `${accountId(issuer, subject)}.db`);
}

/**
 * Opens (creating if needed) an account database and migrates it to the latest schema. Refuses
 * a file written by a newer app with {@link SchemaTooNewError}.
 *
 * `synchronous = FULL`: a toggle the person saw saved must survive a power cut, not only a
 * crash; with WAL that costs one fsync per commit, and commits are per user action or per sync.
 */
export function openAccountDatabase(file: string): AccountDatabase {
  const inMemory = file === ':memory:';
  if (!inMemory) mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const created = !inMemory && !existsSync(file);
  const db = new Database(file);
  try {
    if (!inMemory) {
      db.pragma('journal_mode = WAL');
      // Breach exposure and emails are personal data: readable by this user only.
      if (created) chmodSync(file, 0o600);
    }
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db);
    if (schemaVersion(db) !== LATEST_SCHEMA_VERSION) throw new Error(`account database stayed at schema ${schemaVersion(db)}`);
  } catch (error) {
    db.close();
    throw error;
  }
  const branded = db as WritableDB;
  return {
    db: branded,
    path: file,
    close() {
      if (db.open) db.close();
    },
  };
}
