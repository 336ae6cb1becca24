import type { Database } from 'better-sqlite3';
import type { Migration } from '../../../../shared/db/migrations.ts';
import { updateToSchemaVersion10 } from './0010-details.ts';

/**
 * The details feed's file (`catalog-details.db`, the same for every account): its own list, run
 * by the project's one runner (shared/db/migrations.ts). Forward-only and append-only.
 */
export const DETAILS_MIGRATIONS: readonly Migration<Database>[] = [{ version: 10, name: 'details', up: updateToSchemaVersion10 }];
