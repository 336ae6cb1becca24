// The details feed's conditional read, checked at the wire: a loopback proxy between the app's
// DetailsFeed and the reference service logs what each request carried and what each answer
// was. A client that stopped sending If-None-Match would still conclude "unchanged" from an
// equal ETag after downloading the whole catalog; here the request must carry the copy's ETag
// and the answer must be a 304 with no body. The paged first sync is checked the same way.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applySettingsChange, Settings, type SettingsChange } from '../../../shared/ipc/index.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { DetailsFeed } from '../../../electron/core/feed/DetailsFeed.ts';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import { RealtimeDatabaseClient } from '../../../electron/core/feed/RealtimeDatabaseClient.ts';
import { syncCatalogDetails } from '../../../electron/core/feed/syncCatalogDetails.ts';
import { startService, type RunningService } from '../../../server/app.ts';

interface Exchange {
  method: string;
  url: string;
  ifNoneMatch: string | undefined;
  status: number;
  etag: string | undefined;
  bodyBytes: number;
}

let service: RunningService;
let proxy: Server;
let proxyUrl: string;
let dir: string;
let store: DetailsStore;
const exchanges: Exchange[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'feed-wire-'));
  service = await startService({ port: 0, dataDir: path.join(dir, 'service'), dev: true, logLevel: 'silent' });
  const target = new URL(service.url);
  // Forwards each request unchanged and counts the bytes of each answer's body as they pass.
  proxy = createServer((req, res) => {
    const forwarded = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      const exchange: Exchange = {
        method: req.method ?? '',
        url: req.url ?? '',
        ifNoneMatch: req.headers['if-none-match'],
        status: answer.statusCode ?? 0,
        etag: answer.headers.etag,
        bodyBytes: 0,
      };
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => (exchange.bodyBytes += chunk.length));
      answer.on('end', () => exchanges.push(exchange));
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  store = new DetailsStore(path.join(dir, 'catalog-details.db'));
});
afterAll(async () => {
  store?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

function settings() {
  let current = Settings.parse({
    serviceUrl: service.apiBaseUrl,
    issuer: service.issuer,
    feedUrl: `${proxyUrl}/rtdb`,
    syncIntervalMinutes: 60,
    notifications: true,
    startAtLogin: false,
    closeToTray: true,
    theme: 'system',
  });
  return { get: () => ({ ...current }), update: (change: SettingsChange) => (current = applySettingsChange(current, change)) };
}

it("sends the copy's ETag as If-None-Match and is answered 304 with no body while the catalog is unchanged", async () => {
  const feed = new DetailsFeed({ settings: settings(), secrets: new MemorySecretStore(), identity: { subject: () => undefined, getIdToken: async () => '', idTokenAfterUnauthorized: async () => '' }, store });
  const first = await feed.sync();
  expect(first.status).toBe('updated');
  expect(first.count).toBeGreaterThan(0);
  expect(exchanges).toHaveLength(1);
  const [whole] = exchanges;
  expect(whole).toMatchObject({ method: 'GET', url: '/rtdb/catalog/breaches.json', ifNoneMatch: undefined, status: 200, etag: expect.stringMatching(/^".+"$/) });
  expect(whole!.bodyBytes).toBeGreaterThan(1000);

  expect(await feed.sync()).toEqual({ status: 'unchanged', count: first.count, skipped: [] });
  expect(exchanges).toHaveLength(2);
  expect(exchanges[1]).toEqual({ method: 'GET', url: '/rtdb/catalog/breaches.json', ifNoneMatch: whole!.etag, status: 304, etag: whole!.etag, bodyBytes: 0 });
});

it('pages a first sync with key-ordered queries when asked to, storing exactly what one whole read stores', async () => {
  const whole = new DetailsStore(path.join(dir, 'whole.db'));
  const paged = new DetailsStore(path.join(dir, 'paged.db'));
  try {
    const client = new RealtimeDatabaseClient({ url: `${proxyUrl}/rtdb`, credential: { kind: 'none' } });
    const expected = await syncCatalogDetails(client, whole);
    exchanges.length = 0;
    const pageSize = 7;
    expect(await syncCatalogDetails(client, paged, { pageSize })).toEqual(expected);
    const ids = Object.keys((await (await fetch(`${service.url}/rtdb/catalog/breaches.json?shallow=true`)).json()) as Record<string, true>);
    expect(ids).toHaveLength(expected.count);
    expect(paged.getMany(ids)).toEqual(whole.getMany(ids));
    // One query a page: orderBy "$key", a page and one more, each from the last key of the one before.
    expect(exchanges.length).toBe(Math.floor((expected.count - 1) / pageSize) + 1);
    const queries = exchanges.map((exchange) => new URL(exchange.url, proxyUrl).searchParams);
    expect(queries.every((query) => query.get('orderBy') === '"$key"' && query.get('limitToFirst') === String(pageSize + 1))).toBe(true);
    expect(queries[0]!.has('startAt')).toBe(false);
    expect(queries.slice(1).every((query) => query.has('startAt'))).toBe(true);
    // A page's ETag is not the location's: the copy keeps none, and the next sync reads whole once.
    expect(paged.state()?.etag).toBeUndefined();
  } finally {
    whole.close();
    paged.close();
  }
});
