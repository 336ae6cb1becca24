import { DbPathError, keyProblem, MAX_DEPTH, pathKey, type DbPath } from './paths.ts';

/**
 * A JSON value as the database holds it: leaves are strings, finite numbers and booleans.
 * Every object the database builds has no prototype ({@link record}): keys such as `__proto__`,
 * `constructor` or `hasOwnProperty` are ordinary data here, as they are in the real database,
 * and can neither reach `Object.prototype` nor read anything from it.
 */
export type DbValue = string | number | boolean | null | DbValue[] | { [key: string]: DbValue };

/** A prototype-free object of `entries` (assignment to it defines own properties, even `__proto__`). */
export function record<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const object = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) object[key] = value;
  return object;
}

/** The own property `key` of a database object, never an inherited one. */
function own(object: { [key: string]: DbValue }, key: string): DbValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** One stored leaf: its path key and its value as JSON text. */
export interface Leaf {
  path: string;
  json: string;
}

/**
 * The leaves of `value` placed at `path`. Null and empty objects or arrays store nothing (the
 * database has no empty containers, as the real one); arrays store as objects keyed 0, 1, ….
 * Throws `DbPathError` naming the first bad key or value.
 */
export function flatten(path: DbPath, value: unknown): Leaf[] {
  const leaves: Leaf[] = [];
  const visit = (at: string[], node: unknown): void => {
    if (at.length > MAX_DEPTH) throw new DbPathError(`data is nested more than ${MAX_DEPTH} keys deep at /${at.slice(0, 8).join('/')}/…`);
    if (node === null || node === undefined) return;
    if (typeof node === 'string' || typeof node === 'boolean') {
      leaves.push({ path: pathKey(at), json: JSON.stringify(node) });
      return;
    }
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) throw new DbPathError(`value at /${at.join('/')} is not a finite number`);
      leaves.push({ path: pathKey(at), json: JSON.stringify(node) });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((child, index) => visit([...at, String(index)], child));
      return;
    }
    if (typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const problem = keyProblem(key);
        if (problem) throw new DbPathError(`${problem} (at /${at.join('/')})`);
        visit([...at, key], child);
      }
      return;
    }
    throw new DbPathError(`value at /${at.join('/')} is not JSON`);
  };
  visit([...path], value);
  return leaves;
}

/**
 * Rebuilds the value at `base` from its leaves (ordered by path). Objects whose keys are all
 * array indexes, more than half of them present up to the largest, come back as arrays (with
 * null holes) — the real database's rule.
 */
export function unflatten(base: DbPath, leaves: readonly Leaf[]): DbValue {
  const prefix = base.length;
  let root: DbValue = null;
  for (const leaf of leaves) {
    const keys = leaf.path === '' ? [] : leaf.path.split('/');
    const relative = keys.slice(prefix);
    const value = JSON.parse(leaf.json) as DbValue;
    if (relative.length === 0) return value;
    if (root === null || typeof root !== 'object') root = record();
    let node = root as Record<string, DbValue>;
    for (const key of relative.slice(0, -1)) {
      const next = own(node, key);
      if (next === undefined || next === null || typeof next !== 'object') node[key] = record();
      node = node[key] as Record<string, DbValue>;
    }
    node[relative.at(-1)!] = value;
  }
  return arraysOf(root);
}

function arraysOf(value: DbValue): DbValue {
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, DbValue>).map(([key, child]) => [key, arraysOf(child)] as const);
  const indexes = entries.map(([key]) => (/^(0|[1-9]\d{0,8})$/.test(key) ? Number(key) : -1));
  if (entries.length > 0 && indexes.every((index) => index >= 0)) {
    const max = Math.max(...indexes);
    if (entries.length * 2 > max + 1) {
      const array: DbValue[] = Array.from({ length: max + 1 }, () => null);
      entries.forEach(([, child], i) => (array[indexes[i]!] = child));
      return array;
    }
  }
  return record(entries);
}

/** The child of a value at a relative path, or null. */
export function childOf(value: DbValue, path: DbPath): DbValue {
  let node: DbValue = value;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return null;
    node = (Array.isArray(node) ? (/^(0|[1-9]\d*)$/.test(key) ? node[Number(key)] : undefined) : own(node, key)) ?? null;
  }
  return node;
}

/** `value` with `child` placed at `path` (null removes), empty containers pruned; does not mutate. */
export function withChild(value: DbValue, path: DbPath, child: DbValue): DbValue {
  if (path.length === 0) return prune(child);
  const [key, ...rest] = path as [string, ...string[]];
  const object: Record<string, DbValue> = value !== null && typeof value === 'object' ? toObject(value) : record();
  const updated = withChild(own(object, key) ?? null, rest, child);
  if (updated === null) delete object[key];
  else object[key] = updated;
  return Object.keys(object).length === 0 ? null : arraysOf(object);
}

function toObject(value: DbValue[] | { [key: string]: DbValue }): Record<string, DbValue> {
  return Array.isArray(value) ? record(value.flatMap((child, i) => (child === null ? [] : [[String(i), child] as const]))) : record(Object.entries(value));
}

function prune(value: DbValue): DbValue {
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(toObject(value))
    .map(([key, child]) => [key, prune(child)] as const)
    .filter(([, child]) => child !== null);
  return entries.length === 0 ? null : arraysOf(record(entries));
}
