import type { Database } from 'better-sqlite3';

/**
 * The person's addresses as the service last listed them (`GET /user/emails`), one row per
 * account database: the validated answer as JSON (NULL while unknown), whether the service serves
 * the list at all (`no` after a 404: an older or another party's service), how it proves an added
 * address (its `email-verification` header: `code`, `operator`, `unavailable`), when it last answered,
 * and why the last refresh failed (NULL when it did not), so the list still shows offline and says
 * how old it is.
 */
export function updateToSchemaVersion70(db: Database): void {
  db.exec(`
    CREATE TABLE user_emails (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      emails_json TEXT,
      served TEXT NOT NULL DEFAULT 'unknown' CHECK (served IN ('yes', 'no', 'unknown')),
      verification TEXT CHECK (verification IN ('code', 'operator', 'unavailable')),
      updated_at TEXT,
      error TEXT
    ) STRICT;
    INSERT INTO user_emails (id) VALUES (1);
  `);
}
