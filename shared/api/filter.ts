import type { Breach, UserBreach } from './breach.ts';
import { dataClassKey } from './primitives.ts';
import type { BreachQuery } from './query.ts';

/**
 * The filter semantics of `GET /user/breaches` (CONTRACT.md), as one pure function so the
 * reference service and the client's local store can be checked against the same cases:
 * filters combine with AND; `dataClasses` and `unresolvedDataClasses` match ANY value;
 * names compare case-insensitively; `domain` is an exact, case-insensitive match (host
 * names have no case); sensitive breaches only with `includeSensitive`.
 */
export function matchesBreachQuery(item: UserBreach, query: BreachQuery): boolean {
  const { breach } = item;
  if (breach.isSensitive && !query.includeSensitive) return false;
  if (query.domain !== undefined && breach.domain.toLowerCase() !== query.domain.toLowerCase()) return false;
  if (query.dataClasses && query.dataClasses.length > 0) {
    const wanted = new Set(query.dataClasses.map(dataClassKey));
    if (!breach.dataClasses.some((name) => wanted.has(dataClassKey(name)))) return false;
  }
  if (query.unresolvedDataClasses && query.unresolvedDataClasses.length > 0) {
    const wanted = new Set(query.unresolvedDataClasses.map(dataClassKey));
    const exposed = breach.dataClasses.filter((name) => wanted.has(dataClassKey(name)));
    const anyUnresolved = item.breachedAccounts.some((account) => {
      const resolved = new Set(Object.keys(account.resolvedDataClasses).map(dataClassKey));
      return exposed.some((name) => !resolved.has(dataClassKey(name)));
    });
    if (!anyUnresolved) return false;
  }
  return true;
}

/** Contract order: `breachDate` descending, then `addedDate` descending, then `id` ascending. */
export function compareBreaches(a: Breach, b: Breach): number {
  if (a.breachDate !== b.breachDate) return a.breachDate < b.breachDate ? 1 : -1;
  const addedA = Date.parse(a.addedDate);
  const addedB = Date.parse(b.addedDate);
  if (addedA !== addedB) return addedB - addedA;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
