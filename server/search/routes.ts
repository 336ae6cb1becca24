import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import {
  answerPieces,
  BREACH_FILTER_FIELDS,
  ChatCompletionsRequest,
  DEFAULT_MAX_RESULTS,
  extractiveAnswer,
  FilterError,
  LegacySearchRequest,
  parseMetadataFilter,
  queryOfMessages,
  SearchCodes,
  SearchRequest,
  toChunk,
  translateLegacyFilter,
  type ChatCompletion,
  type ChatCompletionDelta,
  type LegacyAiSearchResult,
  type LegacySearchResult,
  type MetadataFilter,
  type SearchChunk,
  type SearchResult,
} from '../../shared/search/index.ts';
import { readJsonBodyWithText } from '../http/body.ts';
import { AnswerCache, answerKey } from './AnswerCache.ts';
import type { Logger } from '../log.ts';
import type { ApiTokenScope, ApiTokenStore } from './ApiTokenStore.ts';
import { authenticateApiToken } from './authenticate.ts';
import type { SearchIndex } from './SearchIndex.ts';
import { envelopeJson, SearchError, sendEnvelope, sendEnvelopeJson, sendSearchError, toSearchError } from './envelope.ts';
import { EventStream } from './sse.ts';

/** `{base_url}` of the search interface is `{service}/client/v4`. */
export const SEARCH_PREFIX = '/client/v4';
export const SEARCH_INSTANCE = 'breaches';
const MAX_BODY_BYTES = 64 * 1024;
const EXTRACTIVE_NOTE = {
  code: SearchCodes.extractiveAnswer,
  message: 'extractive answer: built from the retrieved chunks by the reference instance, which runs no language model; [n] cites the n-th chunk',
};
const MODEL = 'breach-monitor/extractive';

type Endpoint = 'search' | 'chat' | 'legacy-search' | 'legacy-ai-search';
const ROUTES: { pattern: RegExp; endpoint: Endpoint; scope: ApiTokenScope }[] = [
  { pattern: /^\/accounts\/([^/]+)\/ai-search\/instances\/([^/]+)\/search$/, endpoint: 'search', scope: 'ai-search:read' },
  { pattern: /^\/accounts\/([^/]+)\/ai-search\/instances\/([^/]+)\/chat\/completions$/, endpoint: 'chat', scope: 'ai-search:run' },
  { pattern: /^\/accounts\/([^/]+)\/legacy-rag\/rags\/([^/]+)\/search$/, endpoint: 'legacy-search', scope: 'ai-search:read' },
  { pattern: /^\/accounts\/([^/]+)\/legacy-rag\/rags\/([^/]+)\/ai-search$/, endpoint: 'legacy-ai-search', scope: 'ai-search:run' },
];

export interface SearchRoutesDeps {
  index: SearchIndex;
  tokens: ApiTokenStore;
  accountId: string;
  logger: Logger;
  now?: () => number;
}

/**
 * The search interface under `/client/v4/accounts/{account_id}/…`: the new `ai-search`
 * endpoints and the legacy `legacy-rag` ones over one index and one filter engine. Every answer,
 * errors included, is the envelope `{result, success, errors, messages}`.
 */
export function createSearchRoutes({ index, tokens, accountId, logger, now = Date.now }: SearchRoutesDeps) {
  const answers = new AnswerCache<Prepared>();
  return async function handleSearch(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      await route(req, res, url);
    } catch (error) {
      const known = toSearchError(error);
      if (!known) logger.error({ err: error, path: url.pathname }, 'search request failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendSearchError(res, known ?? new SearchError(500, SearchCodes.internal, 'the search service failed to answer; try again later'));
    }
  };

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // Node's parser already refuses this pair; kept for parsers configured to be lenient.
    if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] !== undefined) {
      throw new SearchError(400, SearchCodes.invalidHeaders, 'a request may not carry both Transfer-Encoding and Content-Length; send only one of them', { headers: { connection: 'close' } });
    }
    const path = url.pathname.slice(SEARCH_PREFIX.length);
    const matched = ROUTES.map((r) => ({ ...r, match: r.pattern.exec(path) })).find((r) => r.match);
    if (!matched) throw new SearchError(404, SearchCodes.notFound, `no such endpoint: ${req.method} ${url.pathname}`);
    if (req.method !== 'POST') throw new SearchError(405, SearchCodes.methodNotAllowed, `${req.method} is not allowed here; use POST`, { headers: { allow: 'POST' } });
    const pathAccount = decode(matched.match![1]!);
    const instance = decode(matched.match![2]!);
    await authenticateApiToken(req, tokens, pathAccount === accountId ? accountId : pathAccount, matched.scope, now());
    if (instance !== SEARCH_INSTANCE) throw new SearchError(404, SearchCodes.notFound, `no instance "${instance}" in account "${accountId}"; instances: ${SEARCH_INSTANCE}`);

    const { text, value } = await readJsonBodyWithText(req, MAX_BODY_BYTES);
    // The answer depends only on the account, the endpoint, the body and the index revision.
    const revision = await index.revision();
    const key = answerKey(pathAccount, matched.endpoint, text);
    let prepared = answers.get(revision, key);
    if (!prepared) {
      prepared = await prepare(matched.endpoint, value);
      answers.set(revision, key, prepared);
    }
    send(res, prepared);
  }

  async function retrieve(query: string, filter: MetadataFilter | undefined, maxResults: number | undefined): Promise<SearchChunk[]> {
    return (await index.search({ query, filter, maxResults: maxResults ?? DEFAULT_MAX_RESULTS })).map(toChunk);
  }

  /** Everything of an answer that does not change from one identical request to the next. */
  async function prepare(endpoint: Endpoint, raw: unknown): Promise<Prepared> {
    switch (endpoint) {
      case 'search': {
        const body = parseBody(raw, SearchRequest);
        const query = body.query ?? userQuery(body.messages!);
        const retrieval = body.ai_search_options?.retrieval;
        const result: SearchResult = { search_query: query, chunks: await retrieve(query, newFilter(retrieval?.filters), retrieval?.max_num_results) };
        return body.stream ? { endpoint, stream: true, result } : { endpoint, stream: false, json: envelopeJson(result) };
      }
      case 'chat': {
        const body = parseBody(raw, ChatCompletionsRequest);
        const query = userQuery(body.messages);
        const retrieval = body.ai_search_options?.retrieval;
        const chunks = await retrieve(query, newFilter(retrieval?.filters), retrieval?.max_num_results);
        return { endpoint, stream: body.stream === true, query, chunks, answer: extractiveAnswer(query, chunks) };
      }
      case 'legacy-search':
      case 'legacy-ai-search': {
        const body = parseBody(raw, LegacySearchRequest);
        const filter = body.filters === undefined ? undefined : translate(body.filters);
        const chunks = await retrieve(body.query, filter, body.max_num_results);
        const page: LegacySearchResult = { object: 'vector_store.search_results.page', search_query: body.query, data: chunks.map(toLegacyData), has_more: false, next_page: null };
        if (endpoint === 'legacy-search') return { endpoint, stream: body.stream === true, json: envelopeJson(page) };
        const answer = extractiveAnswer(body.query, chunks);
        return body.stream ? { endpoint, stream: true, answer } : { endpoint, stream: false, json: envelopeJson({ ...page, response: answer } satisfies LegacyAiSearchResult, [EXTRACTIVE_NOTE]) };
      }
    }
  }

  function send(res: ServerResponse, prepared: Prepared): void {
    switch (prepared.endpoint) {
      case 'search': {
        if (!prepared.stream) return sendEnvelopeJson(res, 200, prepared.json);
        const stream = new EventStream(res);
        stream.send({ search_query: prepared.result.search_query, chunks: prepared.result.chunks, messages: [] }, 'chunks');
        stream.send({ result: prepared.result, success: true, errors: [], messages: [] });
        stream.done();
        return;
      }
      case 'chat':
        return chat(res, prepared);
      case 'legacy-search': {
        if (!prepared.stream) return sendEnvelopeJson(res, 200, prepared.json);
        const stream = new EventStream(res);
        stream.sendRaw(prepared.json);
        stream.done();
        return;
      }
      case 'legacy-ai-search': {
        if (!prepared.stream) return sendEnvelopeJson(res, 200, prepared.json);
        // Legacy streams carry only the generated response: no chunks event.
        const stream = new EventStream(res);
        for (const piece of answerPieces(prepared.answer)) stream.send({ response: piece });
        stream.done();
        return;
      }
    }
  }

  /** A chat completion carries its own id and creation time, so only its retrieval and answer are reused. */
  function chat(res: ServerResponse, { stream: streaming, query, chunks, answer }: Extract<Prepared, { endpoint: 'chat' }>): void {
    const id = `chatcmpl-${Math.floor(now()).toString(36)}`;
    const created = Math.floor(now() / 1000);
    if (!streaming) {
      const result: ChatCompletion = {
        id,
        object: 'chat.completion',
        created,
        model: MODEL,
        choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
        search_query: query,
        chunks,
      };
      return sendEnvelope(res, 200, result, [EXTRACTIVE_NOTE]);
    }
    const stream = new EventStream(res);
    stream.send({ search_query: query, chunks, messages: [EXTRACTIVE_NOTE] }, 'chunks');
    const delta = (content: string | undefined, finish: string | null): ChatCompletionDelta => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: MODEL,
      choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
    });
    for (const piece of answerPieces(answer)) stream.send(delta(piece, null));
    stream.send(delta(undefined, 'stop'));
    stream.done();
  }
}

/** What a request's answer is made of, before anything that varies per request (ids, times). */
type Prepared =
  | { endpoint: 'search'; stream: false; json: string }
  | { endpoint: 'search'; stream: true; result: SearchResult }
  | { endpoint: 'chat'; stream: boolean; query: string; chunks: SearchChunk[]; answer: string }
  | { endpoint: 'legacy-search'; stream: boolean; json: string }
  | { endpoint: 'legacy-ai-search'; stream: false; json: string }
  | { endpoint: 'legacy-ai-search'; stream: true; answer: string };

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

function userQuery(messages: readonly { role: string; content: string }[]): string {
  const query = queryOfMessages(messages as Parameters<typeof queryOfMessages>[0]);
  if (query === undefined) throw new SearchError(400, SearchCodes.invalidRequest, '/messages: needs a message with role "user" (its content is the search query)');
  return query;
}

function newFilter(raw: unknown): MetadataFilter | undefined {
  if (raw === undefined) return undefined;
  try {
    return parseMetadataFilter(raw, BREACH_FILTER_FIELDS, '/ai_search_options/retrieval/filters');
  } catch (error) {
    throw filterProblem(error);
  }
}

function translate(raw: unknown): MetadataFilter {
  try {
    return translateLegacyFilter(raw, BREACH_FILTER_FIELDS, '/filters');
  } catch (error) {
    throw filterProblem(error);
  }
}

/** One envelope error per filter issue, each naming its place in the body. */
function filterProblem(error: unknown): unknown {
  if (!(error instanceof FilterError)) return error;
  const [first, ...rest] = error.issues.map((issue) => ({ code: SearchCodes.invalidFilter, message: `${issue.pointer}: ${issue.message}` }));
  return new SearchError(400, SearchCodes.invalidFilter, first!.message, { more: rest });
}

function parseBody<T extends z.ZodType>(body: unknown, schema: T): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const [first, ...rest] = parsed.error.issues.map((issue) => ({
    code: SearchCodes.invalidRequest,
    message: `${issue.path.length > 0 ? '/' + issue.path.join('/') : '/'}: ${issue.message}`,
  }));
  throw new SearchError(400, SearchCodes.invalidRequest, first!.message, { more: rest });
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SearchError(400, SearchCodes.invalidRequest, 'a path segment is not valid percent-encoding');
  }
}
