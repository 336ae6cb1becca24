import type { Database } from 'better-sqlite3';

/**
 * Catalog changes keep people's history (issue 25):
 * - `removed_breaches`: the last known fields of a breach that left the catalog, so the people
 *   exposed to it still see it (marked removed) and keep its resolutions;
 * - `exposure_records.invented`: exposures the service made up (`--demo`, `/__dev/exposures`),
 *   which must never pass for real once the service runs on real data. Existing records are
 *   invented unless the lookup queue checked the address (it is the only writer of real ones);
 * - `catalog_changes`: per address, what a catalog change or the end of demo data did, for the app;
 * - `catalog_origin`: which catalog is loaded (demo, hibp, file), for the start line and the changes.
 */
export function updateToSchemaVersion40(db: Database): void {
  db.exec(`
    CREATE TABLE removed_breaches (
      id TEXT PRIMARY KEY CHECK (id <> ''),
      breach TEXT NOT NULL CHECK (json_valid(breach) AND json_type(breach) = 'object'),
      removed_at TEXT NOT NULL
    ) STRICT;

    ALTER TABLE exposure_records ADD COLUMN invented INTEGER NOT NULL DEFAULT 0 CHECK (invented IN (0, 1));
    UPDATE exposure_records SET invented = 1
      WHERE email NOT IN (SELECT email FROM address_checks WHERE checked_at IS NOT NULL);

    CREATE TABLE catalog_changes (
      id INTEGER PRIMARY KEY, -- rows are never deleted, so ids only grow (no AUTOINCREMENT needed)
      at TEXT NOT NULL,
      email TEXT NOT NULL CHECK (email <> '' AND email = lower(email)),
      from_catalog TEXT CHECK (from_catalog IN ('demo', 'hibp', 'file')),
      to_catalog TEXT NOT NULL CHECK (to_catalog IN ('demo', 'hibp', 'file')),
      removed TEXT NOT NULL CHECK (json_valid(removed) AND json_type(removed) = 'array'),
      invented_removed TEXT NOT NULL CHECK (json_valid(invented_removed) AND json_type(invented_removed) = 'array'),
      resolutions_kept INTEGER NOT NULL CHECK (resolutions_kept >= 0),
      resolutions_removed INTEGER NOT NULL CHECK (resolutions_removed >= 0)
    ) STRICT;
    CREATE INDEX catalog_changes_email ON catalog_changes (email, id);

    CREATE TABLE catalog_origin (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      origin TEXT CHECK (origin IN ('demo', 'hibp', 'file')),
      file TEXT
    ) STRICT;
    INSERT INTO catalog_origin (id, origin, file) VALUES (1, NULL, NULL);
  `);
}
