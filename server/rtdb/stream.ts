import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.ts';
import type { DbPath } from './paths.ts';
import { touches, type RtdbStore } from './RtdbStore.ts';

/** An idle stream sends `keep-alive` this often, so proxies and clients know it is alive. */
export const KEEP_ALIVE_MS = 30_000;
/** Timers cannot wait longer than this (2^31 - 1 ms); a later expiry is checked again then. */
const MAX_TIMER_MS = 2_147_483_647;

export interface StreamOptions {
  req: IncomingMessage;
  res: ServerResponse;
  path: DbPath;
  store: RtdbStore;
  /** Asked again after each change: rules may depend on data, and a denied listener is cancelled. */
  canRead: () => Promise<boolean>;
  /** Calls back when the rules were replaced (through any instance): the read is checked again. */
  onRulesReplaced: (listener: () => void) => () => void;
  /** When the caller's credential expires (ms since the epoch): the stream ends with `auth_revoked`. */
  expiresAt: number | undefined;
  now: () => number;
  keepAliveMs?: number;
  logger: Logger;
}

/**
 * A streaming read (`Accept: text/event-stream`), as the real database's REST interface speaks
 * it: `put` with `{"path": "/", "data": …}` at once and whenever the location's value changes
 * (written through this instance or, via the store's notices, any other), `keep-alive` while
 * idle, `cancel` when the rules stop permitting the read, `auth_revoked` when the credential
 * expires. Each change is re-read (coalesced while a read runs) and sent only when the value
 * differs from the last one sent.
 */
export async function streamLocation(options: StreamOptions): Promise<void> {
  const { res, store, path, logger } = options;
  let ended = false;
  let lastEtag: string | undefined;
  let reading = false;
  let pending = false;
  const timers: NodeJS.Timeout[] = [];

  const end = (event?: { name: string; data: string }) => {
    if (ended) return;
    ended = true;
    stop();
    for (const timer of timers) clearTimeout(timer);
    if (event && !res.writableEnded) res.write(`event: ${event.name}\ndata: ${event.data}\n\n`);
    res.end();
  };

  const refresh = async (): Promise<void> => {
    pending = true;
    if (reading) return;
    reading = true;
    try {
      while (pending && !ended) {
        pending = false;
        if (!(await options.canRead())) return end({ name: 'cancel', data: 'null' });
        const snapshot = await store.snapshot(path);
        if (ended || snapshot.etag === lastEtag) continue;
        lastEtag = snapshot.etag;
        res.write(`event: put\ndata: {"path":"/","data":${snapshot.json}}\n\n`);
      }
    } catch (error) {
      // The database is away: the listener keeps its last value; the next notice or keep-alive tries again.
      pending = true;
      logger.warn({ err: error, path: '/' + path.join('/') }, 'a streaming read could not re-read its location');
    } finally {
      reading = false;
    }
  };

  // Watching before the first read: a change committed in between is read again, never missed.
  const stopWatching = store.watch((change) => {
    if (touches(change, path)) void refresh();
  });
  const stopRules = options.onRulesReplaced(() => void refresh());
  const stop = () => {
    stopWatching();
    stopRules();
  };
  try {
    const first = await store.snapshot(path);
    lastEtag = first.etag;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    res.write(`event: put\ndata: {"path":"/","data":${first.json}}\n\n`);
  } catch (error) {
    stop();
    throw error;
  }

  options.req.on('close', () => end());
  res.on('close', () => end());
  const keepAlive = () => {
    if (ended) return;
    res.write('event: keep-alive\ndata: null\n\n');
    if (pending) void refresh();
    timers[0] = setTimeout(keepAlive, options.keepAliveMs ?? KEEP_ALIVE_MS).unref();
  };
  timers[0] = setTimeout(keepAlive, options.keepAliveMs ?? KEEP_ALIVE_MS).unref();
  if (options.expiresAt !== undefined) {
    const expire = () => {
      const left = options.expiresAt! - options.now();
      if (left > 0) timers[1] = setTimeout(expire, Math.min(left, MAX_TIMER_MS)).unref();
      else end({ name: 'auth_revoked', data: '"credential is no longer valid"' });
    };
    expire();
  }
}
