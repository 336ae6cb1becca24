import path from 'node:path';
import { accountId } from '../accounts/accountId.ts';
import type { WritableDB } from './Interface.ts';
import { migrate, schemaVersion } from './migrate.ts';
import { openPrivateDatabase } from '../../../engine/db/openPrivateDatabase.ts';
import { LATEST_SCHEMA_VERSION } from './migrations/index.ts';

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
  const db = openPrivateDatabase(file, { synchronous: 'FULL' }, (opened) => {
    migrate(opened);
    if (schemaVersion(opened) !== LATEST_SCHEMA_VERSION) throw new Error(`account database stayed at schema ${schemaVersion(opened)}`);
  });
  const branded = db as WritableDB;
  return {
    db: branded,
    path: file,
    close() {
      if (db.open) db.close();
    },
  };
}
