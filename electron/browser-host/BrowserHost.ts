import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchRequest, MAX_BATCH, STREAM_HELLO_EVENT, type BatchResponse, type EventMark, type StreamHello } from '../../shared/ipc/protocol.ts';
import { CONTENT_SECURITY_POLICY } from '../../shared/ipc/security.ts';
import type { EventBus } from '../core/events/EventBus.ts';
import type { Router } from '../core/handlers/Router.ts';
import { appLoadingTags, BOOTSTRAP_CSP, bootstrapHtml } from './bootstrap.ts';
import { RequestGuard } from './guards.ts';
import { resolvePublicAsset, resolveRendererFile } from './staticFiles.ts';

const MAX_BODY = 1024 * 1024;
const HEARTBEAT_MS = 15_000;
/**
 * Bytes an event stream may hold unsent (its reader is not reading: a frozen or suspended tab).
 * Past it the stream is cut; the page reconnects and asks again for everything
 * (renderer/state/connect.ts), as after any drop.
 */
export const MAX_STREAM_BUFFER_BYTES = 4 * 1024 * 1024;
/** Event streams open at once (one per window of the app); one more is refused with 503 until one closes. */
export const MAX_EVENT_STREAMS = 32;

export interface BrowserHostOptions {
  router: Router;
  bus: EventBus;
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  port?: number;
  /** For tests; a fresh random secret per launch otherwise. It never leaves this process. */
  secret?: string;
  /** Milliseconds since the epoch, for launch-code expiry; for tests. */
  now?: () => number;
  /**
   * For tests: every message between the page and the core as it crosses here, the request
   * bodies the page sent and the answers and events as written to it, so a test can search all
   * of them (e.g. for a password that must never reach the page).
   */
  onTraffic?: (direction: 'page-to-core' | 'core-to-page', text: string) => void;
}

export interface BrowserHost {
  origin: string;
  /**
   * A new address to open: a one-time launch code, valid for two minutes, rides in the
   * fragment (which browsers never send); the page exchanges it for a session and removes it.
   */
  launchUrl(): string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * The core's channels over HTTP on 127.0.0.1 for a browser: `POST /api/invoke` with the request
 * envelope, `GET /api/events` as server-sent events, the built renderer under `/app/`.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const guard = new RequestGuard(secret, port, options.now ? { now: options.now } : {});
  /** Open event streams and how to detach each from the bus. */
  const streams = new Map<ServerResponse, () => void>();
  // Counts what the bus has sent, so answers and streams can say where they stood (EventMark).
  // Subscribed first: a stream subscribed later hears each event after this count includes it.
  const instance = randomBytes(6).toString('base64url');
  let eventsSent = 0;
  const counting = options.bus.subscribe(() => void eventsSent++);
  const eventMark = (): EventMark => `${instance}.${eventsSent}`;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'The app could not answer this request.');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = guard.checkOrigin(req);
    if (refusal) return refuse(res, 403, `Refused: ${refusal}.`);
    const { pathname } = new URL(req.url ?? '/', 'http://host.invalid');
    const method = req.method ?? 'GET';

    if (pathname === '/' && method === 'GET') {
      // Read on each launch, so a rebuilt renderer is the one the next page loads.
      const index = await resolveRendererFile(options.rendererDir, '/index.html');
      if (!index) return refuse(res, 500, 'The app’s page is missing: build the renderer (npm run build).');
      return send(res, 200, 'text/html; charset=utf-8', bootstrapHtml(appLoadingTags(index.body.toString('utf8'))), { 'cache-control': 'no-store', 'content-security-policy': BOOTSTRAP_CSP });
    }
    if (pathname === '/__session' && method === 'POST') {
      // A launch code starts a new session (once); a page reloading sends its session token again.
      const session = guard.redeemLaunchCode(req) ?? guard.sessionTokenOf(req);
      if (!session) return refuse(res, 401, 'Refused: this link was already used or has expired.');
      return send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ session }), { 'set-cookie': guard.sessionCookie(session), 'cache-control': 'no-store' });
    }

    if (pathname === '/app' || pathname.startsWith('/app/')) {
      if (method !== 'GET' && method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
      // The bundler's hashed code and styles hold no data and are the same for everyone: served
      // without the session, so the bootstrap page fetches them while it exchanges its code. The
      // Host, Origin and Sec-Fetch-Site checks above still stand before them; same-origin
      // resource policy and nosniff come with every answer (SECURITY_HEADERS).
      const asset = await resolvePublicAsset(options.rendererDir, pathname.slice('/app'.length));
      if (asset) return send(res, 200, asset.type, asset.body);
      if (!guard.hasSession(req)) return refuse(res, 401, 'Refused: open the link Breach Monitor printed when it started.');
      const file = await resolveRendererFile(options.rendererDir, pathname.slice('/app'.length) || '/');
      if (!file) return refuse(res, 404, 'Not found.');
      return send(res, 200, file.type, file.body);
    }

    if (pathname.startsWith('/api/')) {
      if (!guard.hasSecretHeader(req)) return refuse(res, 401, 'Refused: missing or wrong key.');
      if (pathname === '/api/invoke' && method === 'POST') return invoke(req, res);
      if (pathname === '/api/batch' && method === 'POST') return batch(req, res);
      if (pathname === '/api/events' && method === 'GET') return openEventStream(res);
    }
    refuse(res, 404, 'Not found.');
  }

  /** The request's body parsed as JSON (`undefined` when it is not JSON), or a refusal already sent (false). */
  async function jsonBody(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | false> {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      refuse(res, 415, 'Expected JSON.');
      return false;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) {
        refuse(res, 413, 'Request too large.');
        return false;
      }
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    options.onTraffic?.('page-to-core', text);
    try {
      return { body: JSON.parse(text) as unknown };
    } catch {
      return { body: undefined };
    }
  }

  async function invoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const message = await jsonBody(req, res);
    if (!message) return;
    // Not JSON: the router answers "malformed-message" with its reason.
    const response = JSON.stringify(await options.router.dispatch(message.body));
    options.onTraffic?.('core-to-page', response);
    send(res, 200, 'application/json; charset=utf-8', response, { 'cache-control': 'no-store' });
  }

  /** Several envelopes in one round trip (a page's first answers), each answered as `invoke` would, with the event mark before them. */
  async function batch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const message = await jsonBody(req, res);
    if (!message) return;
    const parsed = BatchRequest.safeParse(message.body);
    if (!parsed.success)
      return refuse(
        res,
        400,
        `Expected {"requests": [1 to ${MAX_BATCH} request envelopes]}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}.`,
      );
    // Taken before any answer is computed: an event sent while they are computed moves the
    // count past this mark, so a stream opened later cannot claim nothing happened since.
    const mark = eventMark();
    const responses = await Promise.all(parsed.data.requests.map((request) => options.router.dispatch(request)));
    const answer = JSON.stringify({ mark, responses } satisfies BatchResponse);
    options.onTraffic?.('core-to-page', answer);
    send(res, 200, 'application/json; charset=utf-8', answer, { 'cache-control': 'no-store' });
  }

  function openEventStream(res: ServerResponse): void {
    // Refused rather than the oldest closed: windows past the cap would otherwise take turns closing each other.
    if (streams.size >= MAX_EVENT_STREAMS) return refuse(res, 503, `Refused: ${MAX_EVENT_STREAMS} windows of the app are already open; close one.`);
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    // A stream that has ended gets nothing more: events can still be emitted while it closes.
    // One whose reader stopped is cut once its unsent bytes pass the bound, never kept without end.
    const write = (text: string) => {
      if (res.writableEnded || res.destroyed) return;
      options.onTraffic?.('core-to-page', text);
      res.write(text);
      // Its 'close' then detaches it from the bus.
      if (res.writableLength > MAX_STREAM_BUFFER_BYTES) res.destroy();
    };
    // The mark and the subscription in one synchronous step: every event after the mark reaches
    // this stream, none before it does.
    const hello: StreamHello = { mark: eventMark() };
    const subscription = options.bus.subscribe((event, payload) => write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`));
    write(`event: ${STREAM_HELLO_EVENT}\ndata: ${JSON.stringify(hello)}\n\n`);
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const detach = () => {
      clearInterval(heartbeat);
      subscription.dispose();
      streams.delete(res);
    };
    streams.set(res, detach);
    res.on('close', detach);
  }

  return {
    origin: `http://127.0.0.1:${port}`,
    launchUrl: () => `http://127.0.0.1:${port}/#code=${guard.issueLaunchCode()}`,
    async close() {
      counting.dispose();
      for (const [stream, detach] of [...streams]) {
        detach();
        stream.end();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  send(res, status, 'text/plain; charset=utf-8', message + '\n', { 'cache-control': 'no-store' });
}
