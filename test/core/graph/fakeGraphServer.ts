// A `/v2/node` endpoint on 127.0.0.1 for client tests: it decodes each request the way the
// interface defines it (GET query or POST body, key in `key` or `X-API-Key`), records it, and
// answers whatever the test's handler says — a recorded response, a scripted failure, a stall.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  nodes: string[];
  property: string;
  nextToken: string | undefined;
  key: string | undefined;
  /** Where the key came: `query` (GET) or `header` (POST). */
  keyIn: 'query' | 'header' | undefined;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Hold the answer until this settles (cancellation tests). */
  hold?: Promise<void>;
}

export interface FakeGraphServer {
  /** The base URL: the client appends `/v2/node`. */
  url: string;
  requests: SeenRequest[];
  /** How many answers were completely sent. */
  answered(): number;
  close(): Promise<void>;
}

export async function startFakeGraphServer(handler: (request: SeenRequest) => Answer): Promise<FakeGraphServer> {
  const requests: SeenRequest[] = [];
  let answered = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake.invalid');
      if (url.pathname !== '/v2/node') return send(res, { status: 404, body: { message: 'not found' } });
      let seen: SeenRequest;
      if (req.method === 'GET') {
        const key = url.searchParams.get('key') ?? undefined;
        seen = {
          method: 'GET',
          nodes: url.searchParams.getAll('nodes'),
          property: url.searchParams.get('property') ?? '',
          nextToken: url.searchParams.get('nextToken') ?? undefined,
          key,
          keyIn: key ? 'query' : undefined,
        };
      } else {
        const chunks: Buffer[] = [];
        for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { nodes?: string[]; property?: string; nextToken?: string };
        const key = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined;
        seen = { method: req.method ?? '', nodes: body.nodes ?? [], property: body.property ?? '', nextToken: body.nextToken, key, keyIn: key ? 'header' : undefined };
      }
      requests.push(seen);
      const answer = handler(seen);
      if (answer.hold) await answer.hold;
      res.once('finish', () => answered++);
      send(res, answer);
    })().catch((error: unknown) => send(res, { status: 500, body: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answered: () => answered,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(body);
}
