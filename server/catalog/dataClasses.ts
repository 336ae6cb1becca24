import { dataClassKey } from '../../shared/api/index.ts';

/**
 * Orders data class names by their matching key, so spellings that differ only in case sort
 * together. Code-unit comparison rather than `localeCompare`: the order must not depend on
 * the ICU data or locale of the machine that generates or serves a catalog.
 */
export function compareDataClassNames(a: string, b: string): number {
  const ka = dataClassKey(a);
  const kb = dataClassKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * A breach's data classes as the contract serves them: trimmed, alphabetically ordered, one
 * per case-insensitive key. The first spelling of a key wins, because resolutions are stored
 * per key and must map back to exactly one name.
 */
export function normalizeDataClasses(names: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const name of names) {
    const spelling = name.trim();
    const key = dataClassKey(spelling);
    if (key !== '' && !byKey.has(key)) byKey.set(key, spelling);
  }
  // Array.prototype.sort is stable, and keys are unique here, so the order is total.
  return [...byKey.values()].sort(compareDataClassNames);
}

/** Orders breaches by id with the same code-unit comparison SQLite's BINARY collation uses for ASCII ids. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
