import type { Database } from 'better-sqlite3';

/**
 * What the service says about its exposures (one row per account database): its source from the
 * `breach-data` header (`hibp`, `demo`, `none`; NULL while it never said), how many addresses it
 * has not checked yet (`breach-checks-pending`), and its `GET /user/checks` answer as validated
 * JSON (NULL while unknown). `listed_json`: the checked addresses whose breaches the local list
 * already held when the checks were read (a JSON array of email keys), so a breach arriving
 * later for any other address is what its first check found, not news. `demo_cleared_at`
 * records when invented exposures were removed because the source became real, so the app can
 * say so.
 */
export function updateToSchemaVersion50(db: Database): void {
  db.exec(`
    CREATE TABLE breach_data (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      source TEXT CHECK (source IN ('hibp', 'demo', 'none')),
      pending INTEGER CHECK (pending >= 0),
      checks_json TEXT,
      checks_served TEXT NOT NULL DEFAULT 'unknown' CHECK (checks_served IN ('yes', 'no', 'unknown')),
      listed_json TEXT,
      updated_at TEXT,
      demo_cleared_at TEXT
    ) STRICT;
    INSERT INTO breach_data (id) VALUES (1);
  `);
}
