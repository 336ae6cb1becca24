import type { Database } from 'better-sqlite3';

/**
 * The account database's first schema.
 *
 * Server state (`breaches`, `breached_accounts`) is a copy of the last snapshot, rewritten
 * whole on every pull. The person's changes live only in `outbox`, so a pull can
 * never overwrite them; what the person sees is the server state overlaid with the outbox.
 * The `*_codes` and `unresolved_*` columns are that overlay, denormalized and maintained on
 * every write, so filters never have to compute it: class sets are stored as `,3,17,` strings of
 * dictionary codes, which `instr` can test exactly (a code cannot be a substring of another
 * when both are comma-delimited). Indexes are only those the keys need: with a few thousand
 * breaches a scan is well under a millisecond, and each index would slow every full sync.
 */
export function updateToSchemaVersion10(db: Database): void {
  db.exec(`
    CREATE TABLE schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT;

    -- name: the spelling of the breach that introduced the key, for counts per data class.
    CREATE TABLE data_class_codes (
      code INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE CHECK (key <> ''),
      name TEXT NOT NULL
    ) STRICT;

    -- key: this snapshot's row key, what accounts refer to; every pull renumbers.
    CREATE TABLE breaches (
      key INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE CHECK (id <> ''),
      domain TEXT NOT NULL,
      domain_key TEXT NOT NULL,
      breach_date TEXT NOT NULL,
      added_date TEXT NOT NULL,
      added_at INTEGER NOT NULL,
      modified_date TEXT NOT NULL,
      data_classes TEXT NOT NULL,
      class_codes TEXT NOT NULL,
      is_sensitive INTEGER NOT NULL CHECK (is_sensitive IN (0, 1)),
      unresolved_codes TEXT NOT NULL,
      unresolved_count INTEGER NOT NULL
    ) STRICT;

    -- One row per (breach, email) of the snapshot. resolved_codes: what the service last
    -- confirmed resolved (a snapshot, or a 2xx since); resolved_at: their times as JSON
    -- {"code": "date-time"}, null when the service gave none. The rest is the overlay.
    CREATE TABLE breached_accounts (
      breach_key INTEGER NOT NULL,
      email TEXT NOT NULL CHECK (email <> '' AND email = lower(email)),
      resolved_codes TEXT NOT NULL,
      resolved_at TEXT,
      unresolved_codes TEXT NOT NULL,
      unresolved_count INTEGER NOT NULL,
      PRIMARY KEY (breach_key, email)
    ) STRICT, WITHOUT ROWID;

    -- The person's last intent per (email, data class, breach). version moves on every new
    -- intent; sent_version is the intent on the wire (null when none), so an answer for an older
    -- intent never clears a newer one. Ids are never reused: the UI retries and discards by id.
    CREATE TABLE outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL CHECK (email <> '' AND email = lower(email)),
      breach_id TEXT NOT NULL,
      class_key TEXT NOT NULL,
      data_class TEXT NOT NULL,
      resolved INTEGER NOT NULL CHECK (resolved IN (0, 1)),
      version INTEGER NOT NULL,
      sent_version INTEGER,
      state TEXT NOT NULL CHECK (state IN ('pending', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      failure_status INTEGER,
      failure_reason TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (breach_id, email, class_key),
      CHECK ((state = 'failed') = (failure_reason IS NOT NULL))
    ) STRICT;
    CREATE INDEX outbox_by_state ON outbox (state, id);

    -- Breaches that were in an earlier snapshot and left: with the breaches table, every breach
    -- ever seen, so one that comes back is not "new" again. Kept apart so a full sync writes nothing here.
    CREATE TABLE gone_breaches (
      id TEXT PRIMARY KEY,
      gone_at TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE sync_state (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL CHECK (json_valid(value))
    ) STRICT, WITHOUT ROWID;
  `);
}
