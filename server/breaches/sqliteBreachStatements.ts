import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';

// The SQLite breach store's SQL, in one place: SqliteBreachStore.ts keeps what it does with it.

export const SELECT_RESOLUTIONS = `
  SELECT email, breach_id, data_class, resolved_at FROM resolutions
  WHERE email IN (SELECT value FROM json_each(?))
  ORDER BY email, breach_id, data_class_key`;

/**
 * One row per email with its ids as a JSON array: about three times faster than a row per
 * (email, breach) when an email is in thousands of breaches, and an email whose record is
 * empty comes back as `[]`. The ids arrive in primary-key order in practice, but SQLite does
 * not promise aggregate order, so the reader checks it.
 */
export const SELECT_EXPOSURES = `
  SELECT r.email, (SELECT json_group_array(e.breach_id) FROM exposures AS e WHERE e.email = r.email)
  FROM exposure_records AS r
  WHERE r.email IN (SELECT value FROM json_each(?))`;

/** The breach store's statements, prepared once per connection. */
export function prepareStatements(db: SqliteDatabase) {
  const pluck = (sql: string): Statement => db.prepare(sql).pluck();
  return {
    listBreaches: db.prepare('SELECT * FROM breaches ORDER BY id'),
    countBreaches: pluck('SELECT count(*) FROM breaches'),
    upsertBreach: db.prepare(`
      INSERT INTO breaches (id, domain, breach_date, added_date, modified_date, data_classes, is_sensitive)
      VALUES (@id, @domain, @breach_date, @added_date, @modified_date, @data_classes, @is_sensitive)
      ON CONFLICT (id) DO UPDATE SET
        domain = excluded.domain, breach_date = excluded.breach_date, added_date = excluded.added_date,
        modified_date = excluded.modified_date, data_classes = excluded.data_classes, is_sensitive = excluded.is_sensitive`),
    deleteAllBreaches: db.prepare('DELETE FROM breaches'),
    getAccount: db.prepare('SELECT emails, deleted FROM accounts WHERE sub = ?'),
    upsertAccount: db.prepare(`
      INSERT INTO accounts (sub, emails, deleted) VALUES (?, ?, ?)
      ON CONFLICT (sub) DO UPDATE SET emails = excluded.emails, deleted = excluded.deleted`),
    hasUser: pluck('SELECT 1 FROM users WHERE sub = ?'),
    insertUser: db.prepare('INSERT INTO users (sub, created_at) VALUES (?, ?) ON CONFLICT (sub) DO NOTHING'),
    selectExposures: db.prepare(SELECT_EXPOSURES).raw(),
    // A record takes the kind of its latest writer: a real lookup turns an invented record real.
    insertExposureRecord: db.prepare('INSERT INTO exposure_records (email, invented) VALUES (?, ?) ON CONFLICT (email) DO UPDATE SET invented = excluded.invented'),
    deleteExposureRecord: db.prepare('DELETE FROM exposure_records WHERE email = ?'),
    forgetCheck: db.prepare('UPDATE address_checks SET checked_at = NULL, breach_count = NULL, due_at = ? WHERE email = ? AND checked_at IS NOT NULL'),
    inventedRecords: db
      .prepare(
        `SELECT r.email, (SELECT json_group_array(e.breach_id) FROM exposures AS e WHERE e.email = r.email)
         FROM exposure_records AS r WHERE r.invented = 1 ORDER BY r.email`,
      )
      .raw(),
    deleteResolutionsOf: db.prepare('DELETE FROM resolutions WHERE email = ? AND breach_id IN (SELECT value FROM json_each(?))'),
    listRemovedBreaches: db.prepare('SELECT id, breach, removed_at FROM removed_breaches ORDER BY id').raw(),
    putRemovedBreach: db.prepare(`
      INSERT INTO removed_breaches (id, breach, removed_at) VALUES (?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET breach = excluded.breach, removed_at = excluded.removed_at`),
    deleteRemovedBreach: db.prepare('DELETE FROM removed_breaches WHERE id = ?'),
    loadedCatalog: db.prepare('SELECT origin, file FROM catalog_origin WHERE id = 1'),
    setLoadedCatalog: db.prepare('UPDATE catalog_origin SET origin = ?, file = ? WHERE id = 1'),
    // Per address exposed to a leaving breach: which ones, and how many resolutions they keep.
    exposedTo: db
      .prepare(
        `SELECT e.email, json_group_array(e.breach_id),
                (SELECT count(*) FROM resolutions AS r WHERE r.email = e.email AND r.breach_id IN (SELECT value FROM json_each(?)))
         FROM exposures AS e WHERE e.breach_id IN (SELECT value FROM json_each(?)) GROUP BY e.email ORDER BY e.email`,
      )
      .raw(),
    insertChange: db.prepare(`
      INSERT INTO catalog_changes (at, email, from_catalog, to_catalog, removed, invented_removed, resolutions_kept, resolutions_removed)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    selectChanges: db.prepare(
      `SELECT id, at, email, from_catalog, to_catalog, removed, invented_removed, resolutions_kept, resolutions_removed
       FROM catalog_changes WHERE email IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ),
    deleteExposures: db.prepare('DELETE FROM exposures WHERE email = ?'),
    isInvented: pluck('SELECT invented FROM exposure_records WHERE email = ?'),
    deleteExposuresKeepingRemoved: db.prepare('DELETE FROM exposures WHERE email = ? AND breach_id NOT IN (SELECT id FROM removed_breaches)'),
    insertExposure: db.prepare('INSERT INTO exposures (email, breach_id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    selectResolutions: db.prepare(SELECT_RESOLUTIONS).raw(),
    // On repetition the original resolved_at stays; only a respelled data class is refreshed.
    resolve: db.prepare(`
      INSERT INTO resolutions (email, breach_id, data_class_key, data_class, resolved_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (email, breach_id, data_class_key) DO UPDATE SET data_class = excluded.data_class
      WHERE data_class <> excluded.data_class`),
    unresolve: db.prepare('DELETE FROM resolutions WHERE email = ? AND breach_id = ? AND data_class_key = ?'),
    readRevision: pluck("SELECT value FROM meta WHERE key = 'revision'"),
    dataVersion: pluck('PRAGMA data_version'),
    readCatalogRevision: pluck("SELECT value FROM meta WHERE key = 'catalog_revision'"),
    bumpRevision: db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'revision'"),
    bumpCatalogRevision: db.prepare("UPDATE meta SET value = value + 1 WHERE key IN ('revision', 'catalog_revision')"),
  };
}

export type BreachStatements = ReturnType<typeof prepareStatements>;
