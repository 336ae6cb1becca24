import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeItem, NodeResponse } from '../../../shared/graph/index.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { graphApiKeySecret, NodeQueryClient, NodeQueryError, type NodeQueryClientOptions } from '../../../electron/core/graph/NodeQueryClient.ts';
import { QueryCache } from '../../../electron/core/graph/QueryCache.ts';
import { startFakeGraphServer, type Answer, type FakeGraphServer, type SeenRequest } from './fakeGraphServer.ts';
import { memoryGraph } from './helpers.ts';
import { loadRecordings, recordingsMissing, type Recording } from './recordings.ts';
import { eventually } from '../../support/waitFor.ts';

const KEY = 'test-key';
let server: FakeGraphServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(handler: (request: SeenRequest) => Answer, options: Partial<NodeQueryClientOptions> = {}) {
  server = await startFakeGraphServer((request) => (request.key === KEY ? handler(request) : { status: 401, body: { code: 16, message: "Method doesn't allow unregistered callers" } }));
  const secrets = new MemorySecretStore();
  const sleeps: number[] = [];
  const client = new NodeQueryClient({
    baseUrl: server.url,
    secrets,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 1,
    ...options,
  });
  await client.setApiKey(KEY);
  return { client, secrets, sleeps, server };
}

const sameNodes = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

describe.skipIf(recordingsMissing)('NodeQueryClient against the real recordings (../shared/fixtures/datacommons; skipped when absent)', () => {
  const recordings = recordingsMissing ? new Map<string, Recording>() : loadRecordings();
  const replay = (request: SeenRequest): Answer => {
    const match = [...recordings.values()].find((r) => sameNodes(r.nodes, request.nodes) && r.property === request.property && r.nextToken === request.nextToken);
    return match ? { status: 200, body: match.response } : { status: 404, body: { message: `no recording for ${JSON.stringify(request)}` } };
  };
  const single = [...recordings.values()].filter((r) => !r.response.nextToken && !r.nextToken).map((r) => r.file);

  it.each(single.flatMap((file) => [[file, 'GET'] as const, [file, 'POST'] as const]))('%s over %s: parsed exactly', async (file, method) => {
    const { client, server } = await clientFor(replay, { method });
    const recording = recordings.get(file)!;
    const result = await client.query({ nodes: recording.nodes, property: recording.property });
    expect(result).toMatchObject({ source: 'network', pages: 1, complete: true });
    expect(result.response).toEqual(recording.response);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method, nodes: recording.nodes, property: recording.property, key: KEY, keyIn: method === 'GET' ? 'query' : 'header' });
  });

  it.each(['GET', 'POST'] as const)('follows nextToken over %s and merges the pages (03, then the rest of 04)', async (method) => {
    const first = recordings.get('03_out_limit5_with_nextToken.json')!;
    const whole = recordings.get('04_out_second_page_request_token.json')!;
    const firstItems = first.response.data['geoId/0649670']!.arcs!.geoOverlaps!.nodes;
    const allItems = whole.response.data['geoId/0649670']!.arcs!.geoOverlaps!.nodes;
    // 03 and 04 are not consecutive pages of one query: the page after 03's token is made here
    // from 04's list (the items 03 did not have), and the test checks that 03's token is sent back verbatim.
    const rest: NodeResponse = { data: { 'geoId/0649670': { arcs: { geoOverlaps: { nodes: allItems.filter((item) => !firstItems.some((f) => f.dcid === item.dcid)) } } } } };
    const { client, server } = await clientFor(
      (request) => {
        if (request.nextToken === undefined) return { status: 200, body: first.response };
        if (request.nextToken === first.response.nextToken) return { status: 200, body: rest };
        return { status: 400, body: { message: 'unknown token' } };
      },
      { method },
    );
    const result = await client.query({ nodes: first.nodes, property: first.property });
    expect(server.requests.map((r) => r.nextToken)).toEqual([undefined, first.response.nextToken]);
    expect(result).toMatchObject({ source: 'network', pages: 2, complete: true });
    expect(result.response).toEqual(whole.response);
  });

  it('starts from a request token (04) and answers that page; continuations are not cached', async () => {
    const recording = recordings.get('04_out_second_page_request_token.json')!;
    const cache = new QueryCache(memoryGraph().database);
    const { client } = await clientFor(replay, { cache });
    const result = await client.query({ nodes: recording.nodes, property: recording.property, nextToken: recording.nextToken });
    expect(result.response).toEqual(recording.response);
    expect(cache.get(client.endpoint, recording.nodes, recording.property)).toBeUndefined();
  });

  it('answers a recorded query offline from the cache once the endpoint is gone, and says so', async () => {
    const recording = recordings.get('07_out_chain_specializationOf_plus.json')!;
    const cache = new QueryCache(memoryGraph().database);
    const { client, server } = await clientFor(replay, { cache, now: () => new Date('2026-02-14T09:30:00Z') });
    expect((await client.query({ nodes: recording.nodes, property: recording.property })).source).toBe('network');
    await server.close();
    const offline = await client.query({ nodes: [...recording.nodes].reverse(), property: ' -> specializationOf + {typeOf: StatVarGroup}' });
    expect(offline).toMatchObject({ source: 'cache', pages: 0, complete: true, fetchedAt: '2026-02-14T09:30:00.000Z' });
    expect(offline.offlineReason).toMatch(/could not be reached/);
    expect(offline.response).toEqual(recording.response);
  });
});

const item = (dcid: string): NodeItem => ({ dcid, provenanceId: 'p' });
const page = (dcids: string[], nextToken?: string): NodeResponse => ({ data: { n: { arcs: { p: { nodes: dcids.map(item) } } } }, ...(nextToken ? { nextToken } : {}) });

describe('NodeQueryClient: retries, limits, cancellation, keys', () => {
  let script: Answer[];
  const scripted = () => script.shift() ?? { status: 200, body: page(['a']) };
  beforeEach(() => {
    script = [];
  });

  it('retries 503 and 429, honouring Retry-After, then answers', async () => {
    script = [{ status: 503, headers: { 'retry-after': '2' } }, { status: 429 }, { status: 502 }];
    const { client, sleeps } = await clientFor(scripted, { backoff: { baseMs: 100, capMs: 1000 } });
    const result = await client.query({ nodes: ['n'], property: '->p' });
    expect(result.response).toEqual(page(['a']));
    expect(sleeps).toEqual([2000, 200, 400]);
  });

  it('gives up after maxAttempts, or at once on a Retry-After beyond maxRetryAfterMs', async () => {
    script = Array.from({ length: 4 }, () => ({ status: 500, body: { message: 'boom' } }));
    const { client } = await clientFor(scripted, { maxAttempts: 3 });
    await expect(client.query({ nodes: ['n'], property: '->p' })).rejects.toMatchObject({ kind: 'unavailable', status: 500, message: expect.stringMatching(/answered 500 after 3 tries/) });
    script = [{ status: 429, headers: { 'retry-after': '3600' } }];
    await expect(client.query({ nodes: ['n'], property: '->p' })).rejects.toMatchObject({ kind: 'unavailable', status: 429, message: expect.stringMatching(/retry after 3600 s\) after 1 tries/) });
  });

  it('stops at the page cap with the token to continue, and does not cache a partial answer', async () => {
    let n = 0;
    const cache = new QueryCache(memoryGraph().database);
    const { client } = await clientFor(() => ({ status: 200, body: page([`x${n}`], `t${++n}`) }), { cache, maxPages: 3 });
    const result = await client.query({ nodes: ['n'], property: '->p' });
    expect(result).toMatchObject({ pages: 3, complete: false });
    expect(result.response).toEqual({ data: { n: { arcs: { p: { nodes: [item('x0'), item('x1'), item('x2')] } } } }, nextToken: 't3' });
    expect(cache.get(client.endpoint, ['n'], '->p')).toBeUndefined();
    const rest = await client.query({ nodes: ['n'], property: '->p', nextToken: result.response.nextToken }, { maxPages: 1 });
    expect(rest.response.data.n!.arcs!.p!.nodes).toEqual([item('x3')]);
  });

  it('refuses a server that repeats a token', async () => {
    const { client } = await clientFor(() => ({ status: 200, body: page(['a'], 'same') }));
    await expect(client.query({ nodes: ['n'], property: '->p' })).rejects.toMatchObject({ kind: 'protocol', message: expect.stringMatching(/same nextToken twice/) });
  });

  it('cancels a request in flight, without falling back to the cache', async () => {
    const cache = new QueryCache(memoryGraph().database);
    const controller = new AbortController();
    // The person cancels once the request has reached the service, which never answers.
    const { client } = await clientFor(
      () => {
        controller.abort();
        return { status: 200, body: page(['a']), hold: new Promise<void>(() => {}) };
      },
      { cache },
    );
    cache.put(client.endpoint, ['n'], '->p', page(['cached']), '2026-01-01T00:00:00.000Z');
    const started = Date.now();
    await expect(client.query({ nodes: ['n'], property: '->p' }, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cancels during a backoff wait', async () => {
    const controller = new AbortController();
    const unavailable = await startFakeGraphServer(() => ({ status: 503 }));
    server = unavailable;
    const secrets = new MemorySecretStore();
    const client = new NodeQueryClient({ baseUrl: unavailable.url, secrets, backoff: { baseMs: 60_000, capMs: 60_000 }, random: () => 1 });
    await client.setApiKey(KEY);
    const started = Date.now();
    const query = client.query({ nodes: ['n'], property: '->p' }, { signal: controller.signal });
    query.catch(() => {});
    // The 503 is out: the client now waits a minute before trying again, and the person cancels.
    await eventually('the first answer (503) to be sent', () => unavailable.answered() === 1);
    controller.abort();
    await expect(query).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started, 'cancelled without waiting out the backoff').toBeLessThan(10_000);
  });

  it('keeps the key in the secret store; no key, a wrong key and a bad query are told apart', async () => {
    const { client, secrets } = await clientFor((request) =>
      request.property === '->na me'
        ? { status: 400, headers: { 'content-type': 'application/problem+json' }, body: { status: 400, detail: 'expected alternating arrows and properties at position 5' } }
        : { status: 200, body: page(['a']) },
    );
    expect(await secrets.get(graphApiKeySecret(client.endpoint))).toBe(KEY);
    await expect(client.query({ nodes: ['n'], property: '->na me' })).rejects.toMatchObject({
      kind: 'rejected',
      status: 400,
      message: expect.stringMatching(/expected alternating arrows and properties at position 5$/),
    });

    await client.setApiKey('wrong');
    const refused = await client.query({ nodes: ['n'], property: '->p' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(NodeQueryError);
    expect(refused).toMatchObject({ kind: 'unauthorized', status: 401, message: expect.stringMatching(/unregistered callers/) });

    await client.clearApiKey();
    expect(await client.hasApiKey()).toBe(false);
    await expect(client.query({ nodes: ['n'], property: '->p' })).rejects.toMatchObject({ kind: 'no-key' });
  });

  it('refuses an answer that is not the interface shape', async () => {
    const { client } = await clientFor(() => ({ status: 200, body: { data: { n: { arcs: { p: { nodes: 'no' } } } } } }));
    await expect(client.query({ nodes: ['n'], property: '->p' })).rejects.toMatchObject({ kind: 'protocol', message: expect.stringMatching(/unexpected shape at \/data\/n\/arcs\/p\/nodes/) });
  });

  it('without a cache, an unreachable endpoint is an error', async () => {
    const { client, server } = await clientFor(scripted, { maxAttempts: 2 });
    await server.close();
    await expect(client.query({ nodes: ['n'], property: '->p' })).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/could not be reached/) });
  });
});
