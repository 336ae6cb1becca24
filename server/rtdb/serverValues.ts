import type { DbPath } from './paths.ts';
import type { DbWrite } from './RtdbStore.ts';
import { record, type DbValue } from './tree.ts';

/**
 * Server values in written data, as Firebase documents them
 * (https://firebase.google.com/docs/database/rest/save-data, "Server Values"; the
 * `ServerValue.increment` of the SDKs): `{".sv": "timestamp"}` becomes the server's time in
 * milliseconds since the epoch, `{".sv": {"increment": n}}` the number at that location plus n
 * (n itself when the location holds no number). Resolved inside the write's transaction, which
 * no other writer of any instance interleaves with, so concurrent increments all count.
 */
export class ServerValueError extends Error {
  override readonly name = 'ServerValueError';
}

const SV = '.sv';

type Placeholder = { kind: 'timestamp' } | { kind: 'increment'; by: number };

/** The server value `node` stands for, undefined when it is ordinary data; throws on a malformed one. */
function serverValueOf(node: unknown, at: DbPath): Placeholder | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, SV)) return undefined;
  const keys = Object.keys(node);
  const where = `/${at.join('/')}`;
  if (keys.length !== 1) throw new ServerValueError(`a server value at ${where} must be the only key of its object`);
  const sv = (node as Record<string, unknown>)[SV];
  if (sv === 'timestamp') return { kind: 'timestamp' };
  if (sv !== null && typeof sv === 'object' && !Array.isArray(sv) && Object.keys(sv).length === 1 && Object.hasOwn(sv, 'increment')) {
    const by = (sv as Record<string, unknown>).increment;
    if (typeof by === 'number' && Number.isFinite(by)) return { kind: 'increment', by };
    throw new ServerValueError(`{".sv": {"increment": n}} at ${where} takes a finite number`);
  }
  throw new ServerValueError(`unknown server value at ${where}: ".sv" takes "timestamp" or {"increment": n}`);
}

/** True when some value of `writes` holds a server value (most writes hold none: no transaction reads then). */
export function hasServerValues(writes: readonly DbWrite[]): boolean {
  const visit = (node: unknown, at: DbPath): boolean => {
    if (serverValueOf(node, at)) return true;
    if (node === null || typeof node !== 'object') return false;
    return Object.entries(node).some(([key, child]) => visit(child, [...at, key]));
  };
  return writes.some((write) => visit(write.value, write.path));
}

/** `writes` with each server value as a stand-in number (its kind of result), so the data can be checked before the transaction; throws on a malformed one. */
export function withStandIns(writes: readonly DbWrite[]): DbWrite[] {
  const replace = (node: DbValue, at: DbPath): DbValue => {
    if (serverValueOf(node, at)) return 0;
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((child, index) => replace(child, [...at, String(index)]));
    return record(Object.entries(node).map(([key, child]) => [key, replace(child, [...at, key])] as const));
  };
  return writes.map((write) => ({ path: write.path, value: replace(write.value, write.path) }));
}

/** `writes` with every server value replaced by what it stands for, increments reading the current data through `read`. */
export async function resolveServerValues(writes: readonly DbWrite[], now: number, read: (path: DbPath) => Promise<DbValue>): Promise<DbWrite[]> {
  const resolve = async (node: DbValue, at: DbPath): Promise<DbValue> => {
    const sv = serverValueOf(node, at);
    if (sv?.kind === 'timestamp') return now;
    if (sv?.kind === 'increment') {
      const current = await read(at);
      return typeof current === 'number' ? current + sv.by : sv.by;
    }
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      const out: DbValue[] = [];
      for (const [index, child] of node.entries()) out.push(await resolve(child, [...at, String(index)]));
      return out;
    }
    const out = record<DbValue>();
    for (const [key, child] of Object.entries(node)) out[key] = await resolve(child, [...at, key]);
    return out;
  };
  const resolved: DbWrite[] = [];
  for (const write of writes) resolved.push({ path: write.path, value: await resolve(write.value, write.path) });
  return resolved;
}
