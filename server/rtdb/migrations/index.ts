import type { Migration } from '../../storage/sqliteMigrate.ts';
import { updateToSchemaVersion10 } from './0010-rtdb-initial.ts';

/**
 * The realtime database's own file (`rtdb.db` in the data folder), apart from the breach store
 * (a database of its own, so a write to one never waits on the other's lock): its own list, run
 * by the project's one runner (shared/db/migrations.ts). Forward-only and append-only: a
 * released migration is never edited, only followed.
 */
export const RTDB_MIGRATIONS: readonly Migration[] = [{ version: 10, name: 'rtdb-initial', up: updateToSchemaVersion10 }];
