import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  ChatCompletionsRequest,
  DEFAULT_NAMESPACE,
  extractiveAnswer,
  LegacySearchRequest,
  NamespaceChatCompletionsRequest,
  NamespaceSearchRequest,
  SearchCodes,
  SearchRequest,
  type InstanceStats,
  type LegacyAiSearchResult,
  type LegacySearchResult,
  type NamespaceChunk,
  type NamespaceSearchResult,
  type SearchChunk,
  type SearchResult,
} from '../../shared/search/index.ts';
import { readJsonBodyWithText } from '../http/body.ts';
import { AnswerCache, answerKey } from './AnswerCache.ts';
import type { ApiTokenScope } from './ApiTokenStore.ts';
import type { SearchIndex } from './SearchIndex.ts';
import { envelopeJson, SearchError, sendEnvelopeJson } from './envelope.ts';
import { describeInstance, describeNamespace, itemChunks, listQuery, paginate, toItem } from './management.ts';
import { ALL_DOCUMENTS, planRetrieval, retrieve, type RetrievalPlan } from './retrieval.ts';
import { EXTRACTIVE_NOTE, preparedSize, sendPrepared, type Prepared } from './searchAnswers.ts';
import { chatNotes, itemsFilter, parseBody, translate, userQuery } from './searchRequests.ts';

/** `{base_url}` of the search interface is `{service}/client/v4`. */
export const SEARCH_PREFIX = '/client/v4';
export const SEARCH_INSTANCE = 'breaches';
/** The namespace of the instance; the deprecated un-namespaced routes reach the same one, as on Cloudflare. */
export const SEARCH_NAMESPACE = DEFAULT_NAMESPACE;
const MAX_BODY_BYTES = 64 * 1024;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A request's path parameters; `namespace` is the instance's own on the un-namespaced routes. */
export interface Params {
  account: string;
  namespace: string;
  instance: string;
  item: string;
  job: string;
}
export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL, params: Params) => Promise<void>;
/** An endpoint of a route: the API token scope it needs, and its handler. */
export interface Endpoint {
  scope: ApiTokenScope;
  handle: Handler;
}
export interface Route {
  /** Below `/accounts/{account_id}/`; `:name` segments are parameters. */
  template: string;
  pattern: RegExp;
  names: (keyof Params)[];
  handlers: Partial<Record<Method, Endpoint>>;
  /** The management writes the SDK offers on this path, and what each would do: refused here. */
  writes: Partial<Record<Method, string>>;
}

/** Namespace → instance id → index. */
export type Namespaces = ReadonlyMap<string, ReadonlyMap<string, SearchIndex>>;

export interface SearchRoutesDeps {
  index: SearchIndex;
  now?: () => number;
}

/**
 * The search interface under `/client/v4/accounts/{account_id}/…`, as Cloudflare's SDK calls it:
 * namespaces (`default`), their instances (`breaches`, a keyword index over the catalog), search
 * and chat completions per instance and across a namespace's instances, the instance's items (one
 * per breach) and stats; the deprecated un-namespaced `ai-search/instances/{id}` routes; and the
 * legacy `legacy-rag` ones. Read-only: management writes answer 405 (code 7002). Every answer is
 * the envelope `{result, success, errors, messages}` except a successful chat completion, which
 * is bare, as the SDK reads it. The table and its handlers only: the search mount
 * (searchMount.ts) matches a request to its route and decides its access.
 */
export function createSearchRoutes({ index, now = Date.now }: SearchRoutesDeps): { routes: readonly Route[]; namespaces: Namespaces } {
  const answers = new AnswerCache<Prepared>({ sizeOf: preparedSize });
  const startedAt = new Date(now()).toISOString();
  /** Namespace → instance id → index. One of each here; every path below works for more. */
  const namespaces = new Map([[SEARCH_NAMESPACE, new Map([[SEARCH_INSTANCE, index]])]]);

  const read = (handle: Handler) => ({ scope: 'ai-search:read' as const, handle });
  const run = (handle: Handler) => ({ scope: 'ai-search:run' as const, handle });
  const instanceRoutes = (base: string, namespaced: boolean): Route[] => [
    route(base, { GET: read(listInstances) }, { POST: 'create an instance' }),
    route(`${base}/:instance`, { GET: read(readInstance) }, { PUT: 'update an instance', DELETE: 'delete an instance' }),
    route(`${base}/:instance/stats`, { GET: read(instanceStats) }, {}),
    route(`${base}/:instance/search`, { POST: read(cached((p) => `search:${p.namespace}/${p.instance}`, searchInstance)) }, {}),
    route(`${base}/:instance/chat/completions`, { POST: run(cached((p) => `chat:${p.namespace}/${p.instance}`, chatInstance)) }, {}),
    route(`${base}/:instance/jobs`, { GET: read(listJobs) }, { POST: 'start an indexing job' }),
    route(`${base}/:instance/jobs/:job`, { GET: read(noSuchJob) }, { PATCH: 'change an indexing job' }),
    route(`${base}/:instance/jobs/:job/logs`, { GET: read(noSuchJob) }, {}),
    ...(namespaced
      ? [
          route(`${base}/:instance/items`, { GET: read(listItems) }, { POST: 'upload an item', PUT: 'create or update an item' }),
          route(`${base}/:instance/items/:item`, { GET: read(getItem) }, { DELETE: 'delete an item', PATCH: 'sync an item' }),
          route(`${base}/:instance/items/:item/chunks`, { GET: read(getItemChunks) }, {}),
        ]
      : []),
  ];
  const ROUTES: Route[] = [
    route('ai-search/namespaces', { GET: read(listNamespaces) }, { POST: 'create a namespace' }),
    route('ai-search/namespaces/:namespace', { GET: read(readNamespace) }, { PUT: 'update a namespace', DELETE: 'delete a namespace', PATCH: 'move an instance' }),
    route('ai-search/namespaces/:namespace/search', { POST: read(cached((p) => `namespace-search:${p.namespace}`, searchNamespace)) }, {}),
    route('ai-search/namespaces/:namespace/chat/completions', { POST: run(cached((p) => `namespace-chat:${p.namespace}`, chatNamespace)) }, {}),
    ...instanceRoutes('ai-search/namespaces/:namespace/instances', true),
    ...instanceRoutes('ai-search/instances', false),
    route('legacy-rag/rags/:instance/search', { POST: read(cached((p) => `legacy-search:${p.instance}`, legacySearch)) }, {}),
    // The legacy ai-search endpoint answers too: it needs the run scope, as chat completions.
    route('legacy-rag/rags/:instance/ai-search', { POST: run(cached((p) => `legacy-ai-search:${p.instance}`, legacyAiSearch)) }, {}),
  ];
  return { routes: ROUTES, namespaces };

  function indexOf(params: Params): SearchIndex {
    return namespaces.get(params.namespace)!.get(params.instance)!;
  }
  /** What answers are valid for: the revisions of every index of the namespace. */
  async function revisionOf(namespace: string): Promise<string> {
    return (await Promise.all([...namespaces.get(namespace)!.values()].map((i) => i.revision()))).join('|');
  }

  /**
   * A POST whose answer depends only on the account, the route, the body and the index revision,
   * so a repeated request is answered from what was prepared for the first.
   */
  function cached(endpoint: (params: Params) => string, prepare: (body: unknown, params: Params) => Promise<Prepared>): Handler {
    return async (req, res, _url, params) => {
      const { text, value } = await readJsonBodyWithText(req, MAX_BODY_BYTES);
      const revision = await revisionOf(params.namespace);
      const key = answerKey(params.account, endpoint(params), text);
      let prepared = answers.get(revision, key);
      if (!prepared) {
        prepared = await prepare(value, params);
        answers.set(revision, key, prepared);
      }
      sendPrepared(res, prepared, now);
    };
  }

  // --- search and chat completions -------------------------------------------------------

  async function searchInstance(raw: unknown, params: Params): Promise<Prepared> {
    const body = parseBody(raw, SearchRequest);
    const query = body.query ?? userQuery(body.messages!);
    const plan = planRetrieval(body.ai_search_options);
    const result: SearchResult = { search_query: query, query_kind: 'text', chunks: await retrieve(indexOf(params), query, plan) };
    return body.stream ? { kind: 'search-stream', result, notes: plan.notes } : { kind: 'json', json: envelopeJson(result, plan.notes) };
  }

  async function searchNamespace(raw: unknown, params: Params): Promise<Prepared> {
    const body = parseBody(raw, NamespaceSearchRequest);
    const query = body.query ?? userQuery(body.messages!);
    const plan = planRetrieval(body.ai_search_options);
    const { chunks, errors } = await acrossInstances(params.namespace, body.ai_search_options.instance_ids, query, plan);
    const result: NamespaceSearchResult = { search_query: query, query_kind: 'text', chunks, ...(errors.length > 0 ? { errors } : {}) };
    return body.stream ? { kind: 'search-stream', result, notes: plan.notes } : { kind: 'json', json: envelopeJson(result, plan.notes) };
  }

  async function chatInstance(raw: unknown, params: Params): Promise<Prepared> {
    const body = parseBody(raw, ChatCompletionsRequest);
    const query = userQuery(body.messages);
    const plan = planRetrieval(body.ai_search_options);
    const chunks = await retrieve(indexOf(params), query, plan);
    return { kind: 'chat', stream: body.stream === true, query, chunks, errors: [], answer: extractiveAnswer(query, chunks), notes: [...plan.notes, ...chatNotes(body)] };
  }

  async function chatNamespace(raw: unknown, params: Params): Promise<Prepared> {
    const body = parseBody(raw, NamespaceChatCompletionsRequest);
    const query = userQuery(body.messages);
    const plan = planRetrieval(body.ai_search_options);
    const { chunks, errors } = await acrossInstances(params.namespace, body.ai_search_options.instance_ids, query, plan);
    return { kind: 'chat', stream: body.stream === true, query, chunks, errors, answer: extractiveAnswer(query, chunks), notes: [...plan.notes, ...chatNotes(body)] };
  }

  /**
   * A namespace-level retrieval: each named instance searched with the same plan, the chunks
   * merged by score (ties in the order the instances were named) and cut to `max_num_results`.
   * Instances the namespace lacks are named in `errors`; when none is known, a 404.
   */
  async function acrossInstances(namespace: string, instanceIds: readonly string[], query: string, plan: RetrievalPlan) {
    const instances = namespaces.get(namespace)!;
    const ids = [...new Set(instanceIds)];
    const known = ids.filter((id) => instances.has(id));
    const errors = ids.filter((id) => !instances.has(id)).map((id) => ({ instance_id: id, message: `no instance "${id}" in namespace "${namespace}"` }));
    if (known.length === 0) {
      throw new SearchError(404, SearchCodes.notFound, `/ai_search_options/instance_ids: no instance of namespace "${namespace}" is named; its instances: ${[...instances.keys()].join(', ')}`);
    }
    const perInstance = await Promise.all(known.map(async (id) => (await retrieve(instances.get(id)!, query, plan)).map((chunk): NamespaceChunk => ({ ...chunk, instance_id: id }))));
    const chunks = perInstance
      .flat()
      .map((chunk, order) => ({ chunk, order }))
      .sort((a, b) => b.chunk.score - a.chunk.score || a.order - b.order)
      .slice(0, plan.maxResults)
      .map(({ chunk }) => chunk);
    return { chunks, errors };
  }

  async function legacySearch(raw: unknown, params: Params): Promise<Prepared> {
    const { body, chunks } = await legacyRetrieve(raw, params);
    const page: LegacySearchResult = { object: 'vector_store.search_results.page', search_query: body.query, data: chunks.map(toLegacyData), has_more: false, next_page: null };
    return body.stream ? { kind: 'legacy-search-stream', json: envelopeJson(page) } : { kind: 'json', json: envelopeJson(page) };
  }

  async function legacyAiSearch(raw: unknown, params: Params): Promise<Prepared> {
    const { body, chunks } = await legacyRetrieve(raw, params);
    const page: LegacySearchResult = { object: 'vector_store.search_results.page', search_query: body.query, data: chunks.map(toLegacyData), has_more: false, next_page: null };
    const answer = extractiveAnswer(body.query, chunks);
    return body.stream ? { kind: 'legacy-ai-stream', answer } : { kind: 'json', json: envelopeJson({ ...page, response: answer } satisfies LegacyAiSearchResult, [EXTRACTIVE_NOTE]) };
  }

  async function legacyRetrieve(raw: unknown, params: Params) {
    const body = parseBody(raw, LegacySearchRequest);
    const filter = body.filters === undefined ? undefined : translate(body.filters);
    const plan: RetrievalPlan = { filter, maxResults: body.max_num_results ?? 10, matchThreshold: undefined, keywordMatchMode: 'or', boostBy: [], notes: [] };
    return { body, chunks: await retrieve(indexOf(params), body.query, plan) };
  }

  // --- management reads ------------------------------------------------------------------

  async function listNamespaces(_req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const query = listQuery(url, { search: z.string().max(256).optional() });
    const all = [...namespaces.keys()].map((name) => describeNamespace(name, startedAt)).filter((ns) => contains([ns.name, ns.description ?? ''], query.search));
    sendList(res, paginate(all, query));
  }

  async function readNamespace(_req: IncomingMessage, res: ServerResponse, _url: URL, params: Params): Promise<void> {
    sendEnvelopeJson(res, 200, envelopeJson(describeNamespace(params.namespace, startedAt)));
  }

  async function listInstances(_req: IncomingMessage, res: ServerResponse, url: URL, params: Params): Promise<void> {
    const query = listQuery(url, {
      search: z.string().max(256).optional(),
      namespace: z.string().max(64).optional(),
      hostname: z.string().max(256).optional(),
      order_by: z.literal('created_at').optional(),
      order_by_direction: z.enum(['asc', 'desc']).optional(),
    });
    // The deprecated list spans every namespace unless `namespace` narrows it; the namespaced one is its own namespace's.
    const inNamespaces = url.pathname.includes('/namespaces/') ? [params.namespace] : query.namespace !== undefined ? [query.namespace] : [...namespaces.keys()];
    const all = inNamespaces
      .flatMap((ns) => [...(namespaces.get(ns)?.keys() ?? [])].map((id) => describeInstance(id, ns, startedAt)))
      // No instance here has a public endpoint, so a hostname filter matches none.
      .filter((instance) => contains([instance.id], query.search) && query.hostname === undefined);
    sendList(res, paginate(all, query));
  }

  async function readInstance(_req: IncomingMessage, res: ServerResponse, _url: URL, params: Params): Promise<void> {
    sendEnvelopeJson(res, 200, envelopeJson(describeInstance(params.instance, params.namespace, startedAt)));
  }

  async function instanceStats(_req: IncomingMessage, res: ServerResponse, _url: URL, params: Params): Promise<void> {
    const count = (await indexOf(params).search({ query: '', maxResults: ALL_DOCUMENTS })).length;
    const stats: InstanceStats = { completed: count, queued: 0, running: 0, error: 0, skipped: 0, outdated: 0, last_activity: null };
    sendEnvelopeJson(res, 200, envelopeJson(stats));
  }

  async function listItems(_req: IncomingMessage, res: ServerResponse, url: URL, params: Params): Promise<void> {
    const query = listQuery(url, {
      item_id: z.string().max(256).optional(),
      key: z.string().max(256).optional(),
      search: z.string().max(256).optional(),
      source: z.string().max(256).optional(),
      status: z.enum(['queued', 'running', 'completed', 'error', 'skipped', 'outdated']).optional(),
      sort_by: z.enum(['status', 'modified_at']).optional(),
      metadata_filter: z.string().max(8192).optional(),
    });
    const filter = query.metadata_filter === undefined ? undefined : itemsFilter(query.metadata_filter);
    // Newest first: every item is `completed`, so both sort orders come down to the date added.
    const hits = (await indexOf(params).search({ query: '', filter, maxResults: ALL_DOCUMENTS })).sort((a, b) => b.doc.addedAt - a.doc.addedAt || (a.doc.id < b.doc.id ? -1 : 1));
    const all = hits
      .map((hit) => toItem(hit, params.namespace))
      .filter(
        (item) =>
          (query.item_id === undefined || item.id === query.item_id) &&
          (query.key === undefined || item.key === query.key) &&
          (query.source === undefined || item.source_id === query.source) &&
          (query.status === undefined || item.status === query.status) &&
          contains([item.key, String(item.metadata?.title ?? '')], query.search),
      );
    sendList(res, paginate(all, query));
  }

  async function findItem(params: Params) {
    const hit = (await indexOf(params).search({ query: '', filter: { key: `breaches/${params.item}` }, maxResults: 1 }))[0];
    if (!hit) throw new SearchError(404, SearchCodes.notFound, `no item "${params.item}" in instance "${params.instance}"`);
    return hit;
  }

  async function getItem(_req: IncomingMessage, res: ServerResponse, _url: URL, params: Params): Promise<void> {
    sendEnvelopeJson(res, 200, envelopeJson(toItem(await findItem(params), params.namespace)));
  }

  async function getItemChunks(_req: IncomingMessage, res: ServerResponse, _url: URL, params: Params): Promise<void> {
    sendEnvelopeJson(res, 200, envelopeJson(itemChunks(await findItem(params))));
  }

  async function listJobs(_req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // The service indexes the catalog as it changes; it runs no jobs to list.
    sendList(res, paginate([], listQuery(url, {})));
  }

  async function noSuchJob(_req: IncomingMessage, _res: ServerResponse, _url: URL, params: Params): Promise<void> {
    throw new SearchError(404, SearchCodes.notFound, `no job "${params.job}": this instance indexes the catalog itself and runs no jobs`);
  }
}

/** A route below `/accounts/{account_id}/`; `:name` segments are parameters. */
function route(template: string, handlers: Route['handlers'], writes: Route['writes']): Route {
  const names: (keyof Params)[] = ['account'];
  const source = template.replace(/:([a-z]+)/g, (_, name: keyof Params) => {
    names.push(name);
    return '([^/]+)';
  });
  return { template, pattern: new RegExp(`^/accounts/([^/]+)/${source}$`), names, handlers, writes };
}

function contains(texts: readonly string[], search: string | undefined): boolean {
  if (search === undefined || search === '') return true;
  const needle = search.toLowerCase();
  return texts.some((text) => text.toLowerCase().includes(needle));
}

function toLegacyData(chunk: SearchChunk) {
  const { metadata, key, timestamp } = chunk.item;
  return {
    file_id: key,
    filename: key,
    score: chunk.score,
    // Legacy attributes keep the legacy unit: timestamps in milliseconds.
    attributes: { ...metadata, breachDate: metadata.breachDate * 1000, timestamp: timestamp * 1000 },
    content: [{ type: 'text' as const, text: chunk.text }],
  };
}

/** A list answer: the page in `result`, the paging in `result_info` (V4 page pagination). */
function sendList(res: ServerResponse, page: { result: unknown[]; result_info: unknown }): void {
  sendEnvelopeJson(res, 200, JSON.stringify({ result: page.result, result_info: page.result_info, success: true, errors: [], messages: [] }));
}
