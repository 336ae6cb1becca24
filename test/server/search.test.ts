import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/app.ts';
import { parseCommandLine } from '../../server/config.ts';
import { runApiTokenCommand } from '../../server/commands/apiTokenCommand.ts';
import {
  BREACH_FILTER_FIELDS,
  ChatCompletion,
  ChatCompletionDelta,
  ChunksEvent,
  Envelope,
  LegacyAiSearchResult,
  LegacySearchResult,
  SearchCodes,
  SearchResult,
  translateLegacyFilter,
  type LegacyFilter,
  type MetadataFilter,
} from '../../shared/search/index.ts';
import { rawExchange } from '../conformance/raw.ts';
import { serviceStores } from '../support/postgres.ts';
import { readServerSentEvents } from '../support/serverSentEvents.ts';

const HIBP = path.resolve(import.meta.dirname, '../../../shared/fixtures/hibp/breaches.json');
const dirs: string[] = [];
let running: RunningService;
let base: string;
let full: string;
let readOnly: string;
/** The PostgreSQL database of the store under test; undefined on SQLite. */
let databaseUrl: string | undefined;

const STORES = await serviceStores();

async function devToken(body: unknown): Promise<{ id: string; token: string }> {
  const response = await fetch(`${running.url}/__dev/api-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; token: string };
}

/** `token` '' sends no Authorization header. */
function post(url: string, body: unknown, token: string = full, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
}
const SEARCH = () => `${base}/ai-search/instances/breaches/search`;
const CHAT = () => `${base}/ai-search/instances/breaches/chat/completions`;
const LEGACY_SEARCH = () => `${base}/legacy-rag/rags/breaches/search`;
const LEGACY_AI = () => `${base}/legacy-rag/rags/breaches/ai-search`;

async function ok<T>(response: Response, schema: { parse(v: unknown): T }): Promise<{ result: T; messages: Envelope['messages'] }> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const envelope = Envelope.parse(JSON.parse(text));
  expect(envelope).toMatchObject({ success: true, errors: [] });
  return { result: schema.parse(envelope.result), messages: envelope.messages };
}

/** A chat completion answers bare (no envelope), as the SDK reads it. */
async function bare<T>(response: Response, schema: { parse(v: unknown): T }): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).not.toHaveProperty('result');
  expect(body).not.toHaveProperty('success');
  return schema.parse(body);
}

/** Every failure is the envelope: result null, success false, root cause directly in errors, no error_chain. */
async function failure(response: Response, status: number, code: number): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['errors', 'messages', 'result', 'success']);
  expect(body).toMatchObject({ result: null, success: false, messages: [] });
  const errors = body.errors as { code: number; message: string; error_chain?: unknown }[];
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    expect(Object.keys(error).sort()).toEqual(['code', 'message']);
    expect(error.message.length).toBeGreaterThan(10);
  }
  expect(errors[0]!.code).toBe(code);
  return errors.map((e) => e.message).join('\n');
}

// Every test runs on each store: SQLite (token file, FTS5 in memory) and PostgreSQL (tokens and
// full-text index in the shared database).
describe.each(STORES)('on $name', (store) => {
  if (!store.available) {
    it.skip('PostgreSQL could not start (see the message above)', () => {});
    return;
  }
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'search-service-'));
    dirs.push(dataDir);
    databaseUrl = (await store.serviceOptions()).databaseUrl;
    running = await startService({ port: 0, dataDir, logLevel: 'silent', dev: true, catalogFile: HIBP, databaseUrl });
    base = `${running.url}/client/v4/accounts/local`;
    full = (await devToken({ scopes: ['ai-search:read', 'ai-search:run'] })).token;
    readOnly = (await devToken({ scopes: ['ai-search:read'] })).token;
  });
  afterAll(async () => {
    await running.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  describe('new search endpoint', () => {
    it('finds a breach by its title and answers chunks with item key, timestamp in seconds and metadata', async () => {
      const { result } = await ok(await post(SEARCH(), { messages: [{ role: 'user', content: 'Adobe' }] }), SearchResult);
      expect(result.search_query).toBe('Adobe');
      const top = result.chunks[0]!;
      expect(top.item.key).toBe('breaches/Adobe');
      expect(top.type).toBe('text');
      expect(top.score).toBe(1);
      expect(top.text).toContain('Adobe');
      expect(top.item.timestamp).toBe(Date.parse('2013-12-04T00:00:00Z') / 1000);
      expect(top.item.metadata).toMatchObject({ title: 'Adobe', domain: 'adobe.com', breachDate: Date.parse('2013-10-04T00:00:00Z') / 1000, isSensitive: false, isVerified: true });
      expect(top.item.metadata.dataClasses).toContain('Passwords');
      expect(top.item.metadata.pwnCount).toBeGreaterThan(100_000_000);
    });

    it('searches the descriptions too ("games"), with the query string form and max_num_results', async () => {
      const { result } = await ok(await post(SEARCH(), { query: 'online games', ai_search_options: { retrieval: { max_num_results: 5 } } }), SearchResult);
      expect(result.chunks).toHaveLength(5);
      for (const chunk of result.chunks) expect(chunk.text.toLowerCase()).toMatch(/gam(e|ing)/);
      const scores = result.chunks.map((c) => c.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it('applies a new-format filter: passwords leaked after 2020, not sensitive', async () => {
      const after2020 = Date.parse('2021-01-01T00:00:00Z') / 1000;
      const filters = { dataClasses: 'Passwords', breachDate: { $gte: after2020 }, isSensitive: false };
      const { result } = await ok(await post(SEARCH(), { query: 'passwords', ai_search_options: { retrieval: { filters, max_num_results: 50 } } }), SearchResult);
      expect(result.chunks.length).toBeGreaterThan(5);
      for (const { item } of result.chunks) {
        expect(item.metadata.dataClasses).toContain('Passwords');
        expect(item.metadata.breachDate).toBeGreaterThanOrEqual(after2020);
        expect(item.metadata.isSensitive).toBe(false);
      }
    });

    it('refuses a bad filter with a 400 that says what and where', async () => {
      const response = await post(SEARCH(), { query: 'x', ai_search_options: { retrieval: { filters: { breachDate: { $gt: '2020' }, colour: 'red' } } } });
      const messages = await failure(response, 400, SearchCodes.invalidFilter);
      expect(messages).toContain('/ai_search_options/retrieval/filters/breachDate/$gt: must be an integer number of seconds');
      expect(messages).toContain('/ai_search_options/retrieval/filters/colour: unknown field "colour"');
    });

    it.each([
      [{}, '/messages: send either "messages" or "query"'],
      [{ query: 'a', messages: [{ role: 'user', content: 'a' }] }, 'not both'],
      [{ messages: [{ role: 'assistant', content: 'a' }] }, 'role "user"'],
      [{ query: 'a', ai_search_options: { retrieval: { max_num_results: 500 } } }, '/ai_search_options/retrieval/max_num_results'],
    ])('refuses the body %j', async (body, message) => {
      expect(await failure(await post(SEARCH(), body), 400, SearchCodes.invalidRequest)).toContain(message);
    });

    it('answers malformed JSON, a wrong media type and an oversized body with the envelope', async () => {
      const headers = { authorization: `Bearer ${full}` };
      await failure(await fetch(SEARCH(), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"query":' }), 400, SearchCodes.malformedBody);
      await failure(await fetch(SEARCH(), { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'hi' }), 415, SearchCodes.unsupportedMediaType);
      await failure(await post(SEARCH(), { query: 'x'.repeat(70_000) }), 413, SearchCodes.bodyTooLarge);
    });

    it('answers unknown endpoints, instances and methods with the envelope', async () => {
      expect(await failure(await post(`${base}/ai-search/instances/other/search`, { query: 'a' }), 404, SearchCodes.notFound)).toContain('no instance "other"');
      await failure(await post(`${base}/ai-search/instances/breaches/items`, { query: 'a' }), 404, SearchCodes.notFound);
      await failure(await post(`${running.url}/client/v4`, {}), 404, SearchCodes.notFound);
      const get = await fetch(SEARCH(), { headers: { authorization: `Bearer ${full}` } });
      expect(get.headers.get('allow')).toBe('POST');
      await failure(get, 405, SearchCodes.methodNotAllowed);
    });
  });

  describe('chat completions (extractive answers)', () => {
    it('answers with a chat completion built from the chunks, citing them, and says it is extractive', async () => {
      const result = await bare(await post(CHAT(), { messages: [{ role: 'user', content: 'what was that games company breach?' }] }), ChatCompletion);
      const messages = result.messages ?? [];
      const content = result.choices[0]!.message.content;
      expect(result.chunks.length).toBeGreaterThan(0);
      expect(content).toContain(`${result.chunks[0]!.item.metadata.title} (`);
      expect(content).toContain('[1]');
      expect(messages).toContainEqual(expect.objectContaining({ code: SearchCodes.extractiveAnswer }));
      expect(result.model).toMatch(/extractive/);
    });

    it('says plainly when nothing matches', async () => {
      const result = await bare(await post(CHAT(), { messages: [{ role: 'user', content: 'zzqxv' }] }), ChatCompletion);
      expect(result.chunks).toEqual([]);
      expect(result.choices[0]!.message.content).toBe('No breach in the catalog matches "zzqxv".');
    });
  });

  describe('legacy endpoints', () => {
    it('search answers the legacy page shape with millisecond attributes', async () => {
      const { result } = await ok(await post(LEGACY_SEARCH(), { query: 'Adobe' }), LegacySearchResult);
      const top = result.data[0]!;
      expect(top).toMatchObject({ file_id: 'breaches/Adobe', filename: 'breaches/Adobe', score: 1 });
      expect(top.attributes.timestamp).toBe(Date.parse('2013-12-04T00:00:00Z'));
      expect(top.content[0]!.text).toContain('Adobe');
    });

    it('ai-search answers the page and a response', async () => {
      const { result, messages } = await ok(await post(LEGACY_AI(), { query: 'Adobe' }), LegacyAiSearchResult);
      expect(result.response).toContain('Adobe');
      expect(messages).toContainEqual(expect.objectContaining({ code: SearchCodes.extractiveAnswer }));
    });

    it('refuses an untranslatable legacy filter, naming where', async () => {
      const filters = {
        type: 'or',
        filters: [
          { type: 'eq', key: 'domain', value: 'adobe.com' },
          { type: 'gt', key: 'pwnCount', value: 5 },
        ],
      };
      expect(await failure(await post(LEGACY_SEARCH(), { query: 'a', filters }), 400, SearchCodes.invalidFilter)).toContain('/filters/filters/1: an "or" translates only');
    });

    const Y2020 = String(Date.parse('2020-01-01T00:00:00Z'));
    const TABLE: [string, LegacyFilter][] = [
      ['eq on a list (contains)', { type: 'eq', key: 'dataClasses', value: 'Passwords' }],
      ['ne on a list', { type: 'ne', key: 'dataClasses', value: 'Passwords' }],
      ['gte on a ms-string timestamp', { type: 'gte', key: 'breachDate', value: Y2020 }],
      ['lt on a ms timestamp between seconds', { type: 'lt', key: 'timestamp', value: Number(Y2020) + 500 }],
      ['boolean as a string', { type: 'eq', key: 'isVerified', value: 'false' }],
      ['number as a string', { type: 'gt', key: 'pwnCount', value: '1000000' }],
      [
        'and of ranges',
        {
          type: 'and',
          filters: [
            { type: 'gte', key: 'breachDate', value: Y2020 },
            { type: 'lte', key: 'pwnCount', value: 100000 },
            { type: 'eq', key: 'isSensitive', value: false },
          ],
        },
      ],
      [
        'or of eq on one key → $in',
        {
          type: 'or',
          filters: [
            { type: 'eq', key: 'domain', value: 'adobe.com' },
            { type: 'eq', key: 'domain', value: 'LINKEDIN.COM' },
          ],
        },
      ],
      [
        'and with an or inside',
        {
          type: 'and',
          filters: [
            {
              type: 'or',
              filters: [
                { type: 'eq', key: 'dataClasses', value: 'Usernames' },
                { type: 'eq', key: 'dataClasses', value: 'Phone numbers' },
              ],
            },
            { type: 'ne', key: 'isSensitive', value: true },
          ],
        },
      ],
    ];
    it.each(TABLE)('%s: the legacy filter and its translation give identical results on both interfaces', async (_name, legacy) => {
      const translated: MetadataFilter = translateLegacyFilter(legacy, BREACH_FILTER_FIELDS);
      for (const query of ['data breach', '']) {
        const viaLegacy = await ok(await post(LEGACY_SEARCH(), { query, filters: legacy, max_num_results: 50 }), LegacySearchResult);
        const viaNew = await ok(await post(SEARCH(), { query, ai_search_options: { retrieval: { filters: translated, max_num_results: 50 } } }), SearchResult);
        expect(viaLegacy.result.data.length).toBeGreaterThan(0);
        expect(viaLegacy.result.data.map((d) => d.file_id)).toEqual(viaNew.result.chunks.map((c) => c.item.key));
      }
    });
  });

  describe('streaming', () => {
    it('new search: the chunks event first, then the response data, then [DONE]', async () => {
      const events = await readServerSentEvents(await post(SEARCH(), { query: 'Adobe', stream: true }));
      expect(events.map((e) => e.event ?? 'data')).toEqual(['chunks', 'data', 'data']);
      expect(ChunksEvent.parse(JSON.parse(events[0]!.data)).chunks[0]!.item.key).toBe('breaches/Adobe');
      expect(SearchResult.parse(Envelope.parse(JSON.parse(events[1]!.data)).result).chunks[0]!.item.key).toBe('breaches/Adobe');
      expect(events.at(-1)!.data).toBe('[DONE]');
    });

    it('new chat completions: the chunks event first, then answer deltas that add up to the answer, then [DONE]', async () => {
      const body = { messages: [{ role: 'user', content: 'Adobe passwords' }] };
      const whole = { result: await bare(await post(CHAT(), body), ChatCompletion) };
      const events = await readServerSentEvents(await post(CHAT(), { ...body, stream: true }));
      expect(events[0]!.event).toBe('chunks');
      const chunks = ChunksEvent.parse(JSON.parse(events[0]!.data));
      expect(chunks.chunks).toEqual(whole.result.chunks);
      expect(chunks.messages).toContainEqual(expect.objectContaining({ code: SearchCodes.extractiveAnswer }));
      expect(events.slice(1).every((e) => e.event === undefined)).toBe(true);
      expect(events.at(-1)!.data).toBe('[DONE]');
      const deltas = events.slice(1, -1).map((e) => ChatCompletionDelta.parse(JSON.parse(e.data)));
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.map((d) => d.choices[0]!.delta.content ?? '').join('')).toBe(whole.result.choices[0]!.message.content);
      expect(deltas.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    });

    it('legacy ai-search: only the streamed response, no chunks event', async () => {
      const whole = await ok(await post(LEGACY_AI(), { query: 'Adobe' }), LegacyAiSearchResult);
      const events = await readServerSentEvents(await post(LEGACY_AI(), { query: 'Adobe', stream: true }));
      expect(events.every((e) => e.event === undefined)).toBe(true);
      expect(events.at(-1)!.data).toBe('[DONE]');
      const pieces = events.slice(0, -1).map((e) => JSON.parse(e.data) as { response: string });
      expect(pieces.every((p) => Object.keys(p).join() === 'response')).toBe(true);
      expect(pieces.map((p) => p.response).join('')).toBe(whole.result.response);
    });

    it('legacy search: the page as one data event, no chunks event', async () => {
      const events = await readServerSentEvents(await post(LEGACY_SEARCH(), { query: 'Adobe', stream: true }));
      expect(events.map((e) => e.event)).toEqual([undefined, undefined]);
      expect(LegacySearchResult.parse(Envelope.parse(JSON.parse(events[0]!.data)).result).data[0]!.file_id).toBe('breaches/Adobe');
    });

    it('namespaced routes stream the same: the chunks event first (instance and namespace level, search and chat)', async () => {
      const NS = `${base}/ai-search/namespaces/default`;
      const cases = [
        { url: `${NS}/instances/breaches/search`, body: { query: 'Adobe', stream: true } },
        { url: `${NS}/search`, body: { query: 'Adobe', stream: true, ai_search_options: { instance_ids: ['breaches'] } } },
        { url: `${NS}/instances/breaches/chat/completions`, body: { messages: [{ role: 'user', content: [{ type: 'text', text: 'Adobe' }] }], stream: true } },
        { url: `${NS}/chat/completions`, body: { messages: [{ role: 'user', content: 'Adobe' }], stream: true, ai_search_options: { instance_ids: ['breaches'] } } },
      ];
      for (const { url, body } of cases) {
        const events = await readServerSentEvents(await post(url, body));
        expect(events[0]!.event, url).toBe('chunks');
        expect(ChunksEvent.parse(JSON.parse(events[0]!.data)).chunks[0]!.item.key, url).toBe('breaches/Adobe');
        expect(events.at(-1)!.data, url).toBe('[DONE]');
      }
    });

    it('a bad streamed request still gets the envelope, not a stream', async () => {
      await failure(await post(SEARCH(), { query: 'a', stream: true, ai_search_options: { retrieval: { filters: { nope: 1 } } } }), 400, SearchCodes.invalidFilter);
    });
  });

  describe('authentication', () => {
    it('a valid token with the scope is served', async () => {
      await ok(await post(SEARCH(), { query: 'Adobe' }, readOnly), SearchResult);
    });

    it('no token: 401 asking for a Bearer API token', async () => {
      const response = await post(SEARCH(), { query: 'a' }, '');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await failure(response, 401, SearchCodes.authentication)).toContain('Authorization: Bearer <API_TOKEN>');
      await failure(await post(SEARCH(), { query: 'a' }, '', { authorization: 'Basic YTpi' }), 401, SearchCodes.authentication);
    });

    it('an unknown or tampered token: 401', async () => {
      await failure(await post(SEARCH(), { query: 'a' }, 'bmst_0000000000000000_' + 'a'.repeat(43)), 401, SearchCodes.authentication);
      await failure(await post(SEARCH(), { query: 'a' }, full.slice(0, -1) + (full.endsWith('A') ? 'B' : 'A')), 401, SearchCodes.authentication);
    });

    it('a token without the scope: 403 naming the scope', async () => {
      expect(await failure(await post(CHAT(), { messages: [{ role: 'user', content: 'a' }] }, readOnly), 403, SearchCodes.missingScope)).toContain('"ai-search:run"');
      await failure(await post(LEGACY_AI(), { query: 'a' }, readOnly), 403, SearchCodes.missingScope);
    });

    it('an expired token: 401', async () => {
      const { token } = await running.search.tokens.create('local', { scopes: ['ai-search:read'], expiresIn: 60 }, Date.now() - 61_000);
      expect(await failure(await post(SEARCH(), { query: 'a' }, token), 401, SearchCodes.tokenExpired)).toContain('expired');
    });

    it('a revoked token: 401 once revoked on the development surface', async () => {
      const { id, token } = await devToken({ scopes: ['ai-search:read'] });
      await ok(await post(SEARCH(), { query: 'a' }, token), SearchResult);
      expect((await fetch(`${running.url}/__dev/api-tokens/${id}`, { method: 'DELETE' })).status).toBe(204);
      expect(await failure(await post(SEARCH(), { query: 'a' }, token), 401, SearchCodes.tokenRevoked)).toContain('revoked');
      expect((await fetch(`${running.url}/__dev/api-tokens/nope`, { method: 'DELETE' })).status).toBe(404);
    });

    it('client IP restrictions: a token limited to another network is refused, one allowing loopback is served', async () => {
      const elsewhere = await devToken({ scopes: ['ai-search:read'], allowIps: ['10.0.0.0/8', '2001:db8::/32'] });
      expect(await failure(await post(SEARCH(), { query: 'a' }, elsewhere.token), 403, SearchCodes.ipNotAllowed)).toContain('10.0.0.0/8');
      const loopback = await devToken({ scopes: ['ai-search:read'], allowIps: ['127.0.0.0/8', '::1'] });
      await ok(await post(SEARCH(), { query: 'a' }, loopback.token), SearchResult);
    });

    it('Service Key authentication is refused: past its end of life, use an API token', async () => {
      const response = await post(SEARCH(), { query: 'a' }, '', { 'x-auth-user-service-key': 'v1.0-abc' });
      const message = await failure(response, 401, SearchCodes.serviceKeyEndOfLife);
      expect(message).toContain('end of life on 2026-09-30');
      expect(message).toContain('API token');
      // Even next to a valid token: the header is not silently ignored.
      await failure(await post(SEARCH(), { query: 'a' }, full, { 'x-auth-user-service-key': 'v1.0-abc' }), 401, SearchCodes.serviceKeyEndOfLife);
    });

    it('another account in the path: 403', async () => {
      await failure(await post(`${running.url}/client/v4/accounts/other/ai-search/instances/breaches/search`, { query: 'a' }), 403, SearchCodes.wrongAccount);
    });

    it("a token of another account reads nothing under that account's path: the mount serves only its own account", async () => {
      // `api-token create --account-id other` on the same store: a token valid for "other", whose
      // path then names the same account as the token.
      const { config, apiToken } = parseCommandLine(
        ['api-token', 'create', '--scopes', 'ai-search:read,ai-search:run', '--account-id', 'other', '--data', running.dataDir, ...(databaseUrl ? ['--database-url', databaseUrl] : [])],
        {},
      );
      const lines: string[] = [];
      await runApiTokenCommand(config, apiToken!, (line) => lines.push(line));
      const other = /^(bmst_\S+)$/m.exec(lines.join('\n'))![1]!;
      const otherBase = `${running.url}/client/v4/accounts/other`;
      for (const response of [
        await post(`${otherBase}/ai-search/instances/breaches/search`, { query: 'Adobe' }, other),
        await post(`${otherBase}/ai-search/namespaces/default/chat/completions`, { messages: [{ role: 'user', content: 'Adobe' }] }, other),
        await post(`${otherBase}/legacy-rag/rags/breaches/search`, { query: 'Adobe' }, other),
        await fetch(`${otherBase}/ai-search/namespaces/default/instances/breaches/items`, { headers: { authorization: `Bearer ${other}` } }),
        await fetch(`${otherBase}/ai-search/namespaces`, { headers: { authorization: `Bearer ${other}` } }),
      ]) {
        expect(await failure(response, 403, SearchCodes.wrongAccount)).toContain('"other"');
      }
      // Nor does it read this service's own account.
      await failure(await post(SEARCH(), { query: 'Adobe' }, other), 403, SearchCodes.wrongAccount);
    });

    it('the development surface validates token requests', async () => {
      const response = await fetch(`${running.url}/__dev/api-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: ['admin'], allowIps: ['300.1.1.1/8'] }),
      });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).toContain('/scopes/0');
      expect(text).toContain('/allowIps/0');
    });

    it('stores only a hash of the secret', async () => {
      const { token } = await devToken({ scopes: ['ai-search:read'] });
      // The secret is everything after `bmst_<id>_` (it may itself contain "_").
      const secret = token.slice('bmst_0123456789abcdef_'.length);
      const secretHash = createHash('sha256').update(secret).digest();
      let stored: string;
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query<{ secret_hash: Buffer }>('SELECT * FROM search_api_tokens');
          expect(rows.some((row) => row.secret_hash.equals(secretHash))).toBe(true);
          stored = JSON.stringify(rows) + rows.map((row) => row.secret_hash.toString('latin1')).join('');
        } finally {
          await client.end();
        }
      } else {
        const file = (name: string) => (existsSync(path.join(running.dataDir, name)) ? readFileSync(path.join(running.dataDir, name)).toString('latin1') : '');
        stored = file('api-tokens.db') + file('api-tokens.db-wal');
        expect(stored).toContain(secretHash.toString('latin1'));
      }
      expect(stored).not.toContain(secret);
    });
  });

  describe('request framing', () => {
    it('declines a request carrying both Transfer-Encoding and Content-Length, with the envelope', async () => {
      const exchange = await rawExchange(
        running.url,
        async (socket) => {
          socket.write(
            `POST /client/v4/accounts/local/ai-search/instances/breaches/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${full}\r\nContent-Type: application/json\r\nContent-Length: 15\r\nTransfer-Encoding: chunked\r\n\r\nf\r\n{"query":"abc"}\r\n0\r\n\r\n`,
          );
        },
        { expect: 1, timeoutMs: 5000 },
      );
      const [response] = exchange.responses;
      expect(response?.status).toBe(400);
      const body = JSON.parse(response!.body) as { success: boolean; result: null; errors: { code: number; message: string }[] };
      expect(body).toMatchObject({ success: false, result: null, messages: [] });
      expect(body.errors[0]).toEqual({ code: SearchCodes.invalidHeaders, message: expect.stringContaining('both Transfer-Encoding and Content-Length') });
    });
  });

  describe('answers remembered per (account, request body) for one catalog revision', () => {
    it('answers a repeated request the same, and a catalog change is seen at once', async () => {
      const body = { messages: [{ role: 'user', content: 'Quokkacachetest marsupials' }], ai_search_options: { retrieval: { filters: { isSensitive: false } } } };
      const before = await ok(await post(SEARCH(), body), SearchResult);
      expect(before.result.chunks.map((chunk) => chunk.item.key)).not.toContain('breaches/Quokkacachetest');
      expect((await ok(await post(SEARCH(), body), SearchResult)).result).toEqual(before.result);
      // Authentication is still checked on every request, remembered answer or not.
      await failure(await post(SEARCH(), body, ''), 401, SearchCodes.authentication);
      await failure(await post(SEARCH(), body, 'bmst_0000000000000000_tampered'), 401, SearchCodes.authentication);

      const added = await fetch(`${running.url}/__dev/breaches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'Quokkacachetest', domain: 'quokka.example', breachDate: '2024-02-01', addedDate: '2024-03-01T00:00:00Z', dataClasses: ['Passwords'], isSensitive: false }),
      });
      expect(added.status, await added.text()).toBe(201);
      const after = await ok(await post(SEARCH(), body), SearchResult);
      expect(after.result.chunks[0]!.item.key).toBe('breaches/Quokkacachetest');
      // The streamed form of the same question is its own request, also seeing the new revision.
      const legacy = await ok(await post(LEGACY_SEARCH(), { query: 'Quokkacachetest' }), LegacySearchResult);
      expect(legacy.result.data[0]!.file_id).toBe('breaches/Quokkacachetest');
    });
  });

  describe('the details feed', () => {
    it('a change of a description alone (no catalog change) is found by the next search', async () => {
      const body = { messages: [{ role: 'user', content: 'Wombatdetailstest' }] };
      expect((await ok(await post(SEARCH(), body), SearchResult)).result.chunks).toEqual([]);
      const { secret } = (await (await fetch(`${running.url}/__dev/rtdb-secrets`, { method: 'POST', headers: { 'content-type': 'application/json' } })).json()) as { secret: string };
      const written = await fetch(`${running.url}/rtdb/catalog/breaches/Adobe/description.json?auth=${encodeURIComponent(secret)}`, {
        method: 'PUT',
        body: JSON.stringify('In October 2013 a Wombatdetailstest reissued this description.'),
      });
      expect(written.status, await written.clone().text()).toBe(200);
      await expect.poll(async () => (await ok(await post(SEARCH(), body), SearchResult)).result.chunks.map((chunk) => chunk.item.key), { timeout: 10_000 }).toEqual(['breaches/Adobe']);
    });
  });

  describe('npm run server -- api-token', () => {
    it('creates, lists and revokes tokens in the store the service uses, which accepts and refuses them at once', async () => {
      // On PostgreSQL the command works on the running service's database; on SQLite, on a data folder's file.
      const dataDir = databaseUrl ? mkdtempSync(path.join(tmpdir(), 'search-cli-')) : running.dataDir;
      if (databaseUrl) dirs.push(dataDir);
      const run = async (...argv: string[]) => {
        const { config, apiToken, token } = parseCommandLine(['api-token', ...argv, '--data', dataDir, ...(databaseUrl ? ['--database-url', databaseUrl] : [])], {});
        const lines: string[] = [];
        await runApiTokenCommand(config, apiToken!, (line) => lines.push(line), token.expiresIn);
        return lines.join('\n');
      };
      const created = await run('create', '--scopes', 'ai-search:read,ai-search:run', '--allow-ip', '127.0.0.1', '--expires-in', '3600', '--name', 'laptop');
      const id = /created API token ([0-9a-f]{16})/.exec(created)![1]!;
      const token = /^(bmst_[0-9a-f]{16}_\S{43})$/m.exec(created)![1]!;
      expect(await run('list')).toMatch(new RegExp(`${id}  local  ai-search:read,ai-search:run  expires \\S+  127.0.0.1  "laptop"`));
      await ok(await post(SEARCH(), { query: 'Adobe' }, token), SearchResult);
      expect(await run('revoke', id)).toBe(`revoked ${id}`);
      expect(await run('list')).toMatch(new RegExp(`${id} .* revoked `));
      await failure(await post(SEARCH(), { query: 'Adobe' }, token), 401, SearchCodes.tokenRevoked);
      await expect(run('revoke', 'nope')).rejects.toThrow(/no token "nope"/);
      await expect(run('create', '--scopes', 'admin')).rejects.toThrow(/--scopes\[0\]/);
      await expect(run('create', '--scopes', 'ai-search:read', '--allow-ip', '1.2.3.4/40')).rejects.toThrow(/--allow-ip\[0\]: must be an IP address or a CIDR block/);
      expect(() => parseCommandLine(['api-token', 'rotate'], {})).toThrow(/create, list, revoke/);
    });
  });
});
