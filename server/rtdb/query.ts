import { DbPathError, parseDbPath, type DbPath } from './paths.ts';
import { childOf, record, type DbValue } from './tree.ts';

/**
 * Queries of the REST interface, as Firebase documents them
 * (https://firebase.google.com/docs/database/rest/retrieve-data, "Filtering Data"):
 * `orderBy` (`"$key"`, `"$value"`, `"$priority"` or a child path, JSON-quoted), then
 * `limitToFirst`/`limitToLast` and `startAt`/`endAt`/`equalTo` (JSON values). The answer is a
 * plain JSON object of the matching children: JSON objects have no order, so a client sorts
 * what it gets (Firebase's own words: "the REST API returns unsorted results").
 */
export type OrderBy = { kind: 'key' } | { kind: 'value' } | { kind: 'priority' } | { kind: 'child'; path: DbPath; source: string };

export type QueryBound = string | number | boolean | null;

export interface DbQuery {
  orderBy: OrderBy;
  limitToFirst?: number;
  limitToLast?: number;
  startAt?: QueryBound;
  endAt?: QueryBound;
  equalTo?: QueryBound;
}

/** A query the database refuses, with Firebase's wording where it has one. */
export class QueryError extends Error {
  override readonly name = 'QueryError';
}

export const QUERY_PARAMETERS = ['orderBy', 'limitToFirst', 'limitToLast', 'startAt', 'endAt', 'equalTo'] as const;
const FILTERS = QUERY_PARAMETERS.filter((name) => name !== 'orderBy');

/** The query named by `params`, or undefined when it names none. */
export function parseQuery(params: URLSearchParams): DbQuery | undefined {
  const present = QUERY_PARAMETERS.filter((name) => params.has(name));
  if (present.length === 0) return undefined;
  for (const name of present) if (params.getAll(name).length > 1) throw new QueryError(`${name} is given more than once`);
  const orderText = params.get('orderBy');
  if (orderText === null) throw new QueryError('orderBy must be defined when other query parameters are defined');
  const orderBy = parseOrderBy(orderText);
  const query: DbQuery = { orderBy };
  for (const name of ['limitToFirst', 'limitToLast'] as const) {
    const text = params.get(name);
    if (text === null) continue;
    if (!/^[1-9]\d{0,8}$/.test(text)) throw new QueryError(`${name} must be a positive integer`);
    query[name] = Number(text);
  }
  if (query.limitToFirst !== undefined && query.limitToLast !== undefined) throw new QueryError('limitToFirst and limitToLast cannot both be set');
  for (const name of ['startAt', 'endAt', 'equalTo'] as const) {
    const text = params.get(name);
    if (text === null) continue;
    const bound = parseBound(name, text);
    if (orderBy.kind === 'key' && typeof bound !== 'string') throw new QueryError(`${name}: when orderBy is "$key", ${name} must be a string`);
    query[name] = bound;
  }
  if (query.equalTo !== undefined && (query.startAt !== undefined || query.endAt !== undefined)) throw new QueryError('equalTo cannot be combined with startAt or endAt');
  return query;
}

/** True when `params` names any query parameter (what `shallow` and writes cannot be mixed with). */
export function namesQuery(params: URLSearchParams): boolean {
  return params.has('orderBy') || FILTERS.some((name) => params.has(name));
}

function parseOrderBy(text: string): OrderBy {
  let name: unknown;
  try {
    name = JSON.parse(text);
  } catch {
    throw new QueryError('orderBy must be a valid JSON encoded path');
  }
  if (typeof name !== 'string' || name === '') throw new QueryError('orderBy must be a valid JSON encoded path');
  if (name === '$key') return { kind: 'key' };
  if (name === '$value') return { kind: 'value' };
  if (name === '$priority') return { kind: 'priority' };
  try {
    const path = parseDbPath(name);
    if (path.length === 0) throw new DbPathError('empty path');
    return { kind: 'child', path, source: path.join('/') };
  } catch (error) {
    if (error instanceof DbPathError) throw new QueryError('orderBy must be a valid JSON encoded path');
    throw error;
  }
}

function parseBound(name: string, text: string): QueryBound {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new QueryError(`${name} must be a JSON value: a "quoted string", a number, true, false or null`);
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
  throw new QueryError(`${name} must be a JSON value: a "quoted string", a number, true, false or null`);
}

/** The `.indexOn` entry a query needs at its location (`".value"` for `$value`), or undefined for `$key` and `$priority`. */
export function indexNeeded(orderBy: OrderBy): string | undefined {
  if (orderBy.kind === 'child') return orderBy.source;
  if (orderBy.kind === 'value') return '.value';
  return undefined;
}

// Firebase's order ("How data is ordered"): null, false, true, numbers ascending, strings
// lexicographically, objects; ties by key. Keys: those that parse as 32-bit integers first,
// numerically, then the others lexicographically.
const INTEGER_KEY = /^-?(0|[1-9]\d{0,9})$/;
const isIntegerKey = (key: string) => INTEGER_KEY.test(key) && Number(key) >= -2147483648 && Number(key) <= 2147483647;

/** Compares two keys the way Firebase orders them. */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const ai = isIntegerKey(a);
  const bi = isIntegerKey(b);
  if (ai && bi) return Number(a) - Number(b);
  if (ai) return -1;
  if (bi) return 1;
  return a < b ? -1 : 1;
}

const rankOf = (value: DbValue): number => (value === null ? 0 : value === false ? 1 : value === true ? 2 : typeof value === 'number' ? 3 : typeof value === 'string' ? 4 : 5);

/** Compares two values the way Firebase orders them (objects all rank alike: the key decides). */
export function compareValues(a: DbValue, b: DbValue): number {
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : a < b ? -1 : 1;
  return 0;
}

/**
 * The children of `value` that `query` selects, as a prototype-free object. A value that is not
 * an object has no children to select: the answer is null, as a query of a leaf in Firebase.
 */
export function runQuery(value: DbValue, query: DbQuery): DbValue {
  if (value === null || typeof value !== 'object') return null;
  const entries: [string, DbValue][] = Array.isArray(value) ? value.flatMap((child, index) => (child === null ? [] : [[String(index), child] as [string, DbValue]])) : Object.entries(value);
  const { orderBy } = query;
  const sortValue = (key: string, child: DbValue): DbValue => (orderBy.kind === 'key' ? key : orderBy.kind === 'value' ? child : orderBy.kind === 'priority' ? null : childOf(child, orderBy.path));
  const compare = (a: [string, DbValue], b: [string, DbValue]) => (orderBy.kind === 'key' ? compareKeys(a[0], b[0]) : compareValues(sortValue(...a), sortValue(...b)) || compareKeys(a[0], b[0]));
  entries.sort(compare);
  const against = (entry: [string, DbValue], bound: QueryBound) => (orderBy.kind === 'key' ? compareKeys(entry[0], bound as string) : compareValues(sortValue(...entry), bound));
  let selected = entries.filter((entry) => {
    if (query.equalTo !== undefined) return against(entry, query.equalTo) === 0;
    if (query.startAt !== undefined && against(entry, query.startAt) < 0) return false;
    if (query.endAt !== undefined && against(entry, query.endAt) > 0) return false;
    return true;
  });
  if (query.limitToFirst !== undefined) selected = selected.slice(0, query.limitToFirst);
  if (query.limitToLast !== undefined) selected = selected.slice(-query.limitToLast);
  return record(selected);
}

/** A read that took longer than its `timeout=`. */
export class ReadTimeoutError extends Error {
  override readonly name = 'ReadTimeoutError';
}

/** Runs `read`, failing with {@link ReadTimeoutError} when it takes longer than `timeoutMs` (Firebase answers such a read 400). */
export async function readWithin<T>(timeoutMs: number | undefined, read: () => Promise<T>): Promise<T> {
  if (timeoutMs === undefined) return read();
  let timer: NodeJS.Timeout | undefined;
  const reading = read();
  // Settled later or never: its outcome no longer matters once the timeout answered.
  reading.catch(() => {});
  try {
    return await Promise.race([
      reading,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ReadTimeoutError(`the read took longer than the timeout of ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
