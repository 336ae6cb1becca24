import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Event } from '../../shared/base/Emitter.ts';
import { DisposableStore, toDisposable } from '../../shared/base/lifecycle.ts';
import type { Logger } from '../log.ts';
import { pathKey, type DbPath } from './paths.ts';
import { overlaps, touches, type LocationSnapshot, type RtdbChange, type RtdbStore } from './RtdbStore.ts';

/** An idle stream sends `keep-alive` this often, so proxies and clients know it is alive. */
export const KEEP_ALIVE_MS = 30_000;
/** How stale a stream's last check of its credential may be when it sends a change. */
export const CREDENTIAL_RECHECK_MS = 1_000;
/** Timers cannot wait longer than this (2^31 - 1 ms); a later expiry is checked again then. */
const MAX_TIMER_MS = 2_147_483_647;

export interface StreamOptions {
  req: IncomingMessage;
  res: ServerResponse;
  path: DbPath;
  store: RtdbStore;
  /** Asked again after each change: rules may depend on data, and a denied listener is cancelled. */
  canRead: () => Promise<boolean>;
  /** Fires when the rules were replaced (through any instance): the read is checked again. */
  onRulesReplaced: Event<void>;
  /** When the caller's credential expires (ms since the epoch): the stream ends with `auth_revoked`. */
  expiresAt: number | undefined;
  /**
   * Checks the caller's credential again (a revoked sign-in, a revoked database secret, a deleted
   * account): false ends the stream with `auth_revoked`. Asked at each keep-alive and before
   * sending a change, at most once per {@link CREDENTIAL_RECHECK_MS}.
   */
  credentialValid?: () => Promise<boolean>;
  now: () => number;
  keepAliveMs?: number;
  logger: Logger;
}

/**
 * The `put` event of a snapshot at `at` (relative to a stream's location), encoded once and
 * shared by every stream that sends it: snapshots are cached per location and store revision, so
 * streams of one location hold the same snapshot object.
 */
const putFrames = new WeakMap<LocationSnapshot, Map<string, Buffer>>();
function putFrame(snapshot: LocationSnapshot, at: string): Buffer {
  let byPath = putFrames.get(snapshot);
  if (!byPath) putFrames.set(snapshot, (byPath = new Map()));
  let frame = byPath.get(at);
  if (!frame) byPath.set(at, (frame = Buffer.from(`event: put\ndata: {"path":${JSON.stringify(at)},"data":${snapshot.json}}\n\n`)));
  return frame;
}

/** What a stream must send next: everything, or the values at these paths below its location. */
type Pending = 'all' | Map<string, DbPath> | undefined;

/**
 * A streaming read (`Accept: text/event-stream`), as the real database's REST interface speaks
 * it: `put` with `{"path": "/", "data": …}` at once; after a change below the location, a `put`
 * of just the changed child (`{"path": "/preferences", "data": …}`, as the real database sends);
 * after a change at or above it (or one whose paths are unknown), a `put` of the whole value at
 * "/" when it differs from the last one sent. Changes come written through this instance or, via
 * the store's notices, any other. Also `keep-alive` while idle, `cancel` when the rules stop
 * permitting the read, `auth_revoked` when the credential expires or is revoked. Changes are coalesced while a
 * read runs. Sending only what changed keeps a change's cost to its own size: sending the whole
 * value to each of 200 streams of a large location held up every other request for seconds.
 */
export async function streamLocation(options: StreamOptions): Promise<void> {
  const { res, store, path, logger } = options;
  let ended = false;
  let lastEtag: string | undefined;
  let reading = false;
  let pending: Pending;
  let started = false;
  // What the stream follows (the store, the rules) and its timers: all dropped when it ends.
  const subscriptions = new DisposableStore();
  const timers: NodeJS.Timeout[] = [];
  subscriptions.add(toDisposable(() => timers.forEach((timer) => clearTimeout(timer))));

  const end = (event?: { name: string; data: string }) => {
    if (ended) return;
    ended = true;
    subscriptions.dispose();
    if (event && !res.writableEnded) res.write(`event: ${event.name}\ndata: ${event.data}\n\n`);
    res.end();
  };

  const note = (change: RtdbChange | 'all') => {
    if (change === 'all' || change.paths === '*') pending = 'all';
    else {
      for (const changed of change.paths) {
        if (pending === 'all') break;
        if (!overlaps(changed, path)) continue;
        if (changed.length <= path.length) pending = 'all';
        else {
          const below = changed.slice(path.length);
          pending ??= new Map<string, DbPath>();
          pending.set(pathKey(below), below);
        }
      }
    }
  };

  let credentialCheckedAt = options.now();
  /** False when the credential no longer holds (the stream has then ended with `auth_revoked`). */
  const credentialHolds = async (force: boolean): Promise<boolean> => {
    if (!options.credentialValid || (!force && options.now() - credentialCheckedAt < CREDENTIAL_RECHECK_MS)) return true;
    credentialCheckedAt = options.now();
    let valid: boolean;
    try {
      valid = await options.credentialValid();
    } catch (error) {
      // The database behind the check is away: the stream goes on; the next check asks again.
      logger.warn({ err: error, path: '/' + path.join('/') }, "a streaming read could not check its caller's credential again");
      return true;
    }
    if (!valid) end({ name: 'auth_revoked', data: '"credential is no longer valid"' });
    return valid;
  };

  const refresh = async (): Promise<void> => {
    // Until the first put is written, changes wait (sent after it: puts are idempotent).
    if (!started || reading || pending === undefined) return;
    reading = true;
    try {
      while (pending !== undefined && !ended) {
        const work = pending;
        pending = undefined;
        try {
          if (!(await credentialHolds(false))) return;
          if (!(await options.canRead())) return end({ name: 'cancel', data: 'null' });
          if (work === 'all') {
            const snapshot = await store.snapshot(path);
            if (ended || snapshot.etag === lastEtag) continue;
            lastEtag = snapshot.etag;
            res.write(putFrame(snapshot, '/'));
            continue;
          }
          // The whole value is no longer what was last sent whole.
          lastEtag = undefined;
          for (const [key, below] of work) {
            const snapshot = await store.snapshot([...path, ...below]);
            if (ended) return;
            res.write(putFrame(snapshot, '/' + key));
          }
        } catch (error) {
          // The database is away: the listener keeps its last value; the next notice or keep-alive sends all of it again.
          pending = 'all';
          logger.warn({ err: error, path: '/' + path.join('/') }, 'a streaming read could not re-read its location');
          return;
        }
      }
    } finally {
      reading = false;
    }
  };

  // Watching before the first read: a change committed in between is read again, never missed.
  subscriptions.add(
    store.watch((change) => {
      if (!touches(change, path)) return;
      note(change);
      void refresh();
    }),
  );
  subscriptions.add(
    options.onRulesReplaced(() => {
      note('all');
      void refresh();
    }),
  );
  try {
    const first = await store.snapshot(path);
    lastEtag = first.etag;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    res.write(putFrame(first, '/'));
    started = true;
    void refresh();
  } catch (error) {
    subscriptions.dispose();
    throw error;
  }

  options.req.on('close', () => end());
  res.on('close', () => end());
  const keepAlive = async () => {
    if (ended || !(await credentialHolds(true)) || ended) return;
    res.write('event: keep-alive\ndata: null\n\n');
    if (pending) void refresh();
    timers[0] = setTimeout(() => void keepAlive(), options.keepAliveMs ?? KEEP_ALIVE_MS).unref();
  };
  timers[0] = setTimeout(() => void keepAlive(), options.keepAliveMs ?? KEEP_ALIVE_MS).unref();
  if (options.expiresAt !== undefined) {
    const expire = () => {
      const left = options.expiresAt! - options.now();
      if (left > 0) timers[1] = setTimeout(expire, Math.min(left, MAX_TIMER_MS)).unref();
      else end({ name: 'auth_revoked', data: '"credential is no longer valid"' });
    };
    expire();
  }
}
