import type { Overview } from '../../../shared/ipc/index.ts';
import { countBreaches } from '../queries/localQueries.ts';
import type { ReadableDB } from '../db/Interface.ts';
import { breachesPerYear, dataClassSpellings, distinctDomains, unresolvedPairs } from '../db/overviewQueries.ts';

/**
 * Exposure at a glance, over every breach (sensitive ones included: they are the person's own
 * exposure; only the list hides them by default). Counts are unresolved (email, data class)
 * pairs, so fixing one email's password in one breach moves a figure by one.
 */
export function overviewOf(db: ReadableDB): Overview {
  const counts = countBreaches(db, { includeSensitive: true });
  const byYear = breachesPerYear(db);
  return {
    breaches: counts.breaches,
    unresolvedByDataClass: counts.byDataClass
      .filter((entry) => entry.unresolvedAccounts > 0)
      .map((entry) => ({ name: entry.dataClass, count: entry.unresolvedAccounts }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    unresolvedByEmail: counts.byEmail.map((entry) => ({ email: entry.email, count: entry.unresolvedDataClasses })),
    breachesByYear: byYear.filter((row): row is { year: number; count: number } => Number.isInteger(row.year)),
  };
}

/** Unresolved (email, data class) pairs over every breach: the tray's number. */
export function unresolvedTotal(db: ReadableDB): number {
  return unresolvedPairs(db);
}

/** Domains of the local breaches, for the filter's suggestions. */
export function knownDomains(db: ReadableDB): string[] {
  return distinctDomains(db);
}

/** Data class names of the local breaches (one spelling per case-insensitive name). */
export function knownDataClasses(db: ReadableDB): string[] {
  const names = dataClassSpellings(db);
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
