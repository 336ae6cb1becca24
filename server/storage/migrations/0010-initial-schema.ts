/**
 * The breach store as SQLite's version 20 has it (data classes keyed by their slug).
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const initialSchemaSql = `
      CREATE TABLE meta (key text PRIMARY KEY, value bigint NOT NULL);
      INSERT INTO meta (key, value) VALUES ('revision', 1), ('catalog_revision', 1);

      CREATE TABLE breaches (
        id text PRIMARY KEY CHECK (id <> ''),
        domain text NOT NULL,
        breach_date text NOT NULL,
        added_date text NOT NULL,
        modified_date text NOT NULL CHECK (modified_date >= added_date),
        data_classes jsonb NOT NULL CHECK (jsonb_typeof(data_classes) = 'array'),
        is_sensitive boolean NOT NULL
      );

      CREATE TABLE accounts (
        sub text PRIMARY KEY CHECK (sub <> ''),
        emails jsonb NOT NULL CHECK (jsonb_typeof(emails) = 'array'),
        deleted boolean NOT NULL
      );

      CREATE TABLE users (sub text PRIMARY KEY CHECK (sub <> ''), created_at text NOT NULL);

      -- One row per email that has been looked up, so "found in no breach" differs from "never looked up".
      CREATE TABLE exposure_records (email text PRIMARY KEY CHECK (email <> '' AND email = lower(email)));

      CREATE TABLE exposures (
        email text NOT NULL REFERENCES exposure_records (email) ON DELETE CASCADE,
        breach_id text NOT NULL,
        PRIMARY KEY (email, breach_id)
      );

      -- The primary key doubles as the index of the per-request lookup by email.
      CREATE TABLE resolutions (
        email text NOT NULL CHECK (email <> '' AND email = lower(email)),
        breach_id text NOT NULL,
        data_class_key text NOT NULL CHECK (data_class_key <> '' AND data_class_key = lower(data_class_key)),
        data_class text NOT NULL,
        resolved_at text NOT NULL,
        PRIMARY KEY (email, breach_id, data_class_key)
      );
    `;
