// The reference search instance driven through Cloudflare's official TypeScript SDK (`cloudflare`
// 7.x, generated from Cloudflare's OpenAPI): what SDK users call is what they get, on SQLite and on
// PostgreSQL. The SDK is pointed at the service with `baseURL: {service}/client/v4`, as at
// `https://api.cloudflare.com/client/v4`.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Cloudflare, { APIError, AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/app.ts';
import { BOOST_WEIGHT } from '../../server/search/retrieval.ts';
import { ChunksEvent, Envelope, SearchCodes } from '../../shared/search/index.ts';
import { serviceStores } from '../support/postgres.ts';
import { readServerSentEvents } from '../support/serverSentEvents.ts';

const HIBP = path.resolve(import.meta.dirname, '../../../shared/fixtures/hibp/breaches.json');
const account_id = 'local';
const name = 'default';
const STORES = await serviceStores();

/** Every field the SDK's `InstanceListResponse` declares as required (resources/aisearch/namespaces/instances/instances.ts). */
const INSTANCE_REQUIRED = [
  'id', 'ai_gateway_id', 'ai_search_model', 'cache', 'cache_threshold', 'cache_ttl', 'chunk', 'chunk_overlap', 'chunk_size', 'created_at', 'created_by', 'custom_metadata',
  'embedding_model', 'enable', 'engine_version', 'fusion_method', 'hybrid_search_enabled', 'index_method', 'indexing_options', 'last_activity', 'max_num_results', 'metadata',
  'modified_at', 'modified_by', 'namespace', 'paused', 'public_endpoint_id', 'public_endpoint_params', 'reranking', 'reranking_model', 'retrieval_options', 'rewrite_model',
  'rewrite_query', 'score_threshold', 'source', 'source_params', 'status', 'summarization', 'summarization_model', 'sync_interval', 'system_prompt_ai_search',
  'system_prompt_index_summarization', 'system_prompt_rewrite_query', 'token_id', 'type',
] as const; // prettier-ignore
/** …and of `ItemListResponse` / `ItemGetResponse` (items.ts). */
const ITEM_REQUIRED = ['id', 'checksum', 'chunks_count', 'created_at', 'file_size', 'key', 'last_seen_at', 'metadata', 'namespace', 'next_action', 'source_id', 'status'] as const;

/** The SDK's error for a call: its class, status and the envelope's `errors` it read. */
async function sdkError(call: Promise<unknown>): Promise<APIError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(APIError);
  return error as APIError;
}
const firstError = (error: APIError) => (error.errors as { code: number; message: string }[])[0]!;

describe.each(STORES)('through the official cloudflare SDK, on $name', (store) => {
  if (!store.available) {
    it.skip('PostgreSQL could not start (see the message above)', () => {});
    return;
  }
  let running: RunningService;
  let dataDir: string;
  let client: Cloudflare;
  let readOnly: Cloudflare;
  let breachCount: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'search-sdk-'));
    running = await startService({ port: 0, dataDir, logLevel: 'silent', catalogFile: HIBP, ...(await store.serviceOptions()) });
    const full = await running.search.tokens.create(account_id, { scopes: ['ai-search:read', 'ai-search:run'] });
    const read = await running.search.tokens.create(account_id, { scopes: ['ai-search:read'] });
    const baseURL = `${running.url}/client/v4`;
    client = new Cloudflare({ apiToken: full.token, baseURL, maxRetries: 0 });
    readOnly = new Cloudflare({ apiToken: read.token, baseURL, maxRetries: 0 });
    breachCount = (await running.store.listBreaches()).length;
  });
  afterAll(async () => {
    await running?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('search', () => {
    it('answers {search_query, query_kind: "text", chunks} on the namespaced route', async () => {
      const result = await client.aiSearch.namespaces.instances.search('breaches', { account_id, name, messages: [{ role: 'user', content: 'Adobe' }] });
      expect(result.query_kind).toBe('text');
      expect(result.search_query).toBe('Adobe');
      expect(result.chunks[0]).toMatchObject({ id: 'breaches/Adobe#0', type: 'text', score: 1, item: { key: 'breaches/Adobe', metadata: { title: 'Adobe', domain: 'adobe.com' } } });
      expect(result.chunks[0]!.item!.timestamp).toBe(Date.parse('2013-12-04T00:00:00Z') / 1000);
    });

    it('the deprecated un-namespaced route keeps working, with the query string form too', async () => {
      const namespaced = await client.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'online games' });
      const deprecated = await client.aiSearch.instances.search('breaches', { account_id, query: 'online games' });
      expect(deprecated).toEqual(namespaced);
      expect(deprecated.chunks.length).toBe(10);
    });

    it('takes message content as typed text parts, joined', async () => {
      const parts = await client.aiSearch.namespaces.instances.search('breaches', {
        account_id,
        name,
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'You search breaches.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'adobe' },
              { type: 'text', text: 'passwords' },
            ],
          },
        ],
      });
      expect(parts.search_query).toBe('adobe passwords');
      const plain = await client.aiSearch.namespaces.instances.search('breaches', { account_id, name, messages: [{ role: 'user', content: 'adobe passwords' }] });
      expect(parts.chunks).toEqual(plain.chunks);
    });

    it('refuses image and file parts with a 400 saying this instance indexes text only', async () => {
      const error = await sdkError(
        client.aiSearch.namespaces.instances.search('breaches', {
          account_id,
          name,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'adobe' },
                { type: 'image_url', image_url: { url: 'https://example.com/logo.png' } },
                { type: 'file', file: { filename: 'a.pdf', file_data: 'JVBERi0=' } },
              ],
            },
          ],
        }),
      );
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.errors).toEqual([
        { code: SearchCodes.invalidRequest, message: expect.stringMatching(/^\/messages\/0\/content\/1: this instance indexes text only, so a "image_url" part cannot be searched/) },
        { code: SearchCodes.invalidRequest, message: expect.stringMatching(/^\/messages\/0\/content\/2: this instance indexes text only, so a "file" part/) },
      ]);
    });
  });

  describe('retrieval options', () => {
    const search = (retrieval: Record<string, unknown>, query = 'games forum') =>
      client.aiSearch.namespaces.instances.search('breaches', { account_id, name, query, ai_search_options: { retrieval } });

    it('date filters take ISO 8601 strings as Cloudflare documents its datetime type, beside integer seconds', async () => {
      const since2016 = Date.parse('2016-01-01T00:00:00Z') / 1000;
      const keys = async (filters: Record<string, unknown>) => (await search({ max_num_results: 50, filters }, 'forum')).chunks.map((chunk) => chunk.item!.key);
      const bySeconds = await keys({ breachDate: { $gte: since2016 } });
      expect(bySeconds.length).toBeGreaterThan(0);
      expect(await keys({ breachDate: { $gte: '2016-01-01' } })).toEqual(bySeconds);
      expect(await keys({ breachDate: { $gte: '2016-01-01T00:00:00Z' } })).toEqual(bySeconds);
      expect(await keys({ breachDate: { $gte: '2016-01-01T02:00:00+02:00' } })).toEqual(bySeconds);
      expect(await keys({ breachDate: { $gte: '2015-12-31T23:59:59.5Z' } })).toEqual(bySeconds);
      const error = await sdkError(search({ filters: { breachDate: { $gte: '2016-02-30' } } }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(firstError(error).message).toMatch(/^\/ai_search_options\/retrieval\/filters\/breachDate\/\$gte: must be an integer number of seconds .* or an ISO 8601 date/);
    });

    it('max_num_results and match_threshold (on the keyword score) are applied', async () => {
      expect((await search({ max_num_results: 3 })).chunks).toHaveLength(3);
      const all = (await search({ max_num_results: 50 })).chunks;
      const strict = (await search({ max_num_results: 50, match_threshold: 0.6 })).chunks;
      expect(strict.length).toBeGreaterThan(0);
      expect(strict.length).toBeLessThan(all.length);
      expect(strict).toEqual(all.filter((chunk) => chunk.score >= 0.6));
    });

    it('keyword_match_mode "and" keeps what has every word; "or" (the instance default, as its read says) any word', async () => {
      const instance = await client.aiSearch.namespaces.instances.read('breaches', { account_id, name });
      expect(instance.retrieval_options?.keyword_match_mode).toBe('or');
      const any = (await search({ max_num_results: 50 })).chunks;
      expect((await search({ max_num_results: 50, keyword_match_mode: 'or' })).chunks).toEqual(any);
      const every = (await search({ max_num_results: 50, keyword_match_mode: 'and' })).chunks;
      expect(every.length).toBeGreaterThan(0);
      expect(every.length).toBeLessThan(any.length);
      for (const chunk of every) expect(chunk.text.toLowerCase()).toMatch(/(?=.*\bgam)(?=.*\bforum)/s);
      // Every-word hits keep the order of the whole query's ranking.
      expect(every).toEqual(any.filter((chunk) => every.some((kept) => kept.id === chunk.id)));
    });

    it('boost_by pwnCount desc adds up to 0.5 by account count among the 50 best candidates, then re-ranks', async () => {
      const candidates = (await search({ max_num_results: 50 }, 'forum')).chunks;
      const counts = candidates.map((chunk) => chunk.item!.metadata!.pwnCount as number);
      const [low, high] = [Math.min(...counts), Math.max(...counts)];
      const expected = candidates
        .map((chunk, i) => ({ id: chunk.id, score: Math.round((chunk.score + (BOOST_WEIGHT * (counts[i]! - low)) / (high - low)) * 10_000) / 10_000, i }))
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .slice(0, 10);
      const boosted = (await search({ boost_by: [{ field: 'pwnCount', direction: 'desc' }] }, 'forum')).chunks;
      expect(boosted.map((chunk) => [chunk.id, chunk.score])).toEqual(expected.map((e) => [e.id, e.score]));
      expect(boosted.map((chunk) => chunk.id)).not.toEqual(candidates.slice(0, 10).map((chunk) => chunk.id));
      // A datetime field boosts too (the built-in timestamp, the date added).
      const newest = (await search({ boost_by: [{ field: 'timestamp', direction: 'desc' }] }, 'forum')).chunks;
      expect(newest).toHaveLength(10);
    });

    it('boost_by refuses a field the instance lacks and an order on a text field', async () => {
      expect(firstError(await sdkError(search({ boost_by: [{ field: 'colour' }] }))).message).toMatch(
        /^\/ai_search_options\/retrieval\/boost_by\/0\/field: "colour" is neither timestamp nor a metadata field/,
      );
      expect(firstError(await sdkError(search({ boost_by: [{ field: 'title', direction: 'desc' }] }))).message).toContain('title is a text field, which can be boosted only by exists or not_exists');
    });

    it('accepts the options a keyword index cannot honour and names each as ignored in messages', async () => {
      const response = await client.aiSearch.namespaces.instances
        .search('breaches', {
          account_id,
          name,
          query: 'forum',
          ai_search_options: {
            retrieval: { retrieval_type: 'hybrid', fusion_method: 'rrf', context_expansion: 2, return_on_failure: true },
            reranking: { enabled: true, model: '@cf/baai/bge-reranker-base' },
            query_rewrite: { enabled: true },
            cache: { enabled: true, cache_threshold: 'close_enough' },
            custom_metadata: { team: 'docs' },
          },
        })
        .asResponse();
      const envelope = Envelope.parse(await response.json());
      const ignored = envelope.messages.filter((m) => m.code === SearchCodes.optionIgnored).map((m) => m.message.split(' was ignored')[0]);
      expect(ignored).toEqual(['retrieval_type "hybrid"', 'fusion_method', 'context_expansion', 'return_on_failure', 'reranking', 'query_rewrite', 'cache', 'custom_metadata']);
      // The answer is the keyword answer: the ignored options changed nothing.
      expect(envelope.result).toEqual(await client.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'forum' }));
    });

    it('refuses a misspelt option with a 400 naming it (and what it probably meant)', async () => {
      const error = await sdkError(search({ max_num_result: 3 }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(firstError(error)).toEqual({ code: SearchCodes.invalidRequest, message: '/ai_search_options/retrieval: unknown option "max_num_result" (did you mean "max_num_results"?)' });
      const top = await sdkError(client.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'x', ai_search_option: {} } as never));
      expect(firstError(top).message).toBe('/: unknown option "ai_search_option" (did you mean "ai_search_options"?)');
      expect(firstError(await sdkError(search({ keyword_match_mode: 'any' }))).message).toContain('/ai_search_options/retrieval/keyword_match_mode');
    });
  });

  describe('chat completions', () => {
    it('answer the bare chat completion with chunks, on the namespaced and the deprecated route', async () => {
      const completion = await client.aiSearch.namespaces.instances.chatCompletions('breaches', { account_id, name, messages: [{ role: 'user', content: 'what was that games company breach?' }] });
      expect(completion).toMatchObject({ object: 'chat.completion', model: 'breach-monitor/extractive', id: expect.stringMatching(/^chatcmpl-/) });
      expect(completion).not.toHaveProperty('result');
      expect(completion.choices[0]!.message).toMatchObject({ role: 'assistant', content: expect.stringContaining('[1]') });
      expect(completion.chunks.length).toBeGreaterThan(0);
      expect(completion.messages).toContainEqual(expect.objectContaining({ code: SearchCodes.extractiveAnswer }));
      const deprecated = await client.aiSearch.instances.chatCompletions('breaches', { account_id, messages: [{ role: 'user', content: 'what was that games company breach?' }] });
      expect(deprecated.choices).toEqual(completion.choices);
      expect(deprecated.chunks).toEqual(completion.chunks);
    });

    it('take typed text parts; OpenAI parameters and a model are accepted and named as ignored', async () => {
      const completion = await client.aiSearch.namespaces.instances.chatCompletions('breaches', {
        account_id,
        name,
        model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
        temperature: 0.2,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Adobe' }] }],
      });
      expect(completion.chunks[0]!.item!.key).toBe('breaches/Adobe');
      const notes = (completion.messages as { code: number; message: string }[]).filter((m) => m.code === SearchCodes.optionIgnored).map((m) => m.message.split(' ')[0]);
      expect(notes).toEqual(['model', 'temperature']);
    });

    it('errors still come as the envelope the SDK reads errors[] from', async () => {
      const error = await sdkError(client.aiSearch.namespaces.instances.chatCompletions('breaches', { account_id, name, messages: [{ role: 'assistant', content: 'hi' }] }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(firstError(error)).toEqual({ code: SearchCodes.invalidRequest, message: expect.stringContaining('role "user"') });
    });

    it('stream: the chunks event first, then the answer in pieces', async () => {
      const response = await client.aiSearch.namespaces.instances.chatCompletions('breaches', { account_id, name, stream: true, messages: [{ role: 'user', content: 'Adobe' }] }).asResponse();
      const events = await readServerSentEvents(response);
      expect(events[0]!.event).toBe('chunks');
      expect(ChunksEvent.parse(JSON.parse(events[0]!.data)).chunks[0]!.item.key).toBe('breaches/Adobe');
      expect(events.at(-1)!.data).toBe('[DONE]');
      const whole = await client.aiSearch.namespaces.instances.chatCompletions('breaches', { account_id, name, messages: [{ role: 'user', content: 'Adobe' }] });
      const pieces = events.slice(1, -1).map((e) => (JSON.parse(e.data) as { choices: { delta: { content?: string } }[] }).choices[0]!.delta.content ?? '');
      expect(pieces.join('')).toBe(whole.choices[0]!.message.content);
    });
  });

  describe('namespaces, instances, stats and items', () => {
    it('lists and reads the default namespace; an unknown one is a 404', async () => {
      const names: string[] = [];
      for await (const namespace of client.aiSearch.namespaces.list({ account_id })) names.push(namespace.name);
      expect(names).toEqual(['default']);
      expect(await client.aiSearch.namespaces.read('default', { account_id })).toMatchObject({ name: 'default', public_endpoint_id: null });
      const missing = await sdkError(client.aiSearch.namespaces.read('production', { account_id }));
      expect(missing).toBeInstanceOf(NotFoundError);
      expect(firstError(missing).message).toContain('no namespace "production"');
    });

    it("lists and reads the namespace's instance with every field the SDK requires; the deprecated routes too", async () => {
      const instances = [];
      for await (const instance of client.aiSearch.namespaces.instances.list('default', { account_id })) instances.push(instance);
      expect(instances.map((i) => i.id)).toEqual(['breaches']);
      for (const key of INSTANCE_REQUIRED) expect(instances[0], key).toHaveProperty(key);
      expect(instances[0]).toMatchObject({ namespace: 'default', index_method: { keyword: true, vector: false }, embedding_model: null, reranking: false });
      const read = await client.aiSearch.namespaces.instances.read('breaches', { account_id, name });
      expect(read).toEqual(instances[0]);
      expect(await client.aiSearch.instances.read('breaches', { account_id })).toEqual(read);
      const deprecatedList = [];
      for await (const instance of client.aiSearch.instances.list({ account_id })) deprecatedList.push(instance.id);
      expect(deprecatedList).toEqual(['breaches']);
      expect(await sdkError(client.aiSearch.namespaces.instances.read('other', { account_id, name }))).toBeInstanceOf(NotFoundError);
    });

    it('stats count every indexed breach as completed', async () => {
      const stats = await client.aiSearch.namespaces.instances.stats('breaches', { account_id, name });
      expect(stats).toMatchObject({ completed: breachCount, queued: 0, running: 0, error: 0, skipped: 0, outdated: 0 });
      expect(await client.aiSearch.instances.stats('breaches', { account_id })).toEqual(stats);
    });

    it('items: one per indexed breach, paged by the SDK, each readable with its one chunk', async () => {
      const keys: string[] = [];
      for await (const item of client.aiSearch.namespaces.instances.items.list('breaches', { account_id, name, per_page: 100 })) {
        for (const key of ITEM_REQUIRED) expect(item, key).toHaveProperty(key);
        expect(item).toMatchObject({ status: 'completed', chunks_count: 1, namespace: 'default' });
        for (const value of Object.values(item.metadata ?? {})) expect(['string', 'number', 'boolean']).toContain(typeof value);
        keys.push(item.key);
      }
      expect(keys).toHaveLength(breachCount);
      expect(new Set(keys).size).toBe(breachCount);
      const adobe = await client.aiSearch.namespaces.instances.items.get('Adobe', { account_id, name, id: 'breaches' });
      const [chunk] = await client.aiSearch.namespaces.instances.items.chunks('Adobe', { account_id, name, id: 'breaches' });
      const searched = (await client.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'Adobe' })).chunks[0]!;
      expect(chunk).toMatchObject({ id: searched.id, text: searched.text, item: searched.item });
      expect(adobe).toMatchObject({ id: 'Adobe', key: 'breaches/Adobe', checksum: createHash('sha256').update(searched.text).digest('hex'), file_size: Buffer.byteLength(searched.text) });
      expect(adobe.metadata).toMatchObject({ title: 'Adobe', domain: 'adobe.com', isVerified: true });
      expect(await sdkError(client.aiSearch.namespaces.instances.items.get('NoSuchBreach', { account_id, name, id: 'breaches' }))).toBeInstanceOf(NotFoundError);
    });

    it('items: filtered by key, search and a metadata filter; an unknown query parameter is a 400 naming it', async () => {
      const byKey = await client.aiSearch.namespaces.instances.items.list('breaches', { account_id, name, key: 'breaches/Adobe' });
      expect(byKey.result.map((item) => item.id)).toEqual(['Adobe']);
      const page = await client.aiSearch.namespaces.instances.items.list('breaches', { account_id, name, metadata_filter: JSON.stringify({ isSensitive: true }), per_page: 100 });
      expect(page.result.length).toBeGreaterThan(0);
      expect(page.result.every((item) => item.metadata?.isSensitive === true)).toBe(true);
      const error = await sdkError(client.aiSearch.namespaces.instances.items.list('breaches', { account_id, name, colour: 'red' } as never));
      expect(firstError(error).message).toContain('?colour: not a query parameter of this list');
    });
  });

  describe('namespace-level search and chat completions (across the named instances)', () => {
    it('search merges the instances named, each chunk saying which; an instance the namespace lacks is named in errors', async () => {
      const one = await client.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'Adobe' });
      const across = await client.aiSearch.namespaces.search('default', { account_id, query: 'Adobe', ai_search_options: { instance_ids: ['breaches', 'ghost'] } });
      expect(across.query_kind).toBe('text');
      expect(across.chunks.map(({ instance_id, ...chunk }) => (expect(instance_id).toBe('breaches'), chunk))).toEqual(one.chunks);
      expect(across.errors).toEqual([{ instance_id: 'ghost', message: 'no instance "ghost" in namespace "default"' }]);
      expect(await sdkError(client.aiSearch.namespaces.search('default', { account_id, query: 'Adobe', ai_search_options: { instance_ids: ['ghost'] } }))).toBeInstanceOf(NotFoundError);
      // instance_ids is required at namespace level, and refused at instance level.
      expect(firstError(await sdkError(client.aiSearch.namespaces.search('default', { account_id, query: 'Adobe' } as never))).message).toContain('/ai_search_options');
      expect(
        firstError(await sdkError(client.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'x', ai_search_options: { instance_ids: ['breaches'] } } as never))).message,
      ).toContain('"instance_ids"');
    });

    it('chat completions answer bare, with chunks naming their instance', async () => {
      const completion = await client.aiSearch.namespaces.chatCompletions('default', { account_id, messages: [{ role: 'user', content: 'Adobe' }], ai_search_options: { instance_ids: ['breaches'] } });
      expect(completion.object).toBe('chat.completion');
      expect(completion.chunks[0]).toMatchObject({ instance_id: 'breaches', item: { key: 'breaches/Adobe' } });
      expect(completion.choices[0]!.message.content).toContain('[1]');
    });
  });

  describe('refusals', () => {
    it('management writes answer 405: this reference instance is read-only', async () => {
      // Each call starts only when its turn comes: a started call whose refusal nobody awaits yet is an
      // unhandled rejection.
      const writes: [string, () => Promise<unknown>][] = [
        ['namespaces.create', () => client.aiSearch.namespaces.create({ account_id, name: 'production' })],
        ['namespaces.update', () => client.aiSearch.namespaces.update('default', { account_id, description: 'x' })],
        ['namespaces.delete', () => client.aiSearch.namespaces.delete('default', { account_id })],
        ['instances.create', () => client.aiSearch.namespaces.instances.create('default', { account_id, id: 'mine' } as never)],
        ['instances.update', () => client.aiSearch.namespaces.instances.update('breaches', { account_id, name } as never)],
        ['instances.delete', () => client.aiSearch.namespaces.instances.delete('breaches', { account_id, name })],
        ['deprecated instances.delete', () => client.aiSearch.instances.delete('breaches', { account_id })],
        ['items.createOrUpdate', () => client.aiSearch.namespaces.instances.items.createOrUpdate('breaches', { account_id, name, key: 'x.txt', next_action: 'INDEX' })],
        ['items.delete', () => client.aiSearch.namespaces.instances.items.delete('Adobe', { account_id, name, id: 'breaches' })],
        ['items.sync', () => client.aiSearch.namespaces.instances.items.sync('Adobe', { account_id, name, id: 'breaches', next_action: 'INDEX' })],
        ['items.upload', () => client.aiSearch.namespaces.instances.items.upload('breaches', { account_id, name, file: { file: new File(['hello'], 'hello.txt') } } as never)],
        ['jobs.create', () => client.aiSearch.namespaces.instances.jobs.create('breaches', { account_id, name })],
      ];
      for (const [what, call] of writes) {
        const error = await sdkError(call());
        expect(error.status, what).toBe(405);
        expect(firstError(error), what).toEqual({ code: SearchCodes.readOnly, message: expect.stringContaining('this reference instance is read-only') });
      }
      // Nothing changed.
      expect((await client.aiSearch.namespaces.instances.items.get('Adobe', { account_id, name, id: 'breaches' })).key).toBe('breaches/Adobe');
      expect((await client.aiSearch.namespaces.instances.stats('breaches', { account_id, name })).completed).toBe(breachCount);
    });

    it('jobs: none to list, none to read', async () => {
      const jobs = await client.aiSearch.namespaces.instances.jobs.list('breaches', { account_id, name });
      expect(jobs.result).toEqual([]);
      expect(await sdkError(client.aiSearch.namespaces.instances.jobs.get('job-1', { account_id, name, id: 'breaches' }))).toBeInstanceOf(NotFoundError);
    });

    it('a wrong token is refused (401), a token without the run scope cannot chat (403)', async () => {
      const stranger = new Cloudflare({ apiToken: 'bmst_0000000000000000_notarealsecret', baseURL: `${running.url}/client/v4`, maxRetries: 0 });
      for (const call of [() => stranger.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'Adobe' }), () => stranger.aiSearch.namespaces.list({ account_id })]) {
        const error = await sdkError(call());
        expect(error).toBeInstanceOf(AuthenticationError);
        expect(firstError(error).code).toBe(SearchCodes.authentication);
      }
      await expect(readOnly.aiSearch.namespaces.instances.search('breaches', { account_id, name, query: 'Adobe' })).resolves.toMatchObject({ query_kind: 'text' });
      const denied = await sdkError(readOnly.aiSearch.namespaces.instances.chatCompletions('breaches', { account_id, name, messages: [{ role: 'user', content: 'Adobe' }] }));
      expect(denied).toBeInstanceOf(PermissionDeniedError);
      expect(firstError(denied)).toEqual({ code: SearchCodes.missingScope, message: expect.stringContaining('"ai-search:run"') });
    });
  });
});
