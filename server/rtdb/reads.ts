import { pathKey, type DbPath } from './paths.ts';
import type { DbWrite } from './RtdbStore.ts';
import { childOf, withChild, type DbValue } from './tree.ts';

/** A rule that needs more reads than this is denied rather than run on. */
const MAX_ROUNDS = 64;

/**
 * Runs the synchronous rule check `decide` over a store read asynchronously: a location not yet
 * fetched reads as null and is noted; when a round noted any, they are fetched and the check runs
 * again. The answer is the first round's that needed nothing new, so it saw only real data. Rules
 * are pure, so rerunning them is safe; most need no data, or one location, so one or two rounds.
 */
export async function decideWithReads(fetch: (path: DbPath) => Promise<DbValue>, decide: (read: (path: DbPath) => DbValue) => boolean): Promise<boolean> {
  const known = new Map<string, DbValue>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const missing = new Map<string, DbPath>();
    const read = (path: DbPath): DbValue => {
      const key = pathKey(path);
      if (known.has(key)) return known.get(key)!;
      missing.set(key, path);
      return null;
    };
    const allowed = decide(read);
    if (missing.size === 0) return allowed;
    for (const [key, path] of missing) known.set(key, await fetch(path));
  }
  return false;
}

/** The value at `at`, given its current `value`, as it is after `writes`: what `newData` shows the rules. */
export function afterWrites(value: DbValue, at: DbPath, writes: readonly DbWrite[]): DbValue {
  const isPrefix = (prefix: DbPath, of: DbPath) => prefix.length <= of.length && prefix.every((key, i) => of[i] === key);
  for (const write of writes) {
    if (isPrefix(write.path, at)) value = childOf(write.value, at.slice(write.path.length));
    else if (isPrefix(at, write.path)) value = withChild(value, write.path.slice(at.length), write.value);
  }
  return value;
}
