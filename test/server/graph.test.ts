import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Breach } from '../../shared/api/index.ts';
import type { NodeResponse } from '../../shared/graph/index.ts';
import { MemorySecretStore } from '../../electron/core/auth/secrets/MemorySecretStore.ts';
import { mergeNodeResponses } from '../../electron/core/graph/mergeResponses.ts';
import { NodeQueryClient } from '../../electron/core/graph/NodeQueryClient.ts';
import { DEV_GRAPH_KEY, startService, type RunningService } from '../../server/app.ts';
import { parseCommandLine } from '../../server/config.ts';
import { createGraphRoutes } from '../../server/graph/routes.ts';
import { HttpProblem, sendProblem } from '../../server/http/problems.ts';
import { parseRequestTarget } from '../../server/http/requestTarget.ts';
import { asyncBreachStore } from '../../server/breaches/BreachStore.ts';
import { breach, memoryStore } from './store/helpers.ts';

const DEMO = Breach.array().parse(JSON.parse(readFileSync(new URL('../../resources/demo-catalog.json', import.meta.url), 'utf8')));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
async function service(input: { dev?: boolean; graphKey?: string } = {}): Promise<RunningService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'graph-service-'));
  dirs.push(dataDir);
  return startService({ port: 0, dataDir, logLevel: 'silent', demo: true, ...input });
}

function get(origin: string, params: Record<string, string | string[]>): Promise<Response> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) query.append(name, v);
  return fetch(`${origin}/v2/node?${query}`);
}
function post(origin: string, body: unknown, key?: string): Promise<Response> {
  return fetch(`${origin}/v2/node`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: JSON.stringify(body) });
}
const typeOfCount = (response: NodeResponse) => response.data.Breach?.arcs?.typeOf?.nodes.length;

describe('GET and POST /v2/node on the reference service (--dev, demo catalog)', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await service({ dev: true });
  });
  afterAll(async () => {
    await running.close();
  });

  it('answers GET with the key as query parameter and POST with X-API-Key, over the catalog', async () => {
    const viaGet = await get(running.url, { key: DEV_GRAPH_KEY, nodes: 'Breach', property: '<-typeOf' });
    expect(viaGet.status).toBe(200);
    expect(viaGet.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await viaGet.json()) as NodeResponse;
    expect(typeOfCount(body)).toBe(await running.store.catalogSize());
    expect(body.nextToken).toBeUndefined();

    const viaPost = await post(running.url, { nodes: ['Breach'], property: '<-typeOf' }, DEV_GRAPH_KEY);
    expect(viaPost.status).toBe(200);
    expect(await viaPost.json()).toEqual(body);
  });

  it('answers what the catalog says about a breach', async () => {
    const first = DEMO[0]!;
    const response = (await (await post(running.url, { nodes: [first.id, 'nowhere'], property: '->[name, domain, isSensitive]' }, DEV_GRAPH_KEY)).json()) as NodeResponse;
    expect(response.data.nowhere).toEqual({});
    expect(response.data[first.id]).toEqual({
      arcs: {
        domain: { nodes: [{ name: first.domain, types: ['Domain'], dcid: `domain/${first.domain}`, provenanceId: 'breach-catalog' }] },
        isSensitive: { nodes: [{ provenanceId: 'breach-catalog', value: String(first.isSensitive) }] },
        name: { nodes: [{ provenanceId: 'breach-catalog', value: first.id }] },
      },
    });
  });

  it('refuses without a key and with a wrong one: 401 problem+json', async () => {
    for (const response of [
      await get(running.url, { nodes: 'Breach', property: '<-typeOf' }),
      await post(running.url, { nodes: ['Breach'], property: '<-typeOf' }),
      await get(running.url, { key: 'wrong', nodes: 'Breach', property: '<-typeOf' }),
      await post(running.url, { nodes: ['Breach'], property: '<-typeOf' }, 'dev-key2'),
    ]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('www-authenticate')).toMatch(/^ApiKey /);
      const problem = (await response.json()) as { status: number; detail: string };
      expect(problem.status).toBe(401);
      expect(problem.detail).toMatch(/API key (is required|is not valid)/);
    }
  });

  it("answers a bad expression with 400 and the parser's message", async () => {
    const response = await get(running.url, { key: DEV_GRAPH_KEY, nodes: 'Breach', property: '->na me' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      status: 400,
      detail: 'expected alternating arrows and properties at position 5',
      errors: [{ pointer: '/property', message: 'expected alternating arrows and properties at position 5' }],
    });
    const unclosed = await post(running.url, { nodes: ['Breach'], property: '<-containedInPlace+{typeOf:County' }, DEV_GRAPH_KEY);
    expect(await unclosed.json()).toMatchObject({ status: 400, detail: 'unclosed "{" at position 19' });
  });

  it('answers a bad request shape with 400 naming the field, and other methods with 405', async () => {
    const noNodes = await get(running.url, { key: DEV_GRAPH_KEY, property: '->name' });
    expect(await noNodes.json()).toMatchObject({ status: 400, detail: 'invalid query: nodes at least one node is required', errors: [{ pointer: '/nodes', parameter: 'nodes' }] });
    const extra = await post(running.url, { nodes: ['Breach'], property: '->name', limit: 5 }, DEV_GRAPH_KEY);
    expect(extra.status).toBe(400);
    const put = await fetch(`${running.url}/v2/node`, { method: 'PUT', headers: { 'x-api-key': DEV_GRAPH_KEY } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('follows a catalog change', async () => {
    const before = typeOfCount((await (await post(running.url, { nodes: ['Breach'], property: '<-typeOf' }, DEV_GRAPH_KEY)).json()) as NodeResponse)!;
    const added = await fetch(`${running.url}/__dev/breaches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(breach('GraphNewcomer', { domain: 'newcomer.example' })),
    });
    expect(added.status).toBe(201);
    const after = (await (await post(running.url, { nodes: ['domain/newcomer.example'], property: '<-domain' }, DEV_GRAPH_KEY)).json()) as NodeResponse;
    expect(after.data['domain/newcomer.example']!.arcs!.domain!.nodes.map((n) => n.dcid)).toEqual(['GraphNewcomer']);
    expect(typeOfCount((await (await post(running.url, { nodes: ['Breach'], property: '<-typeOf' }, DEV_GRAPH_KEY)).json()) as NodeResponse)).toBe(before + 1);
  });

  it('is what the desktop client speaks, over GET and POST', async () => {
    const secrets = new MemorySecretStore();
    for (const method of ['GET', 'POST'] as const) {
      const client = new NodeQueryClient({ baseUrl: running.url, secrets, method });
      await client.setApiKey(DEV_GRAPH_KEY);
      const result = await client.query({ nodes: ['dataClass/email-addresses'], property: '<-dataClass' });
      expect(result).toMatchObject({ source: 'network', complete: true, pages: 1 });
      const expected = DEMO.filter((b) => b.dataClasses.includes('Email addresses')).length;
      expect(result.response.data['dataClass/email-addresses']!.arcs!.dataClass!.nodes.length).toBeGreaterThanOrEqual(expected);
    }
  });
});

describe('the graph key', () => {
  it('without --dev and without a key, every request is refused', async () => {
    const running = await service();
    try {
      const response = await get(running.url, { key: DEV_GRAPH_KEY, nodes: 'Breach', property: '<-typeOf' });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { detail: string }).detail).toBe('the graph endpoint is disabled: the service was started without --graph-key or GRAPH_API_KEY');
    } finally {
      await running.close();
    }
  });

  it('a configured key replaces dev-key', async () => {
    const running = await service({ dev: true, graphKey: 's3cret' });
    try {
      expect((await get(running.url, { key: DEV_GRAPH_KEY, nodes: 'Breach', property: '<-typeOf' })).status).toBe(401);
      expect((await get(running.url, { key: 's3cret', nodes: 'Breach', property: '<-typeOf' })).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('comes from --graph-key over GRAPH_API_KEY', () => {
    expect(parseCommandLine(['--graph-key', 'flag'], { GRAPH_API_KEY: 'env' }).config.graphKey).toBe('flag');
    expect(parseCommandLine([], { GRAPH_API_KEY: 'env' }).config.graphKey).toBe('env');
    expect(parseCommandLine([], {}).config.graphKey).toBeUndefined();
  });
});

/** The graph routes alone on a loopback server; `close` stops it and the routes. */
async function serveRoutes(handle: ReturnType<typeof createGraphRoutes>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(
    (req, res) => void handle(req, res, parseRequestTarget(req)).catch((error: unknown) => sendProblem(res, error instanceof HttpProblem ? error : new HttpProblem(500, String(error)))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      handle.close();
    },
  };
}

/** The store the service would hand the routes, counting how often they read the whole catalog. */
function countingCatalogReads(store: ReturnType<typeof memoryStore>) {
  const counted = asyncBreachStore(store);
  const listBreaches = counted.listBreaches.bind(counted);
  const reads = { count: 0 };
  counted.listBreaches = () => (reads.count++, listBreaches());
  return { counted, reads };
}

describe('the graph follows the catalog, not the people', () => {
  it('reads the catalog again only when the catalog changed: resolutions and exposures cost the graph nothing', async () => {
    const store = memoryStore(DEMO);
    const { counted, reads } = countingCatalogReads(store);
    const { origin, close } = await serveRoutes(createGraphRoutes({ store: counted, apiKey: 'k' }));
    const breachIds = async () => ((await (await post(origin, { nodes: ['Breach'], property: '<-typeOf' }, 'k')).json()) as NodeResponse).data.Breach!.arcs!.typeOf!.nodes.map((n) => n.dcid);
    try {
      await breachIds();
      expect(reads.count).toBe(1);
      store.setExposures('someone@example.com', [DEMO[0]!.id]);
      store.applyResolutionChanges([{ email: 'someone@example.com', breachId: DEMO[0]!.id, dataClass: DEMO[0]!.dataClasses[0]!, resolved: true }], new Date().toISOString());
      await breachIds();
      expect(reads.count).toBe(1);
      store.putBreach(breach('ZzGraphLate'));
      expect(await breachIds()).toContain('ZzGraphLate');
      expect(reads.count).toBe(2);
    } finally {
      await close();
      store.close();
    }
  });
});

describe('the graph follows one breach at the cost of one breach (the catalog log)', () => {
  it('applies single writes without reading the catalog, answering as a whole build does; reads it whole after a bulk load', async () => {
    const store = memoryStore(DEMO);
    const { counted, reads } = countingCatalogReads(store);
    const { origin, close } = await serveRoutes(createGraphRoutes({ store: counted, catalogLog: store, apiKey: 'k' }));
    const ask = async (nodes: string[], property: string) => ((await (await post(origin, { nodes, property }, 'k')).json()) as NodeResponse).data;
    /** The same questions of a graph built whole from the catalog as it is now. */
    const wholeAnswer = async (nodes: string[], property: string) => {
      const fresh = await serveRoutes(createGraphRoutes({ store: asyncBreachStore(memoryStore(store.listBreaches())), apiKey: 'k' }));
      try {
        return ((await (await post(fresh.origin, { nodes, property }, 'k')).json()) as NodeResponse).data;
      } finally {
        await fresh.close();
      }
    };
    try {
      await ask(['Breach'], '<-typeOf');
      expect(reads.count).toBe(1);
      // A new breach with a new domain and a data class spelled differently from the catalog's.
      store.putBreach(breach('AaaGraphFirst', { domain: 'Graph-First.example', dataClasses: ['email ADDRESSES', 'Graph-only secrets'] }));
      // And a change of an existing breach's domain.
      store.putBreach({ ...DEMO[1]!, domain: 'moved.example' });
      const questions: [string[], string][] = [
        [['Breach'], '<-typeOf'],
        [['AaaGraphFirst', DEMO[1]!.id], '->*'],
        [['dataClass/email-addresses', 'dataClass/graph-only-secrets', 'domain/graph-first.example', 'domain/moved.example', `domain/${DEMO[1]!.domain}`], '<-*'],
        [['dataClass/email-addresses', 'dataClass/graph-only-secrets', 'domain/graph-first.example'], '->name'],
      ];
      for (const [nodes, property] of questions) expect(await ask(nodes, property)).toEqual(await wholeAnswer(nodes, property));
      // The first breach in id order names a node: the new one, in its own spelling.
      expect((await ask(['dataClass/email-addresses'], '->name'))['dataClass/email-addresses']!.arcs!.name!.nodes[0]!.value).toBe('email ADDRESSES');
      expect(reads.count).toBe(1);
      store.putBreaches([breach('ZzBulk1'), breach('ZzBulk2')]);
      expect(JSON.stringify(await ask(['Breach'], '<-typeOf'))).toContain('ZzBulk2');
      expect(reads.count).toBe(2);
    } finally {
      await close();
      store.close();
    }
  });
});

describe('nextToken over HTTP (routes with a page size of 7)', () => {
  const store = memoryStore(DEMO);
  const handle = createGraphRoutes({ store: asyncBreachStore(store), apiKey: 'k', pageSize: 7 });
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      handle(req, res, parseRequestTarget(req))
        .then((handled) => {
          if (!handled) throw new HttpProblem(404, 'not here');
        })
        .catch((error: unknown) => sendProblem(res, error instanceof HttpProblem ? error : new HttpProblem(500, String(error))));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    handle.close();
    store.close();
  });

  async function follow(send: (token: string | undefined) => Promise<Response>): Promise<NodeResponse[]> {
    const pages: NodeResponse[] = [];
    let token: string | undefined;
    do {
      const response = await send(token);
      expect(response.status).toBe(200);
      pages.push((await response.json()) as NodeResponse);
      token = pages.at(-1)!.nextToken;
    } while (token);
    return pages;
  }

  it('pages the whole catalog by GET (query nextToken) and by POST (body nextToken) alike', async () => {
    const viaGet = await follow((token) => get(origin, { key: 'k', nodes: 'Breach', property: '<-typeOf', ...(token ? { nextToken: token } : {}) }));
    const viaPost = await follow((token) => post(origin, { nodes: ['Breach'], property: '<-typeOf', ...(token ? { nextToken: token } : {}) }, 'k'));
    expect(viaGet).toHaveLength(Math.ceil(DEMO.length / 7));
    expect(viaPost).toEqual(viaGet);
    const merged = mergeNodeResponses(viaGet);
    expect(merged.data.Breach!.arcs!.typeOf!.nodes.map((n) => n.dcid)).toEqual(DEMO.map((b) => b.id).sort());
  });

  it('keeps a token across writes that leave the catalog alone; refuses it once the catalog changed, or when altered', async () => {
    const first = (await (await post(origin, { nodes: ['Breach'], property: '<-typeOf' }, 'k')).json()) as NodeResponse;
    store.setExposures('someone@example.com', [DEMO[0]!.id]);
    expect((await post(origin, { nodes: ['Breach'], property: '<-typeOf', nextToken: first.nextToken }, 'k')).status).toBe(200);

    // The first character (the payload's): the MAC's last base64url character has padding bits, so A↔B there can decode to the same bytes.
    const altered = first.nextToken!.replace(/^./, (c) => (c === 'e' ? 'f' : 'e'));
    expect(await (await post(origin, { nodes: ['Breach'], property: '<-typeOf', nextToken: altered }, 'k')).json()).toMatchObject({
      status: 400,
      detail: 'nextToken was altered or issued by another service',
      errors: [{ pointer: '/nextToken' }],
    });

    store.putBreach(breach('ZzLate'));
    expect(await (await post(origin, { nodes: ['Breach'], property: '<-typeOf', nextToken: first.nextToken }, 'k')).json()).toMatchObject({
      status: 400,
      detail: 'the graph changed since this nextToken was issued; start the query again',
    });
  });
});
