// `POST /__dev/breaches/batch`, the benchmarks' bulk path: many breaches in one catalog
// transaction and one details write, on each store; a bad batch writes nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/app.ts';
import { serviceStores } from '../support/postgres.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const breach = (id: string) => ({
  id,
  domain: `${id.toLowerCase()}.example`,
  breachDate: '2024-03-04',
  addedDate: '2024-03-05T06:07:08Z',
  dataClasses: ['Email addresses', 'Passwords'],
  isSensitive: false,
});

describe.each(await serviceStores())('the bulk breach path on $name', (store) => {
  if (!store.available) {
    it.skip('PostgreSQL could not start (see the message above)', () => {});
    return;
  }
  let running: RunningService;
  let token: string;
  beforeAll(async () => {
    dirs.push(mkdtempSync(path.join(tmpdir(), 'dev-batch-')));
    running = await startService({ port: 0, dataDir: dirs.at(-1)!, logLevel: 'silent', dev: true, ...(await store.serviceOptions()) });
    const created = await fetch(`${running.url}/__dev/api-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['ai-search:read'] }) });
    token = ((await created.json()) as { token: string }).token;
  });
  afterAll(async () => {
    await running.close();
  });

  const post = (body: unknown) => fetch(`${running.url}/__dev/breaches/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const search = async (words: string) => {
    const response = await fetch(`${running.url}/client/v4/accounts/local/ai-search/instances/breaches/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: words }], ai_search_options: { retrieval: { max_num_results: 5 } } }),
    });
    return JSON.stringify(await response.json());
  };

  it('adds every breach of the batch to the catalog, the details feed and the search index', async () => {
    const before = await running.store.catalogSize();
    const response = await post([breach('Batchone'), breach('Batchtwo'), breach('Batchthree')]);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ count: 3 });
    expect(await running.store.catalogSize()).toBe(before + 3);
    expect((await running.store.getBreach('Batchtwo'))?.addedDate).toBe('2024-03-05T06:07:00Z');
    expect(await running.rtdb.get(['catalog', 'breaches', 'Batchthree', 'title'])).toBe('Batchthree');
    expect(await search('batchtwo')).toContain('"Batchtwo"');
  });

  it('writes nothing of a batch with a bad record or an id twice, and says which', async () => {
    const before = await running.store.catalogSize();
    const twice = await post([breach('Batchfour'), breach('Batchfour')]);
    expect(twice.status).toBe(400);
    expect(await twice.text()).toContain('/1/id');
    const bad = await post([breach('Batchfive'), { ...breach('Batchsix'), breachDate: 'yesterday' }]);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('/1/breachDate');
    expect(await post([])).toHaveProperty('status', 400);
    expect(await running.store.catalogSize()).toBe(before);
    expect(await running.store.getBreach('Batchfive')).toBeUndefined();
  });
});
