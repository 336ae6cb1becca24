import type { LoginExportFormat, LoginImportRecord } from '../../../shared/ipc/logins.ts';
import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/** A login as stored: never a password, only its keyed hash (which never leaves the core either). */
export interface StoredLogin {
  id: number;
  site: string | null;
  url: string | null;
  title: string | null;
  username: string;
  /** The keyed hash in hexadecimal (in memory only: the database keeps its 32 bytes). */
  passwordHash: string;
  passwordChangedAt: string | null;
  /** Null while unchecked. */
  pwnedCount: number | null;
  resolvedAt: string | null;
}

/** A catalog breach at a login's site, as recorded when it was first matched. */
export interface StoredLoginBreach {
  loginId: number;
  breachId: string;
  title: string;
  breachDate: string;
}

/** A login of an export, ready to keep: its site and address already reduced, its password already hashed. */
export interface LoginToKeep {
  site: string | null;
  url: string | null;
  title: string | null;
  username: string;
  passwordHash: string;
  passwordChangedAt: string | null;
}

/** What one import writes, decided before the transaction (logins/planImport.ts). */
export interface ImportWrite {
  format: LoginExportFormat;
  /** The mark of the key the hashes were made with (LoginHashKey.ts). */
  keyCheck: string;
  importedAt: string;
  skipped: number;
  /** New logins, each with the breaches at its site. */
  added: { login: LoginToKeep; breaches: Omit<StoredLoginBreach, 'loginId'>[] }[];
  /** Logins already kept with the same site, username and password: their address, title and date follow the export. */
  unchanged: { id: number; login: LoginToKeep; breaches: Omit<StoredLoginBreach, 'loginId'>[] }[];
  /** Logins already kept whose password is another now: the new hash replaces the old, the old findings are resolved. */
  changed: { id: number; login: LoginToKeep; breaches: Omit<StoredLoginBreach, 'loginId'>[] }[];
  /** Logins already kept under another key (lost since): the new hash replaces the old, nothing is resolved (whether the password changed cannot be told). */
  rehashed: { id: number; login: LoginToKeep; breaches: Omit<StoredLoginBreach, 'loginId'>[] }[];
}

interface LoginRow {
  id: number;
  site: string | null;
  url: string | null;
  title: string | null;
  username: string;
  password_hash: Buffer;
  password_changed_at: string | null;
  pwned_count: number | null;
  resolved_at: string | null;
}

/** A keyed hash as the database keeps it: its 32 bytes. */
function hashBytes(hex: string): Buffer {
  return Buffer.from(hex, 'hex');
}

const LOGIN_COLUMNS = 'id, site, url, title, username, password_hash, password_changed_at, pwned_count, resolved_at';

function loginOf(row: LoginRow): StoredLogin {
  return {
    id: row.id,
    site: row.site,
    url: row.url,
    title: row.title,
    username: row.username,
    passwordHash: row.password_hash.toString('hex'),
    passwordChangedAt: row.password_changed_at,
    pwnedCount: row.pwned_count,
    resolvedAt: row.resolved_at,
  };
}

/** Every kept login, by site then username (logins without a site last). */
export function listLogins(db: ReadableDB): StoredLogin[] {
  return (statement(db, `SELECT ${LOGIN_COLUMNS} FROM logins ORDER BY site IS NULL, site, username, id`).all() as LoginRow[]).map(loginOf);
}

/** Every recorded breach of every login. */
export function listLoginBreaches(db: ReadableDB): StoredLoginBreach[] {
  return statement(db, 'SELECT login_id AS loginId, breach_id AS breachId, title, breach_date AS breachDate FROM login_breaches ORDER BY breach_date DESC, breach_id').all() as StoredLoginBreach[];
}

/** Imports so far, newest first. */
export function listLoginImports(db: ReadableDB): LoginImportRecord[] {
  return statement(db, 'SELECT format, imported_at AS importedAt, logins, skipped FROM login_imports ORDER BY id DESC').all() as LoginImportRecord[];
}

/**
 * Writes one import whole, in one transaction: the import's row, the new logins with their
 * breaches, the unchanged ones' details, the changed ones' new hash (their findings resolved at
 * `importedAt`, their Pwned count unknown again). A throw anywhere leaves nothing of it.
 */
export function saveImport(db: WritableDB, write: ImportWrite): void {
  db.transaction(() => {
    const importId = Number(
      statement(db, 'INSERT INTO login_imports (format, imported_at, logins, skipped, key_check) VALUES (?, ?, ?, ?, ?)').run(
        write.format,
        write.importedAt,
        write.added.length + write.unchanged.length + write.changed.length + write.rehashed.length,
        write.skipped,
        hashBytes(write.keyCheck),
      ).lastInsertRowid,
    );
    const insert = statement(db, 'INSERT INTO logins (import_id, site, url, title, username, password_hash, password_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertBreach = statement(db, 'INSERT OR IGNORE INTO login_breaches (login_id, breach_id, title, breach_date, matched_at) VALUES (?, ?, ?, ?, ?)');
    for (const { login, breaches } of write.added) {
      const id = Number(insert.run(importId, login.site, login.url, login.title, login.username, hashBytes(login.passwordHash), login.passwordChangedAt).lastInsertRowid);
      for (const breach of breaches) insertBreach.run(id, breach.breachId, breach.title, breach.breachDate, write.importedAt);
    }
    const touch = statement(db, 'UPDATE logins SET import_id = ?, url = ?, title = ?, password_changed_at = coalesce(?, password_changed_at) WHERE id = ?');
    for (const { id, login, breaches } of write.unchanged) {
      touch.run(importId, login.url, login.title, login.passwordChangedAt, id);
      for (const breach of breaches) insertBreach.run(id, breach.breachId, breach.title, breach.breachDate, write.importedAt);
    }
    const change = statement(db, 'UPDATE logins SET import_id = ?, url = ?, title = ?, password_hash = ?, password_changed_at = ?, pwned_count = NULL, resolved_at = ? WHERE id = ?');
    for (const { id, login, breaches } of write.changed) {
      change.run(importId, login.url, login.title, hashBytes(login.passwordHash), login.passwordChangedAt, write.importedAt, id);
      for (const breach of breaches) insertBreach.run(id, breach.breachId, breach.title, breach.breachDate, write.importedAt);
    }
    const rehash = statement(db, 'UPDATE logins SET import_id = ?, url = ?, title = ?, password_hash = ?, password_changed_at = ?, pwned_count = NULL WHERE id = ?');
    for (const { id, login, breaches } of write.rehashed) {
      rehash.run(importId, login.url, login.title, hashBytes(login.passwordHash), login.passwordChangedAt, id);
      for (const breach of breaches) insertBreach.run(id, breach.breachId, breach.title, breach.breachDate, write.importedAt);
    }
  })();
}

/** The mark of the key the last import's hashes were made with; undefined before any import. */
export function lastKeyCheck(db: ReadableDB): string | undefined {
  const mark = statement(db, 'SELECT key_check FROM login_imports ORDER BY id DESC LIMIT 1').pluck().get() as Buffer | undefined;
  return mark?.toString('hex');
}

/**
 * Records breaches matched to logins after the import (a sync that brought the catalog new
 * ones). Returns only those not recorded before: what is news to the person.
 */
export function recordLoginBreaches(db: WritableDB, breaches: readonly StoredLoginBreach[], now: string): StoredLoginBreach[] {
  const insert = statement(db, 'INSERT OR IGNORE INTO login_breaches (login_id, breach_id, title, breach_date, matched_at) VALUES (?, ?, ?, ?, ?)');
  return db.transaction(() => breaches.filter((breach) => insert.run(breach.loginId, breach.breachId, breach.title, breach.breachDate, now).changes > 0))();
}

/** The Pwned Passwords counts of the logins with these keyed hashes (0: not found). */
export function recordPwnedCounts(db: WritableDB, counts: ReadonlyMap<string, number>): void {
  const update = statement(db, 'UPDATE logins SET pwned_count = ? WHERE password_hash = ?');
  db.transaction(() => {
    for (const [hash, count] of counts) update.run(count, hashBytes(hash));
  })();
}

/** Marks a login's findings dealt with (or open again); false when there is no such login. */
export function resolveLogin(db: WritableDB, id: number, resolvedAt: string | null): boolean {
  return statement(db, 'UPDATE logins SET resolved_at = ? WHERE id = ?').run(resolvedAt, id).changes > 0;
}

/** Forgets every login, their breaches and the imports, in one transaction. */
export function forgetLogins(db: WritableDB): void {
  db.transaction(() => {
    statement(db, 'DELETE FROM login_breaches').run();
    statement(db, 'DELETE FROM logins').run();
    statement(db, 'DELETE FROM login_imports').run();
  })();
}

/** The breaches of the account's own addresses that name a site (they are catalog breaches too, and the details feed may not have them yet). */
export function addressBreachSites(db: ReadableDB): { breachId: string; domain: string; breachDate: string; addedDate: string }[] {
  return statement(db, "SELECT id AS breachId, domain, breach_date AS breachDate, added_date AS addedDate FROM breaches WHERE domain <> ''").all() as {
    breachId: string;
    domain: string;
    breachDate: string;
    addedDate: string;
  }[];
}
