/**
 * The one forward-only migration runner for every SQLite file of the project: the account
 * database and the graph database of the app, and the reference service's store. It knows no
 * driver: anything with `user_version` pragmas and immediate transactions (better-sqlite3 is
 * the one in use) can be migrated, which is why it lives here, where both the core and the
 * server may import it.
 */

/** What the runner needs of a database connection (better-sqlite3's `Database` fits). */
export interface MigratableDatabase {
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction(fn: () => void): { immediate(): unknown };
}

/** One step of a schema. Append only: a released step never changes, later ones follow it. */
export interface Migration<DB = MigratableDatabase> {
  /** The `user_version` after this step; numbers step by 10 so later fixes can slot in. */
  version: number;
  name: string;
  up(db: DB): void;
}

export interface MigrateOptions<DB> {
  /** Stop at this version (tests of a step); default: the last migration. */
  target?: number;
  /** Inside each step's transaction, after its `up` (a readable log of what ran, say). */
  onApplied?(db: DB, migration: Migration<DB>): void;
  /** The error for a file written by newer code (its version is above the last known). */
  tooNew(found: number, known: number): Error;
}

export function schemaVersion(db: MigratableDatabase): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/**
 * Brings the schema up to `target`, one transaction per migration, so a failing step leaves
 * the previous version intact. `user_version` is the authority: it lives in the file header
 * and commits or rolls back with the step's transaction. A file newer than the code is refused
 * rather than opened, since writing to it could corrupt it.
 */
export function migrateSchema<DB extends MigratableDatabase>(db: DB, migrations: readonly Migration<DB>[], options: MigrateOptions<DB>): { from: number; to: number } {
  assertOrdered(migrations);
  const from = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) throw options.tooNew(from, latest);
  const target = options.target ?? latest;
  for (const migration of migrations) {
    if (migration.version <= from || migration.version > target) continue;
    db.transaction(() => {
      migration.up(db);
      options.onApplied?.(db, migration);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return { from, to: schemaVersion(db) };
}

function assertOrdered(migrations: readonly Migration<never>[]): void {
  migrations.forEach((migration, index) => {
    if (!Number.isInteger(migration.version) || migration.version <= 0) throw new Error(`migration ${migration.name} has an invalid version ${migration.version}`);
    const previous = migrations[index - 1];
    if (previous && migration.version <= previous.version) throw new Error(`migrations are out of order: ${migration.name} (${migration.version}) after ${previous.name} (${previous.version})`);
  });
}
