import type { Database } from 'better-sqlite3';

/**
 * The person's accounts at sites, read from password-manager exports (issue 38; docs/logins.md).
 * Nothing about a password is kept but `password_hash`: an HMAC-SHA-256 under a random key held
 * in the OS keychain (logins/LoginHashKey.ts), so equal passwords can be found (reuse, re-import)
 * and a copy of this file tells nothing without the key. No SHA-1, no prefix, no unkeyed hash.
 *
 * It is kept as 32 bytes, not as text: no hexadecimal string of a password's hash is in the file.
 *
 * `login_imports`: one row per finished import (a cancelled one writes nothing at all), with the
 * mark of the key its hashes were made with (`key_check`, an HMAC of a fixed text under it).
 * `logins`: site is the registrable domain of the login's http(s) address (NULL without one); url
 * is that address without query, fragment or credentials; pwned_count NULL while unchecked.
 * `login_breaches`: the catalog breaches at each login's site, recorded when first matched, so a
 * breach the catalog gains later is told apart (and notified) from those already seen.
 */
export function updateToSchemaVersion80(db: Database): void {
  db.exec(`
    CREATE TABLE login_imports (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      format TEXT NOT NULL CHECK (format <> ''),
      imported_at TEXT NOT NULL,
      logins INTEGER NOT NULL CHECK (logins >= 0),
      skipped INTEGER NOT NULL CHECK (skipped >= 0),
      key_check BLOB NOT NULL CHECK (typeof(key_check) = 'blob' AND length(key_check) = 32)
    ) STRICT;

    CREATE TABLE logins (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      import_id INTEGER NOT NULL REFERENCES login_imports (id),
      site TEXT CHECK (site IS NULL OR site <> ''),
      url TEXT,
      title TEXT,
      username TEXT NOT NULL,
      password_hash BLOB NOT NULL CHECK (typeof(password_hash) = 'blob' AND length(password_hash) = 32),
      password_changed_at TEXT,
      pwned_count INTEGER CHECK (pwned_count IS NULL OR pwned_count >= 0),
      resolved_at TEXT
    ) STRICT;
    CREATE INDEX logins_by_account ON logins (site, username);
    CREATE INDEX logins_by_hash ON logins (password_hash);

    CREATE TABLE login_breaches (
      login_id INTEGER NOT NULL REFERENCES logins (id),
      breach_id TEXT NOT NULL CHECK (breach_id <> ''),
      title TEXT NOT NULL,
      breach_date TEXT NOT NULL,
      matched_at TEXT NOT NULL,
      PRIMARY KEY (login_id, breach_id)
    ) STRICT, WITHOUT ROWID;
  `);
}
