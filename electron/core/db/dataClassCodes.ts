import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/** Data class key → dictionary code, as stored. */
export function loadDataClassCodes(db: ReadableDB): Map<string, number> {
  const rows = statement(db, 'SELECT key, code FROM data_class_codes').raw().all() as [string, number][];
  return new Map(rows);
}

/**
 * The code of `key`, adding it to the dictionary (and to `codes`) when new. Call inside the
 * caller's transaction: `codes` then mirrors what commits, and is thrown away if it does not.
 */
export function ensureDataClassCode(db: WritableDB, codes: Map<string, number>, key: string, name: string): number {
  const known = codes.get(key);
  if (known !== undefined) return known;
  const code = Number(statement(db, 'INSERT INTO data_class_codes (key, name) VALUES (?, ?)').run(key, name).lastInsertRowid);
  codes.set(key, code);
  return code;
}

/** Codes of the given keys that the dictionary knows; unknown keys match no breach. */
export function lookupDataClassCodes(db: ReadableDB, keys: readonly string[]): number[] {
  if (keys.length === 0) return [];
  return statement(db, 'SELECT code FROM data_class_codes WHERE key IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(keys)) as number[];
}

/** Code → display name, for turning stored code lists back into names. */
export function dataClassNamesByCode(db: ReadableDB): Map<number, string> {
  const rows = statement(db, 'SELECT code, name FROM data_class_codes').raw().all() as [number, string][];
  return new Map(rows);
}
