import { dataClassKey, dataClassLabel } from '../../../shared/api/index.ts';
import { HIDE_SENSITIVE, type SensitivePolicy } from '../../../shared/api/index.ts';
import type { Overview } from '../../../shared/ipc/index.ts';
import { countBreaches, countMatches } from '../queries/localQueries.ts';
import type { ReadableDB } from '../db/Interface.ts';
import { accountCreditsHibp } from '../checks/hibpCredit.ts';
import { breachesPerYear, dataClassSpellings, distinctDomains, unresolvedPairs } from '../db/overviewQueries.ts';

/**
 * Exposure at a glance, over every breach the sensitive policy shows (shared/api/sensitive.ts:
 * sensitive ones only when the person opted in; otherwise only their number, to say they are
 * hidden). Counts are unresolved (email, data class) pairs, so fixing one email's password in
 * one breach moves a figure by one.
 */
export function overviewOf(db: ReadableDB, policy: SensitivePolicy = HIDE_SENSITIVE): Overview {
  const counts = countBreaches(db, { includeSensitive: policy.showSensitive });
  const byYear = breachesPerYear(db, policy.showSensitive);
  const all = countBreaches(db, { includeSensitive: true }).breaches;
  return {
    breaches: counts.breaches,
    sensitiveBreaches: all - countMatches(db, { includeSensitive: false }),
    ...(policy.showSensitive ? { sensitiveShown: true } : {}),
    includesHibp: all > 0 && accountCreditsHibp(db),
    unresolvedByDataClass: counts.byDataClass
      .filter((entry) => entry.unresolvedAccounts > 0)
      .map((entry) => ({ name: dataClassLabel(entry.dataClass), count: entry.unresolvedAccounts }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    unresolvedByEmail: counts.byEmail.map((entry) => ({ email: entry.email, count: entry.unresolvedDataClasses })),
    breachesByYear: byYear.filter((row): row is { year: number; count: number } => Number.isInteger(row.year)),
  };
}

/** Unresolved (email, data class) pairs over every breach the policy shows: the tray's number. */
export function unresolvedTotal(db: ReadableDB, policy: SensitivePolicy = HIDE_SENSITIVE): number {
  return unresolvedPairs(db, policy.showSensitive);
}

/** Domains of the local breaches, for the filter's suggestions. */
export function knownDomains(db: ReadableDB): string[] {
  return distinctDomains(db);
}

/** Data class names of the local breaches as shown (one per data class identity, {@link dataClassKey}). */
export function knownDataClasses(db: ReadableDB): string[] {
  // Binary order, so which of two display spellings is kept does not depend on SQLite's tie order.
  const names = [...dataClassSpellings(db)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const byKey = new Map<string, string>();
  for (const name of names) {
    const key = dataClassKey(name);
    const kept = byKey.get(key);
    // A display name the service sent wins over a slug (whose label is made up).
    if (key !== '' && (kept === undefined || (kept === key && name !== key))) byKey.set(key, name);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, name]) => dataClassLabel(name));
}
