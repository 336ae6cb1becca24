import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Event } from '../../shared/base/Emitter.ts';
import { DisposableStore, toDisposable } from '../../shared/base/lifecycle.ts';
import { endOnShutdown } from '../http/connections.ts';
import type { Logger } from '../log.ts';
import { MAX_TIMER_MS } from '../timers.ts';
import { pathKey, type DbPath } from './paths.ts';
import { overlaps, touches, type LocationSnapshot, type RtdbChange, type RtdbStore } from './RtdbStore.ts';
import type { StreamSlot, StreamSlots } from './streamSlots.ts';
import type { WriteTurns } from './writeTurns.ts';

/** An idle stream sends `keep-alive` this often, so proxies and clients know it is alive. */
export const KEEP_ALIVE_MS = 30_000;
/** How stale a stream's last check of its credential may be when it sends a change. */
export const CREDENTIAL_RECHECK_MS = 1_000;
/**
 * An ended stream whose reader has not taken what was written (a paused reader never does) is
 * closed this long after its end, so it holds neither its buffer nor its connection for good.
 */
export const END_GRACE_MS = 10_000;
/** A stream's lifetime is its maximum less up to this share of it, so streams opened together do not all reconnect together. */
const LIFETIME_JITTER = 0.1;

/**
 * Why the service ended a stream with the `reconnect` event, and the `retry:` (milliseconds) sent
 * with it, which an `EventSource` waits before it opens the stream again. The data is
 * `{"reason": …}`; a client opens the stream again and gets the whole value in its first `put`.
 */
export const RECONNECT_RETRY_MS = {
  /** The stream was open for the service's maximum lifetime (`--stream-max-lifetime`). */
  'max-lifetime': 1_000,
  /** Its reader left more than `--stream-buffer` bytes unread: it missed nothing it cannot read again. */
  'slow-reader': 5_000,
  /** An anonymous stream made room for a signed-in caller's, or a caller's oldest stream for their newest. */
  'making-room': 30_000,
  /** The service is stopping (SIGTERM): another instance, or this one restarted, takes the stream. */
  'shutting-down': 1_000,
} as const;
export type ReconnectReason = keyof typeof RECONNECT_RETRY_MS;

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
  /** The stream's place under the service's caps: released when it ends; asked to make way, it ends. */
  slot: StreamSlot;
  slots: StreamSlots;
  /** The stream ends with `reconnect` after this long (less a little jitter). */
  maxLifetimeMs: number;
  /** Unread bytes past which the next write ends the stream with `reconnect` instead. */
  bufferBytes: number;
  /** Turns for the `put`s (a first one carries the whole value), shared by the mount's streams: many opened, or sent a change, at once take turns. */
  writeTurns?: WriteTurns;
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
 *
 * Bounded (an addition to the real interface, for a service that holds every stream in one
 * process): a stream lives at most `maxLifetimeMs`; a reader that leaves more than `bufferBytes`
 * unread is not written to again (the service kept every frame for a paused reader: 100 MB for
 * 100 MB written); a stream may be asked to make room (`slot`). Each ends with `reconnect`
 * (`{"reason": …}` and a `retry:`, see {@link RECONNECT_RETRY_MS}); its connection is closed
 * {@link END_GRACE_MS} later if its reader has not taken what was left.
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

  const end = (event?: { name: string; data: string; retryMs?: number }) => {
    if (ended) return;
    ended = true;
    subscriptions.dispose();
    options.slots.release(options.slot);
    if (event && !res.writableEnded) res.write(`event: ${event.name}\n${event.retryMs === undefined ? '' : `retry: ${event.retryMs}\n`}data: ${event.data}\n\n`);
    res.end();
    if (!res.closed) {
      const grace = setTimeout(() => res.destroy(), END_GRACE_MS).unref();
      res.once('close', () => clearTimeout(grace));
    }
  };
  const reconnect = (reason: ReconnectReason) => end({ name: 'reconnect', data: JSON.stringify({ reason }), retryMs: RECONNECT_RETRY_MS[reason] });
  /** Writes `frame`, unless the reader has left more than the bound unread: then the stream ends instead. */
  const send = (frame: Buffer | string): boolean => {
    if (res.writableLength > options.bufferBytes) {
      reconnect('slow-reader');
      return false;
    }
    res.write(frame);
    return true;
  };

  /** {@link send} in this stream's turn: false when the stream ended meanwhile or ends instead. */
  const sendInTurn = async (frame: Buffer): Promise<boolean> => {
    if (!options.writeTurns) return !ended && send(frame);
    const release = await options.writeTurns.take();
    let written = 0;
    try {
      if (ended) return false;
      written = frame.length;
      return send(frame);
    } finally {
      release(written);
    }
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
            if (!(await sendInTurn(putFrame(snapshot, '/')))) return;
            continue;
          }
          // The whole value is no longer what was last sent whole.
          lastEtag = undefined;
          for (const [key, below] of work) {
            const snapshot = await store.snapshot([...path, ...below]);
            if (ended || !(await sendInTurn(putFrame(snapshot, '/' + key)))) return;
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
  // Watching already: a change committed while the stream waits for its turn is sent after the first put.
  const releaseTurn = (await options.writeTurns?.take()) ?? (() => {});
  let written = 0;
  try {
    const first = await store.snapshot(path);
    lastEtag = first.etag;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    const frame = putFrame(first, '/');
    res.write(frame);
    written = frame.length;
    started = true;
    void refresh();
  } catch (error) {
    subscriptions.dispose();
    options.slots.release(options.slot);
    throw error;
  } finally {
    releaseTurn(written);
  }
  options.slots.watch(res);
  options.req.on('close', () => end());
  res.on('close', () => end());
  // Its reader left, or it was asked to make way, while its first read ran.
  if (res.closed) return end();
  if (options.slot.madeWay) return reconnect('making-room');
  options.slot.makeWay = () => reconnect('making-room');
  endOnShutdown(res, () => reconnect('shutting-down'));
  const keepAlive = async () => {
    if (ended || !(await credentialHolds(true)) || ended || !send('event: keep-alive\ndata: null\n\n')) return;
    if (pending) void refresh();
    timers[0] = setTimeout(() => void keepAlive(), options.keepAliveMs ?? KEEP_ALIVE_MS).unref();
  };
  timers[0] = setTimeout(() => void keepAlive(), options.keepAliveMs ?? KEEP_ALIVE_MS).unref();
  const lifetimeMs = options.maxLifetimeMs - Math.floor(Math.random() * options.maxLifetimeMs * LIFETIME_JITTER);
  // A timer waits at most MAX_TIMER_MS (server/timers.ts): a longer lifetime or a later expiry
  // is cut to it, and the expiry is checked again then.
  timers[2] = setTimeout(() => reconnect('max-lifetime'), Math.min(lifetimeMs, MAX_TIMER_MS)).unref();
  if (options.expiresAt !== undefined) {
    const expire = () => {
      const left = options.expiresAt! - options.now();
      if (left > 0) timers[1] = setTimeout(expire, Math.min(left, MAX_TIMER_MS)).unref();
      else end({ name: 'auth_revoked', data: '"credential is no longer valid"' });
    };
    expire();
  }
}
