import { Emitter } from '../../shared/base/Emitter.ts';
import type { IpcError, RequestMessage, ResponseMessage } from '../../shared/ipc/protocol.ts';
import type { MonitorBridge } from './monitor.ts';
import { SseParser } from './sse.ts';

export const SECRET_HEADER = 'x-monitor-secret';
export const SECRET_STORAGE_KEY = 'monitor-secret';

export interface HttpMonitorOptions {
  /** Origin-relative by default: the app lives under `/app/`, the API under `/api/`. */
  baseUrl?: string;
  fetch?: typeof fetch;
  getSecret?: () => string | null;
  /** Backoff bounds for the event stream, in ms. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  random?: () => number;
  /**
   * Channels to ask at once, with no arguments: the first `invoke` of each (with `{}`) takes
   * that answer instead of asking again. The app asks what its first screen needs this way
   * while the rest of its bundle is still evaluating (`early.ts`).
   */
  preload?: readonly string[];
}

/** Rejection value of `invoke`: the same shape the preload rejects with. */
function ipcError(code: IpcError['code'], message: string, issues?: IpcError['issues']): IpcError {
  return issues ? { code, message, issues } : { code, message };
}

/**
 * `window.monitor` over the browser host's HTTP API. Events come from one shared
 * `GET /api/events` stream read with fetch (EventSource cannot send the secret header), opened
 * on the first subscription and reopened with capped, jittered backoff when it drops.
 */
export function createHttpMonitor(options: HttpMonitorOptions = {}): MonitorBridge & { close(): void } {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const getSecret = options.getSecret ?? (() => sessionStorage.getItem(SECRET_STORAGE_KEY));
  const minBackoff = options.minBackoffMs ?? 500;
  // Loopback is cheap to ask: a restarted app is found within seconds, not half a minute.
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  const random = options.random ?? Math.random;

  let nextId = 1;
  // One emitter per event name (a listener that throws is reported; the others still hear it).
  const events = new Map<string, Emitter<unknown>>();
  const eventOf = (event: string): Emitter<unknown> => {
    let emitter = events.get(event);
    if (!emitter) events.set(event, (emitter = new Emitter({ onListenerError: (error) => console.error(`listener of "${event}" failed`, error) })));
    return emitter;
  };
  const connection = new Emitter<boolean>({ onListenerError: (error) => console.error('a connection listener failed', error) });
  let streamAbort: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let attempts = 0;
  let connected = false;
  let closed = false;

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    const secret = getSecret();
    return secret ? { ...extra, [SECRET_HEADER]: secret } : extra;
  }

  async function send(channel: string, args?: unknown): Promise<unknown> {
    const request: RequestMessage = { type: 'request', id: nextId++, channel, args: args ?? {} };
    let response: Response;
    try {
      response = await doFetch(`${base}/api/invoke`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(request),
        cache: 'no-store',
      });
    } catch {
      throw ipcError('unavailable', 'Breach Monitor is not answering. Is it still running?');
    }
    if (response.status === 401) throw ipcError('internal', 'This window is no longer connected to Breach Monitor. Open the link it printed when it started.');
    if (!response.ok) throw ipcError('internal', `Breach Monitor refused the request (HTTP ${response.status}).`);
    let message: ResponseMessage;
    try {
      message = (await response.json()) as ResponseMessage;
    } catch {
      throw ipcError('internal', 'Breach Monitor sent an answer this window cannot read.');
    }
    if (message.ok) return message.result;
    throw ipcError(message.error.code, message.error.message, message.error.issues);
  }

  const preloaded = new Map<string, Promise<unknown>>();
  for (const channel of options.preload ?? []) {
    const answer = send(channel, {});
    // Its taker handles a failure; one never taken must not surface as an unhandled rejection.
    answer.catch(() => {});
    preloaded.set(channel, answer);
  }

  function invoke(channel: string, args?: unknown): Promise<unknown> {
    const early = preloaded.get(channel);
    if (early && isEmptyObject(args)) {
      preloaded.delete(channel);
      return early;
    }
    return send(channel, args);
  }

  function setConnected(value: boolean): void {
    if (connected === value) return;
    connected = value;
    connection.fire(value);
  }

  function dispatch(event: string, data: string): void {
    const emitter = events.get(event);
    if (!emitter || emitter.listenerCount === 0) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    emitter.fire(payload);
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer !== undefined) return;
    const ceiling = Math.min(maxBackoff, minBackoff * 2 ** attempts);
    attempts += 1;
    // Full jitter: many windows reconnecting after a restart should not arrive together.
    const delay = Math.max(minBackoff / 2, Math.round(ceiling * random()));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void openStream();
    }, delay);
  }

  async function openStream(): Promise<void> {
    if (closed || streamAbort) return;
    const abort = new AbortController();
    streamAbort = abort;
    try {
      const response = await doFetch(`${base}/api/events`, { headers: headers({ accept: 'text/event-stream' }), signal: abort.signal, cache: 'no-store' });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      attempts = 0;
      setConnected(true);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser((message) => dispatch(message.event, message.data));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(value);
      }
    } catch {
      // Dropped or refused: fall through to reconnect; the UI hears it through onConnection.
    } finally {
      if (streamAbort === abort) streamAbort = undefined;
    }
    if (closed) return;
    setConnected(false);
    scheduleReconnect();
  }

  return {
    invoke,
    on(event, listener) {
      const registration = eventOf(event).event(listener);
      void openStream();
      return () => registration.dispose();
    },
    onConnection(listener) {
      const registration = connection.event(listener);
      if (connected) listener(true);
      void openStream();
      return () => registration.dispose();
    },
    close() {
      closed = true;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      streamAbort?.abort();
      connection.dispose();
      for (const emitter of events.values()) emitter.dispose();
    },
  };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

let shared: ReturnType<typeof createHttpMonitor> | undefined;

/**
 * The page's one HTTP transport: made by its first caller (`early.ts` with what to preload, or
 * `core.ts` when nothing was preloaded), then the same for every caller.
 */
export function sharedHttpMonitor(options: HttpMonitorOptions = {}): MonitorBridge {
  return (shared ??= createHttpMonitor(options));
}
