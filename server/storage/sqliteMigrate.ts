import type { Database } from 'better-sqlite3';
import { migrateSchema, schemaVersion, type Migration as SchemaMigration } from '../../shared/db/migrations.ts';

/** One step of a SQLite database's list (each feature owns its list: breaches, rtdb, search, identity). */
export type Migration = SchemaMigration<Database>;

/** The database was written by newer code; opening it with this code could corrupt it. */
export class SchemaTooNewError extends Error {
  readonly found: number;
  readonly known: number;
  /** PostgreSQL: the version table that said so (a table of the previous layout, on an upgrade). */
  readonly versionTable: string | undefined;

  constructor(found: number, known: number, versionTable?: string) {
    super(
      versionTable
        ? `database schema version ${found} is newer than this code knows (table ${versionTable}, latest ${known}); run a newer version of the service, or point it at another database`
        : `database schema version ${found} is newer than this code knows (latest ${known}); run a newer version of the service, or point it at another database file`,
    );
    this.name = 'SchemaTooNewError';
    this.found = found;
    this.known = known;
    this.versionTable = versionTable;
  }
}

export { schemaVersion };

/**
 * Brings the schema up to the last of `migrations` (the feature's own list) with the project's one runner: one
 * transaction per migration, so a failing migration leaves the database at the previous
 * version rather than half changed.
 */
export function migrate(db: Database, migrations: readonly Migration[]): { from: number; to: number } {
  return migrateSchema(db, migrations, { tooNew: (found, known) => new SchemaTooNewError(found, known) });
}
