import type { Database } from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

/** The database was written by a newer app; opening it with this one could corrupt it. */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
  readonly found: number;
  readonly known: number;

  constructor(found: number, known: number) {
    super(
      `this account's local database has schema version ${found}, newer than this app knows (latest ${known}); ` +
        'update Breach Monitor, or remove the local data of this account to sync it again',
    );
    this.found = found;
    this.known = known;
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to `target` (default: the last migration), one transaction per
 * migration, so a failing step leaves the previous version intact. `user_version` is the
 * authority (it lives in the file header and commits with the transaction); the
 * `schema_migrations` table is its readable log.
 */
export function migrate(db: Database, options: { migrations?: readonly Migration[]; target?: number; now?: () => Date } = {}): { from: number; to: number } {
  const migrations = options.migrations ?? MIGRATIONS;
  assertOrdered(migrations);
  const from = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) throw new SchemaTooNewError(from, latest);
  const target = options.target ?? latest;
  const now = options.now ?? (() => new Date());
  for (const migration of migrations) {
    if (migration.version <= from || migration.version > target) continue;
    db.transaction(() => {
      migration.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, now().toISOString());
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
