/**
 * Locations in the realtime database: a path is a list of keys, `[]` is the root. Keys follow
 * the real database's limits so data written here can move to it: non-empty, at most 768 bytes,
 * none of `. $ # [ ] /` nor ASCII control characters.
 */
export type DbPath = readonly string[];

const FORBIDDEN_KEY = /[.$#[\]/]/;
const hasControlCharacter = (key: string) => [...key].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
export const MAX_KEY_BYTES = 768;
export const MAX_DEPTH = 32;

/** Why a key cannot be used, or undefined when it can. */
export function keyProblem(key: string): string | undefined {
  if (key === '') return 'keys must not be empty';
  if (FORBIDDEN_KEY.test(key) || hasControlCharacter(key)) return `key "${key}" contains one of . $ # [ ] / or a control character`;
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `key "${key.slice(0, 40)}…" is longer than ${MAX_KEY_BYTES} bytes`;
  return undefined;
}

export class DbPathError extends Error {
  override readonly name = 'DbPathError';
}

/** `"users/alice/preferences"` → `["users", "alice", "preferences"]`; empty segments are ignored. */
export function parseDbPath(text: string): DbPath {
  const keys = text.split('/').filter((segment) => segment !== '');
  if (keys.length > MAX_DEPTH) throw new DbPathError(`paths are at most ${MAX_DEPTH} keys deep`);
  for (const key of keys) {
    const problem = keyProblem(key);
    if (problem) throw new DbPathError(problem);
  }
  return keys;
}

/** Storage form: keys joined with `/`, so a subtree is one range of the primary key. */
export function pathKey(path: DbPath): string {
  return path.join('/');
}
