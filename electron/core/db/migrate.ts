import type { Database } from 'better-sqlite3';
import { migrateSchema, schemaVersion } from '../../../shared/db/migrations.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

/** The database was written by a newer app; opening it with this one could corrupt it. */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(
      `this account's local database has schema version ${found}, newer than this app knows (latest ${known}); ` + 'update Breach Monitor, or remove the local data of this account to sync it again',
    );
    this.found = found;
    this.known = known;
  }
}

export { schemaVersion };

/**
 * Brings the account database up to `target` (default: the last migration) with the shared
 * runner; the `schema_migrations` table is the readable log of what ran, `user_version` the
 * authority.
 */
export function migrate(db: Database, options: { migrations?: readonly Migration[]; target?: number; now?: () => Date } = {}): { from: number; to: number } {
  const now = options.now ?? (() => new Date());
  return migrateSchema(db, options.migrations ?? MIGRATIONS, {
    ...(options.target !== undefined ? { target: options.target } : {}),
    onApplied: (database, migration) => database.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, now().toISOString()),
    tooNew: (found, known) => new SchemaTooNewError(found, known),
  });
}
