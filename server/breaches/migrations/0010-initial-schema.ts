import type { Database } from 'better-sqlite3';

/**
 * The reference service's first schema. Breach ids in exposures and resolutions are not
 * foreign keys: replacing the catalog must keep a user's state even for a breach that a
 * catalog update dropped (it comes back if the breach does).
 */
export function updateToSchemaVersion10(db: Database): void {
  db.exec(`
    CREATE TABLE meta (
      key TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    ) STRICT;
    INSERT INTO meta (key, value) VALUES ('revision', 1), ('catalog_revision', 1);

    CREATE TABLE breaches (
      id TEXT PRIMARY KEY CHECK (id <> ''),
      domain TEXT NOT NULL,
      breach_date TEXT NOT NULL,
      added_date TEXT NOT NULL,
      modified_date TEXT NOT NULL CHECK (modified_date >= added_date),
      data_classes TEXT NOT NULL CHECK (json_valid(data_classes) AND json_type(data_classes) = 'array'),
      is_sensitive INTEGER NOT NULL CHECK (is_sensitive IN (0, 1))
    ) STRICT;

    CREATE TABLE accounts (
      sub TEXT PRIMARY KEY CHECK (sub <> ''),
      emails TEXT NOT NULL CHECK (json_valid(emails) AND json_type(emails) = 'array'),
      deleted INTEGER NOT NULL CHECK (deleted IN (0, 1))
    ) STRICT;

    CREATE TABLE users (
      sub TEXT PRIMARY KEY CHECK (sub <> ''),
      created_at TEXT NOT NULL
    ) STRICT;

    -- One row per email that has been looked up, so "found in no breach" differs from "never looked up".
    CREATE TABLE exposure_records (
      email TEXT PRIMARY KEY CHECK (email <> '' AND email = lower(email))
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE exposures (
      email TEXT NOT NULL REFERENCES exposure_records (email) ON DELETE CASCADE,
      breach_id TEXT NOT NULL,
      PRIMARY KEY (email, breach_id)
    ) STRICT, WITHOUT ROWID;

    -- The primary key doubles as the index of the per-request lookup by email.
    CREATE TABLE resolutions (
      email TEXT NOT NULL CHECK (email <> '' AND email = lower(email)),
      breach_id TEXT NOT NULL,
      data_class_key TEXT NOT NULL CHECK (data_class_key <> '' AND data_class_key = lower(data_class_key)),
      data_class TEXT NOT NULL,
      resolved_at TEXT NOT NULL,
      PRIMARY KEY (email, breach_id, data_class_key)
    ) STRICT, WITHOUT ROWID;
  `);
}
