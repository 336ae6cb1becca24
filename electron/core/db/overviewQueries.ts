import { statement, type ReadableDB } from './Interface.ts';

/** Breaches per year of `breach_date` (rows whose date does not start with a year come back with a non-integer year). */
export function breachesPerYear(db: ReadableDB, includeSensitive = true): { year: unknown; count: number }[] {
  const where = includeSensitive ? '' : ' WHERE is_sensitive = 0';
  return statement(db, `SELECT CAST(substr(breach_date, 1, 4) AS INTEGER) AS year, count(*) AS count FROM breaches${where} GROUP BY year ORDER BY year`).all() as { year: unknown; count: number }[];
}

/** Unresolved (email, data class) pairs over every breach. */
export function unresolvedPairs(db: ReadableDB, includeSensitive = true): number {
  if (includeSensitive) return statement(db, 'SELECT coalesce(sum(unresolved_count), 0) FROM breached_accounts').pluck().get() as number;
  return statement(db, 'SELECT coalesce(sum(a.unresolved_count), 0) FROM breached_accounts AS a JOIN breaches AS b ON b.key = a.breach_key WHERE b.is_sensitive = 0').pluck().get() as number;
}

/** Distinct non-empty domains, in the order of their keys. */
export function distinctDomains(db: ReadableDB): string[] {
  return statement(db, `SELECT DISTINCT domain FROM breaches WHERE domain <> '' ORDER BY domain_key`).pluck().all() as string[];
}

/** Every data class name as the breaches spell it, case-insensitively ordered (spellings may repeat). */
export function dataClassSpellings(db: ReadableDB): string[] {
  return statement(db, 'SELECT DISTINCT value FROM breaches, json_each(breaches.data_classes) ORDER BY lower(value)').pluck().all() as string[];
}
