import type { Database } from 'better-sqlite3';

/**
 * Outbox rows may be `local`: an intent the account's service cannot take (the newer Monitor
 * contract resolves only passwords and email addresses, and never unresolves), kept on this
 * machine and shown as such instead of being sent and failing. SQLite cannot change a CHECK
 * constraint in place, so the table is rebuilt with the same columns, ids and index.
 */
export function updateToSchemaVersion30(db: Database): void {
  db.exec(`
    CREATE TABLE outbox_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL CHECK (email <> '' AND email = lower(email)),
      breach_id TEXT NOT NULL,
      class_key TEXT NOT NULL,
      data_class TEXT NOT NULL,
      resolved INTEGER NOT NULL CHECK (resolved IN (0, 1)),
      version INTEGER NOT NULL,
      sent_version INTEGER,
      state TEXT NOT NULL CHECK (state IN ('pending', 'failed', 'local')),
      attempts INTEGER NOT NULL DEFAULT 0,
      failure_status INTEGER,
      failure_reason TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (breach_id, email, class_key),
      CHECK ((state = 'failed') = (failure_reason IS NOT NULL))
    ) STRICT;
    INSERT INTO outbox_new SELECT id, email, breach_id, class_key, data_class, resolved, version, sent_version, state, attempts, failure_status, failure_reason, created_at, updated_at FROM outbox;
    DROP TABLE outbox;
    ALTER TABLE outbox_new RENAME TO outbox;
    CREATE INDEX outbox_by_state ON outbox (state, id);
  `);
}
