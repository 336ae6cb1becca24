import type pg from 'pg';

/** How many catalog revisions the log names: a reader further behind reads the whole catalog. */
export const KEPT_CATALOG_LOG = 1000;

/**
 * After the catalog revision moved (in the same transaction): what the new revision wrote ($1:
 * the breach ids, or NULL when anything may have changed), and the log kept short.
 */
export const LOG_CATALOG = `WITH now AS (SELECT value AS revision FROM meta WHERE key = 'catalog_revision'),
                               logged AS (INSERT INTO catalog_log (revision, breach_ids) SELECT revision, $1::text[] FROM now)
                          DELETE FROM catalog_log WHERE revision <= (SELECT revision FROM now) - ${KEPT_CATALOG_LOG}`;

interface LogRow {
  current: string;
  log: { revision: number; ids: string[] | null }[] | null;
}

/**
 * Ids of the breaches written since catalog revision `revision`, oldest first, whichever instance
 * wrote them (`catalog_log`, migration 80), or undefined when the log cannot say: a
 * whole-catalog replacement in between, or a revision older than the log keeps.
 */
export async function catalogChangesSince(db: pg.ClientBase | pg.Pool, revision: number): Promise<readonly string[] | undefined> {
  const { rows } = await db.query<LogRow>({
    name: 'catalog-changes-since',
    text: `SELECT (SELECT value FROM meta WHERE key = 'catalog_revision')::text AS current,
                  (SELECT json_agg(json_build_object('revision', revision, 'ids', breach_ids) ORDER BY revision) FROM catalog_log WHERE revision > $1) AS log`,
    values: [revision],
  });
  const current = Number(rows[0]!.current);
  const log = rows[0]!.log ?? [];
  if (current === revision) return [];
  // Every revision in between must be there, and name its breaches.
  if (current < revision || log.length !== current - revision || log.some((entry, i) => entry.revision !== revision + 1 + i || entry.ids === null)) return undefined;
  return log.flatMap((entry) => entry.ids!);
}
