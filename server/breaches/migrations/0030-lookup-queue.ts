import type { Database } from 'better-sqlite3';

/**
 * The breach-data source's lookup queue and rate budget (see server/hibp): which monitored
 * addresses were checked when, which are due, the requests sent in the last minute, and the
 * source's shared state (its rate limit, a `retry-after` hold, a back-off, a problem). Times are
 * milliseconds since the epoch.
 */
export function updateToSchemaVersion30(db: Database): void {
  db.exec(`
    CREATE TABLE address_checks (
      email TEXT PRIMARY KEY CHECK (email <> '' AND email = lower(email)),
      domain TEXT NOT NULL,
      added_at INTEGER NOT NULL,
      seen_at INTEGER NOT NULL,
      checked_at INTEGER,
      due_at INTEGER,
      breach_count INTEGER CHECK (breach_count IS NULL OR breach_count >= 0),
      via_domain INTEGER NOT NULL CHECK (via_domain IN (0, 1)),
      problem TEXT,
      stealer_due_at INTEGER,
      stealer_checked_at INTEGER,
      stealer_domains TEXT CHECK (stealer_domains IS NULL OR (json_valid(stealer_domains) AND json_type(stealer_domains) = 'array')),
      lease_until INTEGER NOT NULL DEFAULT 0,
      lease_owner TEXT
    ) STRICT;
    CREATE INDEX address_checks_due ON address_checks (due_at) WHERE due_at IS NOT NULL;
    CREATE INDEX address_checks_stealer_due ON address_checks (stealer_due_at) WHERE stealer_due_at IS NOT NULL;
    CREATE INDEX address_checks_domain ON address_checks (domain);

    CREATE TABLE searched_domains (
      domain TEXT PRIMARY KEY CHECK (domain <> '' AND domain = lower(domain)),
      checked_at INTEGER,
      due_at INTEGER,
      problem TEXT,
      lease_until INTEGER NOT NULL DEFAULT 0,
      lease_owner TEXT
    ) STRICT;

    CREATE TABLE source_requests (sent_at INTEGER NOT NULL) STRICT;
    CREATE INDEX source_requests_sent_at ON source_requests (sent_at);

    CREATE TABLE source_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      rpm INTEGER CHECK (rpm IS NULL OR rpm >= 1),
      blocked_until INTEGER NOT NULL DEFAULT 0,
      backoff_until INTEGER NOT NULL DEFAULT 0,
      failures INTEGER NOT NULL DEFAULT 0,
      stealer_logs INTEGER NOT NULL DEFAULT 0 CHECK (stealer_logs IN (0, 1)),
      problem_code TEXT,
      problem_detail TEXT,
      in_flight_id TEXT,
      in_flight_until INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    INSERT INTO source_state (id) VALUES (1);
  `);
}
