/**
 * Catalog changes keep people's history: see SQLite's migration 40 for each table's reason.
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const catalogHistorySql = `
      CREATE TABLE removed_breaches (
        id text PRIMARY KEY CHECK (id <> ''),
        breach jsonb NOT NULL CHECK (jsonb_typeof(breach) = 'object'),
        removed_at text NOT NULL
      );

      ALTER TABLE exposure_records ADD COLUMN invented boolean NOT NULL DEFAULT false;
      UPDATE exposure_records SET invented = true
        WHERE email NOT IN (SELECT email FROM address_checks WHERE checked_at IS NOT NULL);

      CREATE TABLE catalog_changes (
        id bigserial PRIMARY KEY,
        at text NOT NULL,
        email text NOT NULL CHECK (email <> '' AND email = lower(email)),
        from_catalog text CHECK (from_catalog IN ('demo', 'hibp', 'file')),
        to_catalog text NOT NULL CHECK (to_catalog IN ('demo', 'hibp', 'file')),
        removed jsonb NOT NULL CHECK (jsonb_typeof(removed) = 'array'),
        invented_removed jsonb NOT NULL CHECK (jsonb_typeof(invented_removed) = 'array'),
        resolutions_kept integer NOT NULL CHECK (resolutions_kept >= 0),
        resolutions_removed integer NOT NULL CHECK (resolutions_removed >= 0)
      );
      CREATE INDEX catalog_changes_email ON catalog_changes (email, id);

      CREATE TABLE catalog_origin (
        id integer PRIMARY KEY CHECK (id = 1),
        origin text CHECK (origin IN ('demo', 'hibp', 'file')),
        file text
      );
      INSERT INTO catalog_origin (id, origin, file) VALUES (1, NULL, NULL);
    `;
