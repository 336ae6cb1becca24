import type { Database, Statement } from 'better-sqlite3';

declare const readableBrand: unique symbol;
declare const writableBrand: unique symbol;

/**
 * An account database handle that may only be read. Query modules take the narrowest brand
 * they need, so a read path cannot start writing by accident (Signal's ReadableDB/WritableDB).
 */
export type ReadableDB = Database & { readonly [readableBrand]: true };
/** An account database handle that may be written; also readable. */
export type WritableDB = ReadableDB & { readonly [writableBrand]: true };

const cache = new WeakMap<Database, Map<string, Statement>>();

/**
 * The prepared statement for `sql` on this connection, compiled once. Query modules call this
 * with constant SQL, so the cache holds one entry per statement of the app.
 */
export function statement(db: ReadableDB, sql: string): Statement {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let prepared = statements.get(sql);
  if (!prepared) statements.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

/**
 * For SQL built from a query's shape (how many values a filter lists): bounded, so a stream of
 * odd queries cannot grow the cache without limit.
 */
export function dynamicStatement(db: ReadableDB, sql: string, limit = 256): Statement {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  const prepared = statements.get(sql);
  if (prepared) return prepared;
  if (statements.size >= limit) {
    const oldest = statements.keys().next().value;
    if (oldest !== undefined) statements.delete(oldest);
  }
  const fresh = db.prepare(sql);
  statements.set(sql, fresh);
  return fresh;
}

/**
 * Runs `write` (one transaction) with `synchronous = NORMAL` instead of the connection's FULL:
 * for writes that can be redone from the service if a power cut takes them (a snapshot, the
 * settling of delivered intents). With WAL, NORMAL skips the fsync of this commit only; the
 * next FULL commit syncs the log up to and including it, and a lost commit rolls back whole.
 */
export function relaxedDurability<T>(db: WritableDB, write: () => T): T {
  // Prepared once per connection (`db.pragma` compiles its statement on every call).
  statement(db, 'PRAGMA synchronous = NORMAL').run();
  try {
    return write();
  } finally {
    statement(db, 'PRAGMA synchronous = FULL').run();
  }
}
