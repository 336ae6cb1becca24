import type { Database } from 'better-sqlite3';

/**
 * A person's addresses (issue 34, `/user/emails`):
 * - `person_emails`: each address a person added, whether and how it was proven theirs, and the
 *   last verification code sent to it (hashed), its expiry and how often it was entered;
 * - `verification_sends`: when codes were sent, kept when an address is removed so that removing
 *   and adding it again does not reset the send limits (pruned past the window).
 * Times are milliseconds since the epoch.
 */
export function updateToSchemaVersion50(db: Database): void {
  db.exec(`
    CREATE TABLE person_emails (
      sub TEXT NOT NULL CHECK (sub <> ''),
      email TEXT NOT NULL CHECK (email <> '' AND email = lower(email)),
      added_at INTEGER NOT NULL,
      verified_at INTEGER,
      verified_by TEXT CHECK (verified_by IN ('code', 'operator')),
      code_hash TEXT,
      code_expires_at INTEGER,
      code_attempts INTEGER NOT NULL DEFAULT 0 CHECK (code_attempts >= 0),
      PRIMARY KEY (sub, email),
      CHECK ((verified_at IS NULL) = (verified_by IS NULL))
    ) STRICT;
    CREATE INDEX person_emails_email ON person_emails (email);

    CREATE TABLE verification_sends (
      id INTEGER PRIMARY KEY,
      sub TEXT NOT NULL,
      email TEXT NOT NULL,
      sent_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX verification_sends_sub ON verification_sends (sub, sent_at);
    CREATE INDEX verification_sends_email ON verification_sends (email, sent_at);
  `);
}
