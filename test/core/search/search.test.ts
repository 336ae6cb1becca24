import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { EmbeddedSearch } from '../../../electron/core/search/EmbeddedSearch.ts';
import { RemoteSearchClient, RemoteSearchError, type RemoteInstance } from '../../../electron/core/search/RemoteSearchClient.ts';
import type { SearchEvent } from '../../../electron/core/search/SearchEngine.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { loadCatalogFile } from '../../../server/catalog/source.ts';
import { FilterError, toSearchDocument, type MetadataFilter } from '../../../shared/search/index.ts';

const HIBP = path.resolve(import.meta.dirname, '../../../../shared/fixtures/hibp/breaches.json');
const Y2020 = Date.parse('2020-01-01T00:00:00Z') / 1000;
let running: RunningService;
let token: string;
let embedded: EmbeddedSearch;
const dirs: string[] = [];

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'core-search-'));
  dirs.push(dataDir);
  running = await startService({ port: 0, dataDir, logLevel: 'silent', catalogFile: HIBP });
  token = (await running.search.tokens.create('local', { scopes: ['ai-search:read', 'ai-search:run'] })).token;
  const source = loadCatalogFile(HIBP);
  const docs = source.breaches.map((breach) => toSearchDocument(breach, source.details[breach.id]));
  embedded = new EmbeddedSearch({ version: () => 1, documents: () => docs });
});
afterAll(async () => {
  embedded.close();
  await running.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function remote(options: Partial<RemoteInstance> = {}, secret: string = token, fetchImpl?: typeof fetch) {
  const client = new RemoteSearchClient({ baseUrl: `${running.url}/client/v4`, accountId: 'local', name: 'breaches', legacy: false, ...options }, new MemorySecretStore(), fetchImpl);
  if (secret) await client.setToken(secret);
  return client;
}

function recorder() {
  const events: SearchEvent[] = [];
  return { events, onEvent: (event: SearchEvent) => events.push(event) };
}

describe('embedded search (offline)', () => {
  it('sends the chunks first, then the extractive answer in pieces', async () => {
    const { events, onEvent } = recorder();
    const outcome = await embedded.run({ query: 'games company', answer: true }, onEvent);
    expect(events[0]).toMatchObject({ type: 'chunks', answerKind: 'extractive' });
    expect(events.slice(1).every((e) => e.type === 'delta')).toBe(true);
    expect(
      events
        .slice(1)
        .map((e) => (e.type === 'delta' ? e.text : ''))
        .join(''),
    ).toBe(outcome.answer!.text);
    expect(outcome.chunks.length).toBeGreaterThan(0);
  });

  it('runs the filter engine and reports a bad filter with where', async () => {
    const outcome = await embedded.run({ query: 'passwords', filters: { breachDate: { $gte: Y2020 }, dataClasses: 'Passwords' }, maxResults: 50, answer: false });
    expect(outcome.chunks.every((c) => c.item.metadata.breachDate >= Y2020 && c.item.metadata.dataClasses.includes('Passwords'))).toBe(true);
    await expect(embedded.run({ query: 'a', filters: { when: 1 } as MetadataFilter, answer: false })).rejects.toThrow(FilterError);
    await expect(embedded.run({ query: 'a', filters: { when: 1 } as MetadataFilter, answer: false })).rejects.toThrow('/filters/when: unknown field');
  });
});

describe('the same question offline and online (issue 36)', () => {
  it.each([
    'the 5 largest breaches',
    'unverified breaches since 2019 with passwords',
    'how many breaches exposed my phone number?',
    'credit cards in 2016',
    'the latest breach with passwords',
    'verified breaches without passwords before 2012',
    'what happened with linkedin in 2021',
    'malware breaches',
    'breaches with over 100 million accounts',
  ])('%j gives the same breaches in the same order from the embedded engine and the reference instance', async (question) => {
    const local = await embedded.run({ query: question, maxResults: 50, answer: false });
    const online = await (await remote()).run({ query: question, maxResults: 50, answer: false });
    expect(local.chunks.length, question).toBeGreaterThan(0);
    expect(online.chunks.map((chunk) => chunk.item.key)).toEqual(local.chunks.map((chunk) => chunk.item.key));
  });
});

describe('remote instance (the reference service over HTTP)', () => {
  const filters: MetadataFilter = { breachDate: { $gte: Y2020 }, dataClasses: { $in: ['Passwords', 'Phone numbers'] }, isSensitive: false };

  it('streams chunks before the answer, labelled extractive as the instance says, and agrees with the embedded engine', async () => {
    const { events, onEvent } = recorder();
    const client = await remote();
    const outcome = await client.run({ query: 'which of my breaches leaked passwords after 2020?', filters, answer: true }, onEvent);
    expect(events[0]).toMatchObject({ type: 'chunks', answerKind: 'extractive' });
    expect(events.length).toBeGreaterThan(2);
    expect(events.slice(1).every((e) => e.type === 'delta')).toBe(true);
    const local = await embedded.run({ query: 'which of my breaches leaked passwords after 2020?', filters, answer: true });
    expect(outcome.chunks.map((c) => c.item.key)).toEqual(local.chunks.map((c) => c.item.key));
    expect(outcome.answer).toEqual(local.answer);
  });

  it('a legacy instance gets the filter translated to the legacy format and gives the same chunks', async () => {
    const legacy = await remote({ legacy: true });
    const modern = await remote();
    for (const answer of [false, true]) {
      const { events, onEvent } = recorder();
      const viaLegacy = await legacy.run({ query: 'forum', filters, maxResults: 20, answer }, onEvent);
      const viaNew = await modern.run({ query: 'forum', filters, maxResults: 20, answer });
      expect(viaLegacy.chunks.length).toBeGreaterThan(0);
      expect(viaLegacy.chunks.map((c) => [c.item.key, c.item.timestamp, c.item.metadata])).toEqual(viaNew.chunks.map((c) => [c.item.key, c.item.timestamp, c.item.metadata]));
      expect(events[0]!.type).toBe('chunks');
      if (answer) expect(viaLegacy.answer).toEqual(viaNew.answer);
    }
  });

  it('speaks the namespaced routes (namespace default unless chosen), the legacy ones only for a legacy instance', async () => {
    const paths: string[] = [];
    const recording = (async (url: string | URL | Request, init?: RequestInit) => {
      paths.push(new URL(String(url)).pathname);
      return fetch(url, init);
    }) as typeof fetch;
    for (const answer of [false, true]) {
      await (await remote({}, token, recording)).run({ query: 'Adobe', answer });
      await (await remote({ namespace: 'default' }, token, recording)).run({ query: 'Adobe', answer });
      await (await remote({ legacy: true }, token, recording)).run({ query: 'Adobe', answer });
    }
    expect(paths).toEqual([
      '/client/v4/accounts/local/ai-search/namespaces/default/instances/breaches/search',
      '/client/v4/accounts/local/ai-search/namespaces/default/instances/breaches/search',
      '/client/v4/accounts/local/legacy-rag/rags/breaches/search',
      '/client/v4/accounts/local/ai-search/namespaces/default/instances/breaches/chat/completions',
      '/client/v4/accounts/local/ai-search/namespaces/default/instances/breaches/chat/completions',
      '/client/v4/accounts/local/legacy-rag/rags/breaches/ai-search',
    ]);
    const elsewhere = await (await remote({ namespace: 'production' })).run({ query: 'Adobe', answer: false }).catch((e: unknown) => e);
    expect(elsewhere).toMatchObject({ kind: 'rejected', status: 404, message: expect.stringContaining('no namespace "production"') });
  });

  it('reads a bare chat completion when the instance answers at once instead of streaming', async () => {
    // The instance is asked to stream; this one is made to answer at once, as an instance that ignores `stream` would.
    const atOnce = (async (url: string | URL | Request, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      return fetch(url, { ...init, body: JSON.stringify({ ...body, stream: false }) });
    }) as typeof fetch;
    const { events, onEvent } = recorder();
    const outcome = await (await remote({}, token, atOnce)).run({ query: 'Adobe passwords', answer: true }, onEvent);
    const streamed = await (await remote()).run({ query: 'Adobe passwords', answer: true });
    expect(outcome).toEqual(streamed);
    expect(outcome.answer).toMatchObject({ kind: 'extractive', text: expect.stringContaining('[1]') });
    expect(events.map((e) => e.type)).toEqual(['chunks', 'delta']);
  });

  it('reads the envelope of an error: a revoked token, a bad filter', async () => {
    const { id, token: revoked } = await running.search.tokens.create('local', { scopes: ['ai-search:read'] });
    await running.search.tokens.revoke(id);
    const error = await (await remote({}, revoked)).run({ query: 'a', answer: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteSearchError);
    expect(error).toMatchObject({ kind: 'auth', status: 401, causes: [{ code: 10003, message: expect.stringContaining('revoked') }] });
    const rejected = await (await remote()).run({ query: 'a', filters: { colour: 'red' } as MetadataFilter, answer: false }).catch((e: unknown) => e);
    expect(rejected).toMatchObject({ kind: 'rejected', status: 400, message: expect.stringContaining('unknown field "colour"') });
  });

  it('without a token in the keychain it says so and sends nothing', async () => {
    let calls = 0;
    const client = await remote({}, '', (async () => {
      calls++;
      throw new Error('unexpected');
    }) as typeof fetch);
    await expect(client.run({ query: 'a', answer: false })).rejects.toMatchObject({ kind: 'auth', message: expect.stringContaining('No API token') });
    expect(calls).toBe(0);
    expect(await client.hasToken()).toBe(false);
  });

  it('an unreachable instance is a network error', async () => {
    const client = new RemoteSearchClient({ baseUrl: 'http://127.0.0.1:9/client/v4', accountId: 'local', name: 'breaches', legacy: false }, new MemorySecretStore());
    await client.setToken('bmst_x');
    await expect(client.run({ query: 'a', answer: false })).rejects.toMatchObject({ kind: 'network' });
  });
});

describe('error envelopes from older instances (error_chain, before 2024-10-01)', () => {
  let older: Server;
  let origin: string;
  beforeAll(async () => {
    // An instance of the earlier platform: the root cause nested in error_chain.
    older = createServer((_req, res) => {
      const body = JSON.stringify({
        result: null,
        success: false,
        errors: [{ code: 1004, message: 'Validation Error', error_chain: [{ code: 7401, message: 'filters.when: unknown field' }] }],
        messages: [],
      });
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => older.close(resolve));
  });

  it('reports the root cause from the chain', async () => {
    const client = new RemoteSearchClient({ baseUrl: `${origin}/client/v4`, accountId: 'a', name: 'b', legacy: false }, new MemorySecretStore());
    await client.setToken('t');
    await expect(client.run({ query: 'a', answer: false })).rejects.toMatchObject({ kind: 'rejected', status: 400, causes: [{ code: 7401, message: 'filters.when: unknown field' }] });
  });
});

describe('an instance whose event never ends (issue 35, bounds)', () => {
  let endless: Server;
  let origin: string;
  /** Bytes the instance had sent when the app went away, per request. */
  const sent: number[] = [];
  beforeAll(async () => {
    // One event begun and never finished, written as fast as it is read (capped at 64 MB, so a reader without a bound finishes).
    endless = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: ');
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let written = 0;
      const pump = () => {
        while (written < 64 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('\n\n');
      };
      res.once('close', () => sent.push(written));
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => endless.close(resolve));
  });

  it('stops reading past 1 MB of one event, and says so', async () => {
    const client = new RemoteSearchClient({ baseUrl: `${origin}/client/v4`, accountId: 'a', name: 'b', legacy: false }, new MemorySecretStore());
    await client.setToken('t');
    await expect(client.run({ query: 'a', answer: true })).rejects.toMatchObject({ kind: 'failed', message: expect.stringContaining('longer than 1 MB') });
    await expect.poll(() => sent.length).toBe(1);
    // What the kernel's buffers hold besides the 1 MB read; a reader without a bound takes all 64 MB.
    expect(sent[0]).toBeLessThan(16 * 1024 * 1024);
  });
});
