import type { Database } from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

/** The database was written by newer code; opening it with this code could corrupt it. */
export class SchemaTooNewError extends Error {
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(
      `database schema version ${found} is newer than this code knows (latest ${known}); ` +
        'run a newer version of the service, or point it at another database file',
    );
    this.name = 'SchemaTooNewError';
    this.found = found;
    this.known = known;
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to the last of `migrations`, one transaction per migration, so a
 * failing migration leaves the database at the previous version rather than half changed.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  assertOrdered(migrations);
  const from = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) throw new SchemaTooNewError(from, latest);
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    db.transaction(() => {
      migration.up(db);
      // user_version lives in the database header, which commits or rolls back with the transaction.
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return { from, to: schemaVersion(db) };
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (!Number.isInteger(migration.version) || migration.version <= 0)
      throw new Error(`migration ${migration.name} has an invalid version ${migration.version}`);
    const previous = migrations[index - 1];
    if (previous && migration.version <= previous.version)
      throw new Error(`migrations are out of order: ${migration.name} (${migration.version}) after ${previous.name} (${previous.version})`);
  });
}
