// The search interface on PostgreSQL with two instances sharing one database: API tokens and the
// full-text index live in the database, so a token created or revoked through one instance is
// accepted or refused by the other at once, and a catalog change through one is searched by the
// other on its next request (its answer cache keyed by the shared revision). Then the database is
// killed: search answers 503 in its own envelope (not problem+json) and recovers when it is back.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { loadDemoCatalog } from '../../../server/catalog/source.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { OPENAPI_FILE } from '../../../server/openapi/document.ts';
import { migratePostgres } from '../../../server/storage/postgresMigrate.ts';
import { createPool } from '../../../server/storage/pool.ts';
import { Envelope, SearchCodes, SearchResult } from '../../../shared/search/index.ts';
import { Upstream } from '../../conformance/upstream.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { OLD_BREACH, OLD_RTDB, OLD_SEARCH, runOldMigrations } from '../fixtures/oldPostgresLayout.ts';
import { eventually } from '../../support/waitFor.ts';

const postgres = usePrivatePostgres();
const dirs: string[] = [];
const services: RunningService[] = [];
let databaseUrl: string;

beforeAll(async () => {
  const server = postgres.server();
  if (!server) return;
  databaseUrl = await server.createDatabase();
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

function instances(ctx: TestContext): [RunningService, RunningService] {
  if (services.length < 2) return ctx.skip('PostgreSQL could not start (see the message above)');
  return services as [RunningService, RunningService];
}

const searchUrl = (service: RunningService) => `${service.url}/client/v4/accounts/local/ai-search/instances/breaches/search`;

function post(service: RunningService, token: string, body: unknown): Promise<Response> {
  return fetch(searchUrl(service), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
}

async function search(service: RunningService, token: string, query: string): Promise<string[]> {
  const response = await post(service, token, { query, ai_search_options: { retrieval: { max_num_results: 50 } } });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return SearchResult.parse(Envelope.parse(JSON.parse(text)).result).chunks.map((chunk) => chunk.item.key);
}

/** The envelope of a refusal: its status and first error code. */
async function refusal(response: Response): Promise<{ status: number; code: number | undefined; body: Record<string, unknown> }> {
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, code: (body.errors as { code: number }[] | undefined)?.[0]?.code, body };
}

async function devToken(service: RunningService, body: unknown = { scopes: ['ai-search:read', 'ai-search:run'] }): Promise<{ id: string; token: string }> {
  const created = await fetch(`${service.url}/__dev/api-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(created.status, await created.clone().text()).toBe(201);
  return (await created.json()) as { id: string; token: string };
}

async function addBreach(service: RunningService, id: string): Promise<void> {
  const added = await fetch(`${service.url}/__dev/breaches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, domain: `${id.toLowerCase()}.example`, breachDate: '2021-03-01', addedDate: '2021-04-01T00:00:00Z', dataClasses: ['Email addresses'], isSensitive: false }),
  });
  expect(added.status, await added.text()).toBe(201);
}

async function indexGeneration(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ generation: string }>('SELECT generation FROM search_index_state');
    return Number(rows[0]?.generation ?? 0);
  } finally {
    await client.end();
  }
}

describe('the search schema in the shared database', () => {
  it('adds its tables to a database the breach store of the previous layout already holds data in, keeping that data', async (ctx) => {
    const [one] = instances(ctx);
    const url = await postgres.server()!.createDatabase();
    const pool = createPool({ url, max: 2, onIdleError: () => {} });
    try {
      // The previous release's layout: the breach store's own list, no search tables yet (the
      // search storage opened lazily, on the first search).
      await runOldMigrations(pool, OLD_BREACH);
      await runOldMigrations(pool, OLD_RTDB);
      await pool.query(
        `INSERT INTO breaches (id, domain, breach_date, added_date, modified_date, data_classes, is_sensitive) VALUES ('Kept', 'kept.example', '2020-01-01', '2020-02-01T00:00:00Z', '2020-02-01T00:00:00Z', '["Passwords"]', false)`,
      );
      await pool.query(
        `INSERT INTO breaches (id, domain, breach_date, added_date, modified_date, data_classes, is_sensitive)
         SELECT b.id, b.domain, b."breachDate", b."addedDate", b."modifiedDate", b."dataClasses", b."isSensitive"
         FROM jsonb_to_recordset($1::jsonb) AS b(id text, domain text, "breachDate" text, "addedDate" text, "modifiedDate" text, "dataClasses" jsonb, "isSensitive" boolean)`,
        [JSON.stringify(loadDemoCatalog().breaches)],
      );
      await pool.query("UPDATE meta SET value = value + 1 WHERE key = 'catalog_revision'");
    } finally {
      await pool.end();
    }
    // The previous release's demo catalog (not recorded as such then) with a breach added through
    // the development surface: a --dev start keeps both.
    const service = await startService({ port: 0, dataDir: one.dataDir + '-previous', dev: true, logLevel: 'silent', databaseUrl: url });
    dirs.push(one.dataDir + '-previous');
    try {
      const { token } = await devToken(service);
      expect(await search(service, token, 'Kept')).toContain('breaches/Kept');
    } finally {
      await service.close();
    }
  });

  it('refuses a search version table of the previous layout newer than this release knows, naming it', async (ctx) => {
    instances(ctx);
    const url = await postgres.server()!.createDatabase();
    const pool = createPool({ url, max: 2, onIdleError: () => {} });
    try {
      await runOldMigrations(pool, OLD_BREACH);
      await runOldMigrations(pool, OLD_SEARCH);
      await pool.query('UPDATE search_schema_version SET version = 999');
      await expect(migratePostgres(pool)).rejects.toThrow(/schema version 999 is newer than this code knows \(table search_schema_version, latest 20\)/);
    } finally {
      await pool.end();
    }
  });
});

describe('API tokens shared by two instances', () => {
  it('a token created through one instance is accepted by the other at once', async (ctx) => {
    const [one, two] = instances(ctx);
    const { token } = await devToken(one);
    expect((await search(two, token, 'AmberBank'))[0]).toBe('breaches/AmberBank');
    expect((await search(one, token, 'AmberBank'))[0]).toBe('breaches/AmberBank');
  });

  it('a token revoked through one instance is refused by the other at once, though it served there a moment ago', async (ctx) => {
    const [one, two] = instances(ctx);
    const { id, token } = await devToken(one, { scopes: ['ai-search:read'] });
    const body = { query: 'AmberBank' };
    expect((await post(two, token, body)).status).toBe(200);
    expect((await fetch(`${one.url}/__dev/api-tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
    // The same request, whose answer the other instance remembers: authentication runs anyway.
    const refused = await refusal(await post(two, token, body));
    expect(refused).toMatchObject({ status: 401, code: SearchCodes.tokenRevoked });
    // Revoked on one, the other cannot revoke it again (the first time is kept) but knows it.
    expect((await fetch(`${two.url}/__dev/api-tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await two.search.tokens.get(id))?.revokedAt).toBe((await one.search.tokens.get(id))?.revokedAt);
  });
});

describe('one full-text index shared by two instances', () => {
  it('finds a breach another instance added on the next request, though it remembered the answer without it', async (ctx) => {
    const [one, two] = instances(ctx);
    const { token } = await devToken(two);
    const id = `Zebrafoo${Date.now().toString(36)}`;
    // Asked twice on each instance: the second answer comes from each one's answer cache.
    for (let i = 0; i < 2; i++) {
      expect(await search(two, token, id)).not.toContain(`breaches/${id}`);
      expect(await search(one, token, id)).not.toContain(`breaches/${id}`);
    }
    const before = await indexGeneration();

    await addBreach(one, id);
    expect((await search(two, token, id))[0]).toBe(`breaches/${id}`);
    expect((await search(one, token, id))[0]).toBe(`breaches/${id}`);
    // Both instances noticed the change; the index was rebuilt once by whichever asked first, and
    // once more only if that instance's copy of the details feed had not yet caught up with the
    // new breach's details (then the other, holding them, rebuilt with them).
    const afterFirst = await indexGeneration();
    expect(afterFirst - before).toBeGreaterThanOrEqual(1);
    expect(afterFirst - before).toBeLessThanOrEqual(2);
    expect(await one.search.index.revision()).toBe(await two.search.index.revision());

    // Both asking at the same moment after another change: still one rebuild, both see the breach.
    const second = `${id}b`;
    await addBreach(two, second);
    const answers = await Promise.all([one, two, one, two].map((service) => search(service, token, second)));
    for (const keys of answers) expect(keys[0]).toBe(`breaches/${second}`);
    const afterSecond = await indexGeneration();
    expect(afterSecond - afterFirst).toBeGreaterThanOrEqual(1);
    expect(afterSecond - afterFirst).toBeLessThanOrEqual(2);
    // Settled: asking again rebuilds nothing, on either instance.
    await Promise.all([one, two].map((service) => search(service, token, second)));
    expect(await indexGeneration()).toBe(afterSecond);
  });

  it('keeps the index in the database: a GIN index over a weighted tsvector of every catalog breach', async (ctx) => {
    const [one] = instances(ctx);
    await one.search.index.revision();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const indexes = await client.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'search_documents'");
      expect(indexes.rows.map((row) => row.indexdef).join('\n')).toMatch(/USING gin \(words\)/);
      const counts = await client.query<{ documents: string; breaches: string }>('SELECT (SELECT count(*) FROM search_documents) AS documents, (SELECT count(*) FROM breaches) AS breaches');
      expect(counts.rows[0]!.documents).toBe(counts.rows[0]!.breaches);
      const plan = await client.query<{ 'QUERY PLAN': string }>("SET enable_seqscan = off; EXPLAIN SELECT id FROM search_documents WHERE words @@ to_tsquery('search_english', 'adob:*')");
      const rows = (Array.isArray(plan) ? (plan as pg.QueryResult[]).at(-1)!.rows : plan.rows) as { 'QUERY PLAN': string }[];
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/search_documents_words/);
    } finally {
      await client.end();
    }
  });
});

describe('PostgreSQL going away while searching', () => {
  it('answers 503 in the search envelope with Retry-After, as documented, and recovers when it is back', async (ctx) => {
    const [one, two] = instances(ctx);
    const { token } = await devToken(one);
    const body = { query: 'AmberBank passwords' };
    expect((await post(two, token, body)).status).toBe(200);

    await postgres.server()!.kill();
    for (const service of [one, two]) {
      // A remembered answer is not served either: the token cannot be checked.
      const response = await post(service, token, body);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      const { status, code, body: envelope } = await refusal(response);
      expect({ status, code }).toEqual({ status: 503, code: SearchCodes.unavailable });
      expect(envelope).toMatchObject({ result: null, success: false, messages: [] });
      expect((envelope.errors as { message: string }[])[0]!.message).toMatch(/cannot reach its database/);
      expect(Object.keys(envelope).sort()).toEqual(['errors', 'messages', 'result', 'success']);
      const documented = new Upstream(parse(readFileSync(OPENAPI_FILE, 'utf8')) as Record<string, unknown>);
      const validate = documented.validator(documented.responseSchema('POST', '/accounts/{account_id}/ai-search/instances/{name}/search', 503));
      expect(validate(envelope), JSON.stringify(validate.errors)).toBe(true);
    }

    await postgres.server()!.restart();
    await eventually(
      'search answers 200 again on both instances once PostgreSQL is back',
      async () => (await post(one, token, body)).status === 200 && (await post(two, token, body)).status === 200,
      30_000,
    );
    // Tokens and the index came back with the database: a new token from one works on the other.
    const fresh = await devToken(two);
    expect((await search(one, fresh.token, 'AmberBank'))[0]).toBe('breaches/AmberBank');
  });
});
