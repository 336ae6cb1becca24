import { Emitter } from '../../shared/base/Emitter.ts';
import { BatchResponse, STREAM_HELLO_EVENT, StreamHello, type EventMark, type IpcError, type RequestMessage, type ResponseMessage } from '../../shared/ipc/protocol.ts';
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
   * Requests to send at once, each inner list as one batch (`POST /api/batch`, one round trip):
   * the first `invoke` of the same channel with the same arguments takes that answer instead of
   * asking again, until the event stream first opens (from then on events keep the window
   * current, and an answer not taken by then may be old). The app asks what its first screen
   * needs this way while the rest of its bundle is still evaluating (`early.ts`).
   */
  preload?: readonly (readonly PreloadRequest[])[];
}

/** A request to send before anyone asks: a channel and its arguments (`{}` when left out). */
export interface PreloadRequest {
  channel: string;
  args?: unknown;
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
export function createHttpMonitor(options: HttpMonitorOptions = {}): MonitorBridge & { close(): void; missedSinceFirstAnswers(): boolean } {
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

  /** POSTs `body` as JSON to `path`; resolves with the parsed answer, rejects with an IpcError. */
  async function post(path: string, body: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw ipcError('unavailable', 'Breach Monitor is not answering. Is it still running?');
    }
    if (response.status === 401) throw ipcError('internal', 'This window is no longer connected to Breach Monitor. Open the link it printed when it started.');
    if (!response.ok) throw ipcError('internal', `Breach Monitor refused the request (HTTP ${response.status}).`);
    try {
      return (await response.json()) as unknown;
    } catch {
      throw unreadable();
    }
  }

  function request(channel: string, args: unknown): RequestMessage {
    return { type: 'request', id: nextId++, channel, args: args ?? {} };
  }

  async function send(channel: string, args?: unknown): Promise<unknown> {
    return resultOf((await post('/api/invoke', request(channel, args))) as ResponseMessage);
  }

  /** The marks of the batches of first answers, in the order sent; undefined until a batch is answered. */
  const batchMarks: (EventMark | undefined)[] = [];
  /** Until the first stream's hello says otherwise, the window may have missed a change. */
  let missedSinceFirstAnswers = true;
  let greeted = false;

  /** One round trip for several requests; resolves with their answers in order. */
  async function sendBatch(requests: readonly PreloadRequest[]): Promise<ResponseMessage[]> {
    const sent = requests.map((asked) => request(asked.channel, asked.args));
    const index = batchMarks.push(undefined) - 1;
    const answer = BatchResponse.safeParse(await post('/api/batch', { requests: sent }));
    if (!answer.success || answer.data.responses.length !== sent.length || answer.data.responses.some((response, i) => response.id !== sent[i]!.id)) throw unreadable();
    batchMarks[index] = answer.data.mark;
    return answer.data.responses;
  }

  /** Preloaded answers by channel and arguments, until taken (once) or the stream opens. */
  const preloaded = new Map<string, Promise<unknown>>();
  for (const requests of options.preload ?? []) {
    if (requests.length === 0) continue;
    const answers = sendBatch(requests);
    requests.forEach((asked, i) => {
      const answer = answers.then((responses) => resultOf(responses[i]!));
      // Its taker handles a failure; one never taken must not surface as an unhandled rejection.
      answer.catch(() => {});
      preloaded.set(requestKey(asked.channel, asked.args ?? {}), answer);
    });
  }

  function invoke(channel: string, args?: unknown): Promise<unknown> {
    const key = requestKey(channel, args ?? {});
    const early = preloaded.get(key);
    if (early) {
      preloaded.delete(key);
      return early;
    }
    return send(channel, args);
  }

  /**
   * The stream's first message: where the host's events stood as it opened. The first answers
   * are current if every batch of them was computed at that same mark (no event in between);
   * answers not taken by now are dropped, since events, not they, keep the window current.
   */
  function greet(data: string | undefined): void {
    if (greeted) return;
    greeted = true;
    let hello: StreamHello | undefined;
    try {
      hello = data === undefined ? undefined : StreamHello.parse(JSON.parse(data));
    } catch {
      hello = undefined;
    }
    missedSinceFirstAnswers = !(hello && batchMarks.length > 0 && batchMarks.every((mark) => mark === hello.mark));
    preloaded.clear();
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
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      // Connected once the host's hello (its first message) is read, so a listener asking
      // `missedSinceFirstAnswers` hears the answer that hello gave.
      let first = true;
      const parser = new SseParser((message) => {
        if (first) {
          first = false;
          greet(message.event === STREAM_HELLO_EVENT ? message.data : undefined);
          setConnected(true);
          if (message.event === STREAM_HELLO_EVENT) return;
        }
        dispatch(message.event, message.data);
      });
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
    missedSinceFirstAnswers: () => missedSinceFirstAnswers,
    close() {
      closed = true;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      streamAbort?.abort();
      connection.dispose();
      for (const emitter of events.values()) emitter.dispose();
    },
  };
}

/** A channel's answer from its envelope: the result, or the core's error as an IpcError. */
function resultOf(message: ResponseMessage): unknown {
  if (message.ok) return message.result;
  throw ipcError(message.error.code, message.error.message, message.error.issues);
}

function unreadable(): IpcError {
  return ipcError('internal', 'Breach Monitor sent an answer this window cannot read.');
}

/** A channel and its arguments as one key: object keys sorted, so the same question asked in another key order matches. */
function requestKey(channel: string, args: unknown): string {
  return `${channel}\0${JSON.stringify(args, (_key, value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value))}`;
}

let shared: ReturnType<typeof createHttpMonitor> | undefined;

/**
 * The page's one HTTP transport: made by its first caller (`early.ts` with what to preload, or
 * `core.ts` when nothing was preloaded), then the same for every caller.
 */
export function sharedHttpMonitor(options: HttpMonitorOptions = {}): MonitorBridge {
  return (shared ??= createHttpMonitor(options));
}
