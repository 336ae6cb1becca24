import type { DbPath } from './paths.ts';
import type { DbWrite, RtdbTransaction } from './RtdbStore.ts';
import type { DbValue } from './tree.ts';

/**
 * What one person may keep under their own node, `users/<uid>` (the app keeps its preferences
 * there: a few hundred bytes), counted as the node's JSON. The real database has no such cap
 * (it bills by size), but here every person shares one disk: without it the default rules let
 * anyone signed in fill it, 16 MB a write.
 */
export const PERSON_NODE_MAX_BYTES = 1024 * 1024;

/** The person nodes (`users/<key>`) that `writes` change: under one, at one, or all of `users` (or the root) at once. */
export function personNodesTouched(writes: readonly DbWrite[]): DbPath[] {
  const keys = new Set<string>();
  for (const { path, value } of writes) {
    if (path[0] === 'users' && path.length >= 2) keys.add(path[1]!);
    else if (path.length <= 1 && (path.length === 0 || path[0] === 'users')) {
      const users = path.length === 0 ? childOf(value, 'users') : value;
      if (isObject(users)) for (const key of Object.keys(users)) keys.add(key);
    }
  }
  return [...keys].map((key) => ['users', key]);
}

/** The first person node `writes` left over `maxBytes` (read inside the write's transaction, after it), with its size; undefined when none is. */
export async function personNodeOverQuota(tx: RtdbTransaction, writes: readonly DbWrite[], maxBytes: number): Promise<{ node: DbPath; bytes: number } | undefined> {
  for (const node of personNodesTouched(writes)) {
    const bytes = Buffer.byteLength(JSON.stringify(await tx.get(node)));
    if (bytes > maxBytes) return { node, bytes };
  }
  return undefined;
}

function isObject(value: DbValue | undefined): value is Record<string, DbValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childOf(value: DbValue, key: string): DbValue | undefined {
  return isObject(value) ? value[key] : undefined;
}
