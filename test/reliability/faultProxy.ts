// A loopback HTTP proxy in front of the reference service that injects the failures the
// outbox must survive: connections dropped before the service sees a request or after it
// committed one, 500s, 429 with Retry-After, and a 401 (the client refreshes and retries).
// It also logs every resolutions request the service committed, so a harness can tell a
// replayed stale intent from a lost one.
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyFault = 'drop-before' | 'drop-after' | 'server-error' | 'rate-limited' | 'unauthorized';
export const PROXY_FAULTS: readonly ProxyFault[] = ['drop-before', 'drop-after', 'server-error', 'rate-limited', 'unauthorized'];

export interface CommittedResolutions {
  /** Order in which the service answered. */
  seq: number;
  items: { breachId: string; dataClasses: string[]; resolved: boolean; emails?: string[] }[];
}

export interface FaultProxyOptions {
  /** The service's origin, e.g. `http://127.0.0.1:6060`. */
  target: string;
  /** Called for every API request; the fault to inject, if any. */
  decide(request: { method: string; path: string }): ProxyFault | undefined;
  retryAfterSeconds?: number;
  /**
   * Called when a request is about to be forwarded (`before`) and when the service has answered
   * it (`after`, so a resolutions request is committed); the proxy waits for the returned
   * promise. Lets a harness kill the client at exactly those points.
   */
  checkpoint?(request: { method: string; path: string; phase: 'before' | 'after' }): Promise<void> | void;
}

export interface FaultProxy {
  origin: string;
  /** Faults injected so far, by kind. */
  readonly injected: Record<ProxyFault, number>;
  /** Of those, the ones injected into resolutions requests (a flush), by kind. */
  readonly injectedIntoFlush: Record<ProxyFault, number>;
  /** Resolutions requests the service answered 204, in order. */
  readonly committed: CommittedResolutions[];
  /** API requests whose client went away before the answer (a killed client process). */
  readonly abandoned: { count: number; resolutions: number };
  close(): Promise<void>;
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const injected = Object.fromEntries(PROXY_FAULTS.map((f) => [f, 0])) as Record<ProxyFault, number>;
  const injectedIntoFlush = Object.fromEntries(PROXY_FAULTS.map((f) => [f, 0])) as Record<ProxyFault, number>;
  const committed: CommittedResolutions[] = [];
  const abandoned = { count: 0, resolutions: 0 };
  let seq = 0;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0]!;
      const fault = path.startsWith('/api/') ? options.decide({ method, path }) : undefined;
      if (fault) injected[fault]++;
      if (fault && path.endsWith('/resolutions')) injectedIntoFlush[fault]++;
      if (fault === 'drop-before') {
        req.socket.destroy();
        return;
      }
      if (fault === 'server-error') return problem(res, 500, 'injected: the service failed');
      if (fault === 'rate-limited') return problem(res, 429, 'injected: slow down', { 'retry-after': String(options.retryAfterSeconds ?? 1) });
      if (fault === 'unauthorized') return problem(res, 401, 'injected: token rejected', { 'www-authenticate': 'Bearer error="invalid_token"' });
      res.on('close', () => {
        if (!res.writableFinished && fault !== 'drop-after') {
          abandoned.count++;
          if (path.endsWith('/resolutions')) abandoned.resolutions++;
        }
      });
      void forward(req, res, method, path, body, fault);
    });
  });

  async function forward(req: IncomingMessage, res: ServerResponse, method: string, path: string, body: Buffer, fault: ProxyFault | undefined): Promise<void> {
    await options.checkpoint?.({ method, path, phase: 'before' });
    if (req.socket.destroyed) return;
    const headers = { ...req.headers, host: target.host };
    delete headers.connection;
    const answer = await new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer } | undefined>((resolve) => {
      const upstream = httpRequest({ host: target.hostname, port: target.port, method, path: req.url, headers, agent }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(parts) }));
      });
      upstream.on('error', () => resolve(undefined));
      upstream.end(body);
    });
    if (!answer) {
      req.socket.destroy();
      return;
    }
    if (method === 'POST' && path.endsWith('/user/breaches/resolutions') && answer.status === 204) {
      committed.push({ seq: ++seq, items: JSON.parse(body.toString('utf8')) as CommittedResolutions['items'] });
    }
    await options.checkpoint?.({ method, path, phase: 'after' });
    if (fault === 'drop-after' || req.socket.destroyed) {
      req.socket.destroy();
      return;
    }
    const out = { ...answer.headers };
    delete out.connection;
    delete out['keep-alive'];
    res.writeHead(answer.status, out);
    res.end(answer.body);
  }
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    injected,
    injectedIntoFlush,
    committed,
    abandoned,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

function problem(res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ type: 'about:blank', title: detail, status, detail });
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}
