import { dataClassKey, dataClassLabel } from '../../../shared/api/index.ts';
import type { Overview } from '../../../shared/ipc/index.ts';
import { countBreaches } from '../queries/localQueries.ts';
import type { ReadableDB } from '../db/Interface.ts';

/**
 * Exposure at a glance, over every breach (sensitive ones included: they are the person's own
 * exposure; only the list hides them by default). Counts are unresolved (email, data class)
 * pairs, so fixing one email's password in one breach moves a figure by one.
 */
export function overviewOf(db: ReadableDB): Overview {
  const counts = countBreaches(db, { includeSensitive: true });
  const byYear = db
    .prepare(`SELECT CAST(substr(breach_date, 1, 4) AS INTEGER) AS year, count(*) AS count FROM breaches GROUP BY year ORDER BY year`)
    .all() as { year: number; count: number }[];
  return {
    breaches: counts.breaches,
    unresolvedByDataClass: counts.byDataClass
      .filter((entry) => entry.unresolvedAccounts > 0)
      .map((entry) => ({ name: dataClassLabel(entry.dataClass), count: entry.unresolvedAccounts }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    unresolvedByEmail: counts.byEmail.map((entry) => ({ email: entry.email, count: entry.unresolvedDataClasses })),
    breachesByYear: byYear.filter((row) => Number.isInteger(row.year)),
  };
}

/** Unresolved (email, data class) pairs over every breach: the tray's number. */
export function unresolvedTotal(db: ReadableDB): number {
  return db.prepare('SELECT coalesce(sum(unresolved_count), 0) FROM breached_accounts').pluck().get() as number;
}

/** Domains of the local breaches, for the filter's suggestions. */
export function knownDomains(db: ReadableDB): string[] {
  return db.prepare(`SELECT DISTINCT domain FROM breaches WHERE domain <> '' ORDER BY domain_key`).pluck().all() as string[];
}

/** Data class names of the local breaches as shown (one per data class identity, {@link dataClassKey}). */
export function knownDataClasses(db: ReadableDB): string[] {
  const names = db.prepare(`SELECT DISTINCT value FROM breaches, json_each(breaches.data_classes) ORDER BY value`).pluck().all() as string[];
  const byKey = new Map<string, string>();
  for (const name of names) {
    const key = dataClassKey(name);
    const kept = byKey.get(key);
    // A display name the service sent wins over a slug (whose label is made up).
    if (key !== '' && (kept === undefined || (kept === key && name !== key))) byKey.set(key, name);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, name]) => dataClassLabel(name));
}
