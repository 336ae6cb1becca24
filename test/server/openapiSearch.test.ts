// The OpenAPI document describes the search interface (/client/v4) and the newer Monitor contract
// (/api/firefox/v1) as the service answers them: real answers over HTTP are checked against the
// documented schemas with Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startService, type RunningService } from '../../server/app.ts';
import { OPENAPI_FILE } from '../../server/openapi/document.ts';
import { FIREFOX_API_PREFIX } from '../../shared/api/index.ts';
import { Upstream } from '../conformance/upstream.ts';
import { serviceStores } from '../support/postgres.ts';

const HIBP = path.resolve(import.meta.dirname, '../../../shared/fixtures/hibp/breaches.json');
type Json = Record<string, unknown>;
const document = parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Json> };
// The same compiled view of a document the conformance suite uses for Mozilla's.
const ours = new Upstream(document as unknown as Json);

let running: RunningService;
let dataDir: string;
let token: string;
/** The URL a documented path stands for: its path item's server, or the document's. */
function urlOf(route: string): string {
  const servers = (document.paths[route]!.servers ?? (document as unknown as { servers: { url: string }[] }).servers) as { url: string }[];
  return new URL(servers[0]!.url).pathname + route;
}

function expectDocumented(method: string, route: string, status: number, body: unknown): void {
  const schema = ours.responseSchema(method, route, status);
  expect(schema, `${method} ${route} documents ${status}`).toBeDefined();
  const validate = ours.validator(schema);
  expect(validate(body), `${method} ${route} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

const SEARCH_ROUTES = {
  search: '/accounts/{account_id}/ai-search/instances/{name}/search',
  chat: '/accounts/{account_id}/ai-search/instances/{name}/chat/completions',
  legacySearch: '/accounts/{account_id}/legacy-rag/rags/{name}/search',
  legacyAi: '/accounts/{account_id}/legacy-rag/rags/{name}/ai-search',
};

// Every test runs on each store: the answers are the same shape on SQLite and PostgreSQL.
describe.each(await serviceStores())('on $name', (store) => {
  if (!store.available) {
    it.skip('PostgreSQL could not start (see the message above)', () => {});
    return;
  }
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'openapi-search-'));
    running = await startService({ port: 0, dataDir, logLevel: 'silent', dev: true, catalogFile: HIBP, ...(await store.serviceOptions()) });
    const created = await fetch(`${running.url}/__dev/api-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['ai-search:read', 'ai-search:run'] }),
    });
    token = ((await created.json()) as { token: string }).token;
  });
  afterAll(async () => {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('the OpenAPI document: search interface', () => {
    it('places every search endpoint under /client/v4, next to /api/v1', () => {
      for (const route of Object.values(SEARCH_ROUTES)) expect(urlOf(route)).toBe(`/client/v4${route}`);
      expect(urlOf('/user/breaches')).toBe('/api/v1/user/breaches');
    });

    const cases = [
      { route: SEARCH_ROUTES.search, body: { messages: [{ role: 'user', content: 'passwords games' }], ai_search_options: { retrieval: { filters: { isSensitive: false }, max_num_results: 3 } } } },
      { route: SEARCH_ROUTES.chat, body: { messages: [{ role: 'user', content: 'Adobe' }] } },
      { route: SEARCH_ROUTES.legacySearch, body: { query: 'Adobe', filters: { type: 'eq', key: 'isSensitive', value: false } } },
      { route: SEARCH_ROUTES.legacyAi, body: { query: 'Adobe' } },
    ];
    it.each(cases)('$route: the request fits the documented body and the answer the documented 200', async ({ route, body }) => {
      const request = ours.validator(ours.requestSchema('POST', route));
      expect(request(body), JSON.stringify(request.errors)).toBe(true);
      const response = await fetch(running.url + urlOf(route).replace('{account_id}', 'local').replace('{name}', 'breaches'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      expectDocumented('POST', route, 200, await response.json());
    });

    const NAMESPACED = '/accounts/{account_id}/ai-search/namespaces/{name}';
    const fill = (route: string) => running.url + urlOf(route).replace('{account_id}', 'local').replace('{name}', 'default').replace('{id}', 'breaches').replace('{item_id}', 'Adobe');
    const namespacedPosts = [
      {
        route: `${NAMESPACED}/instances/{id}/search`,
        body: {
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Adobe' }] }],
          ai_search_options: { retrieval: { keyword_match_mode: 'and', boost_by: [{ field: 'pwnCount', direction: 'desc' }] } },
        },
      },
      { route: `${NAMESPACED}/instances/{id}/chat/completions`, body: { messages: [{ role: 'user', content: 'Adobe' }], temperature: 0.2 } },
      { route: `${NAMESPACED}/search`, body: { query: 'Adobe', ai_search_options: { instance_ids: ['breaches', 'nope'] } } },
      { route: `${NAMESPACED}/chat/completions`, body: { messages: [{ role: 'user', content: 'Adobe' }], ai_search_options: { instance_ids: ['breaches'], reranking: { enabled: true } } } },
    ];
    it.each(namespacedPosts)('$route: the request fits the documented body and the answer the documented 200', async ({ route, body }) => {
      const request = ours.validator(ours.requestSchema('POST', route));
      expect(request(body), JSON.stringify(request.errors)).toBe(true);
      const response = await fetch(fill(route), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      expect(response.status).toBe(200);
      expectDocumented('POST', route, 200, await response.json());
    });

    it.each(['', '/{name}', '/{name}/instances', '/{name}/instances/{id}', '/{name}/instances/{id}/stats', '/{name}/instances/{id}/items', '/{name}/instances/{id}/items/{item_id}'])(
      'GET namespaces%s answers the documented 200, and a documented 405 to a write where the SDK has one',
      async (suffix) => {
        const route = `/accounts/{account_id}/ai-search/namespaces${suffix}`;
        const response = await fetch(fill(route), { headers: { authorization: `Bearer ${token}` } });
        expect(response.status).toBe(200);
        expectDocumented('GET', route, 200, await response.json());
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
          const documented = ours.responseSchema(method, route, 405);
          if (!documented) continue;
          const refused = await fetch(fill(route), { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
          expect(refused.status, `${method} ${route}`).toBe(405);
          expectDocumented(method, route, 405, await refused.json());
        }
      },
    );

    it.each(['', '/{name}', '/{name}/stats'])('GET the deprecated instances%s answers the documented 200', async (suffix) => {
      const route = `/accounts/{account_id}/ai-search/instances${suffix}`;
      const response = await fetch(running.url + urlOf(route).replace('{account_id}', 'local').replace('{name}', 'breaches'), { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expectDocumented('GET', route, 200, await response.json());
    });

    it('documents the failure envelope of a bad filter (400) and a missing token (401)', async () => {
      const url = running.url + urlOf(SEARCH_ROUTES.search).replace('{account_id}', 'local').replace('{name}', 'breaches');
      const bad = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: 'x', ai_search_options: { retrieval: { filters: { breachDate: { $gt: 'soon' } } } } }),
      });
      expect(bad.status).toBe(400);
      expectDocumented('POST', SEARCH_ROUTES.search, 400, await bad.json());
      const anonymous = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"x"}' });
      expect(anonymous.status).toBe(401);
      expectDocumented('POST', SEARCH_ROUTES.search, 401, await anonymous.json());
    });

    it('a documented answer schema still catches an answer of another shape', () => {
      const validate = ours.validator(ours.responseSchema('POST', SEARCH_ROUTES.search, 200));
      expect(validate({ result: { search_query: 'x', chunks: [{ id: 1 }] }, success: true, errors: [], messages: [] })).toBe(false);
    });
  });

  describe('the OpenAPI document: the newer Monitor contract', () => {
    it(`places its endpoints under ${FIREFOX_API_PREFIX}`, () => {
      expect(urlOf('/firefox/v1/user/breaches')).toBe(`${FIREFOX_API_PREFIX}/user/breaches`);
      expect(urlOf('/firefox/v1/user/breaches/resolutions')).toBe(`${FIREFOX_API_PREFIX}/user/breaches/resolutions`);
    });

    it('documents its error body, answered without a token, and its resolution request', async () => {
      const response = await fetch(`${running.url}${FIREFOX_API_PREFIX}/user/breaches`);
      expect(response.status).toBe(401);
      expectDocumented('GET', '/firefox/v1/user/breaches', 401, await response.json());
      const request = ours.validator(ours.requestSchema('POST', '/firefox/v1/user/breaches/resolutions'));
      expect(request([{ breachId: 'Adobe', dataClasses: ['passwords'] }])).toBe(true);
      // One way only: no `resolved`, only the two slugs.
      expect(request([{ breachId: 'Adobe', dataClasses: ['passwords'], resolved: false }])).toBe(false);
      expect(request([{ breachId: 'Adobe', dataClasses: ['usernames'] }])).toBe(false);
    });
  });
});
