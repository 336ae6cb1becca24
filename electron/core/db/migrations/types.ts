import type { Database } from 'better-sqlite3';
import type { Migration as SchemaMigration } from '../../../../shared/db/migrations.ts';

/** One forward-only step of the account database schema; `version` steps by 10. */
export type Migration = SchemaMigration<Database>;
