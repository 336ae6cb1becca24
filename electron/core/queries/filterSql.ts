import { dataClassKey, emailKey } from '../../../shared/api/index.ts';
import type { LocalBreachQuery } from '../../../shared/api/localQuery.ts';
import { codeNeedle } from '../db/codeLists.ts';
import { dataClassNamesByCode, lookupDataClassCodes } from '../db/dataClassCodes.ts';
import { understandListText } from '../../../shared/search/listText.ts';
import type { ReadableDB } from '../db/Interface.ts';

/** The FROM … WHERE of a local query, with its parameters in order. */
export interface FilterSql {
  /** `breaches b`, joined to the email's `breached_accounts a` in the per-email view. */
  from: string;
  where: string;
  params: unknown[];
  /** The unresolved count a row sorts by: the breach's, or the one email's. */
  unresolvedColumn: string;
  /** Known to match nothing (a data class no stored breach has), so no SQL need run. */
  empty: boolean;
}

/**
 * Translates a local query into SQL with the service's semantics (shared/api/filter.ts,
 * CONTRACT.md): filters AND together; `dataClasses` and `unresolvedDataClasses` match any of
 * their values, by case-insensitive name; domain is exact and case-insensitive (`domainContains`, local only, any part of it); sensitive
 * breaches only when asked. Every test reads a column kept up to date on write, so the
 * statement is one pass over at most a few thousand rows.
 */
export function buildFilter(db: ReadableDB, query: LocalBreachQuery): FilterSql {
  const where: string[] = [];
  const params: unknown[] = [];
  let from = 'breaches AS b';
  let unresolvedColumn = 'b.unresolved_count';
  let empty = false;

  if (query.email !== undefined) {
    from = 'breached_accounts AS a JOIN breaches AS b ON b.key = a.breach_key';
    where.push('a.email = ?');
    params.push(emailKey(query.email));
    unresolvedColumn = 'a.unresolved_count';
  }
  if (!query.includeSensitive) where.push('b.is_sensitive = 0');
  if (query.domain !== undefined) {
    where.push('b.domain_key = ?');
    params.push(query.domain.toLowerCase());
  }
  if (query.domainContains !== undefined) {
    // domain_key is folded in JS (toLowerCase), so the needle is folded the same way.
    where.push('instr(b.domain_key, ?) > 0');
    params.push(query.domainContains.toLowerCase());
  }
  if (query.dataClasses && query.dataClasses.length > 0) {
    const needles = needlesOf(db, query.dataClasses);
    if (needles.length === 0) empty = true;
    where.push(anyOf('b.class_codes', needles, params));
  }
  if (query.unresolvedDataClasses && query.unresolvedDataClasses.length > 0) {
    const needles = needlesOf(db, query.unresolvedDataClasses);
    if (needles.length === 0) empty = true;
    where.push(anyOf(query.email !== undefined ? 'a.unresolved_codes' : 'b.unresolved_codes', needles, params));
  }
  if (query.excludeIds && query.excludeIds.length > 0) {
    where.push('b.id NOT IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(query.excludeIds));
  }
  const text = query.text === undefined ? undefined : understandListText(query.text, { dataClasses: [...dataClassNamesByCode(db).values()] });
  if (text) {
    // The same understanding and semantics as shared/search/listText.ts (matchesListText).
    if (text.dataClasses.length > 0) {
      const needles = needlesOf(db, text.dataClasses);
      if (needles.length === 0) empty = true;
      where.push(anyOf('b.class_codes', needles, params));
    }
    if (text.from !== undefined) {
      where.push('b.breach_date >= ?');
      params.push(text.from);
    }
    if (text.until !== undefined) {
      where.push('b.breach_date <= ?');
      params.push(text.until);
    }
    // lower() folds ASCII only; breach ids and data class names are catalog names in ASCII, and domains use the JS-folded column.
    if (text.asTyped !== undefined) {
      where.push('(instr(lower(b.id), ?) > 0 OR instr(b.domain_key, ?) > 0)');
      params.push(text.asTyped, text.asTyped);
    }
    for (const word of text.words) {
      where.push('(instr(lower(b.id), ?) > 0 OR instr(b.domain_key, ?) > 0 OR instr(lower(b.data_classes), ?) > 0)');
      params.push(word, word, word);
    }
  }
  return { from, where: where.length > 0 ? where.join(' AND ') : '1', params, unresolvedColumn, empty };
}

export function orderBy(query: LocalBreachQuery, filter: FilterSql): string {
  const contract = 'b.breach_date DESC, b.added_at DESC, b.id ASC';
  switch (query.sort) {
    case 'addedDate':
      return `b.added_at DESC, ${contract}`;
    case 'name':
      return 'lower(b.id) ASC, b.id ASC';
    case 'unresolved':
      return `${filter.unresolvedColumn} DESC, ${contract}`;
    case 'breachDate':
      return contract;
  }
}

function needlesOf(db: ReadableDB, names: readonly string[]): string[] {
  return lookupDataClassCodes(db, [...new Set(names.map(dataClassKey))]).map(codeNeedle);
}

function anyOf(column: string, needles: readonly string[], params: unknown[]): string {
  if (needles.length === 0) return '0';
  params.push(...needles);
  return '(' + needles.map(() => `instr(${column}, ?) > 0`).join(' OR ') + ')';
}
