// The search index on PostgreSQL: its FTS index reads an in-memory copy of the shared catalog,
// refreshed before each search request, so a breach added through one instance is found by
// another on its next search.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { Envelope, SearchResult } from '../../../shared/search/index.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';

const postgres = usePrivatePostgres();
const dirs: string[] = [];
const services: RunningService[] = [];

beforeAll(async () => {
  const server = postgres.server();
  if (!server) return;
  const databaseUrl = await server.createDatabase();
  for (let i = 0; i < 2; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pg-search-'));
    dirs.push(dataDir);
    services.push(await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', databaseUrl }));
  }
}, 60_000);
afterAll(async () => {
  for (const service of services) await service.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function search(service: RunningService, token: string, query: string): Promise<string[]> {
  const response = await fetch(`${service.url}/client/v4/accounts/local/ai-search/instances/breaches/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, ai_search_options: { retrieval: { max_num_results: 50 } } }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return SearchResult.parse(Envelope.parse(JSON.parse(text)).result).chunks.map((chunk) => chunk.item.key);
}

describe('search on PostgreSQL', () => {
  it('finds a breach another instance added, on the next search', async (context) => {
    if (services.length < 2) return context.skip();
    const [one, two] = services as [RunningService, RunningService];
    const created = await fetch(`${two.url}/__dev/api-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['ai-search:read', 'ai-search:run'] }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    const id = `Zebrafoo${Date.now().toString(36)}`;
    expect(await search(two, token, id)).not.toContain(`breaches/${id}`);

    const added = await fetch(`${one.url}/__dev/breaches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, domain: `${id.toLowerCase()}.example`, breachDate: '2021-03-01', addedDate: '2021-04-01T00:00:00Z', dataClasses: ['Email addresses'], isSensitive: false }),
    });
    expect(added.status, await added.text()).toBe(201);
    expect(await search(two, token, id)).toContain(`breaches/${id}`);
  });
});
