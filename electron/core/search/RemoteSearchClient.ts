import {
  BREACH_FILTER_FIELDS,
  ChatCompletion,
  ChatCompletionDelta,
  ChunksEvent,
  DEFAULT_NAMESPACE,
  Envelope,
  LegacyAiSearchResult,
  LegacySearchResult,
  rootCauses,
  SearchCodes,
  SearchResult,
  toLegacyFilter,
  type LegacySearchData,
  type SearchChunk,
} from '../../../shared/search/index.ts';
import type { SecretKey, SecretStore } from '../auth/secrets/SecretStore.ts';
import type { AnswerKind, SearchEngine, SearchEvent, SearchOutcome, SearchRun } from './SearchEngine.ts';
import { BodyTooLargeError, readBoundedText, readTextPrefix } from '../../../shared/base/boundedBody.ts';

/** The most of one non-streamed search answer read (at most 50 chunks of a few KB each). */
const MAX_SEARCH_ANSWER_BYTES = 16 * 1024 * 1024;

/** A remote instance as the app keeps it: everything but the token, which lives in the keychain. */
export interface RemoteInstance {
  /** `{service}/client/v4`, the API base. */
  baseUrl: string;
  accountId: string;
  name: string;
  /** The instance's namespace; absent means `default` (where the deprecated un-namespaced routes lead). */
  namespace?: string | undefined;
  /** A `legacy-rag/rags` instance: legacy paths and filters, no chunks in streams. */
  legacy: boolean;
}

export class RemoteSearchError extends Error {
  override readonly name = 'RemoteSearchError';
  /** `network`: no answer; `auth`: 401/403; `rejected`: another 4xx; `failed`: 5xx or an unreadable answer. */
  readonly kind: 'network' | 'auth' | 'rejected' | 'failed';
  readonly status: number | undefined;
  readonly causes: { code: number; message: string }[];
  constructor(kind: RemoteSearchError['kind'], message: string, status?: number, causes: { code: number; message: string }[] = []) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.causes = causes;
  }
}

/** The keychain entry of an instance's token; an instance of the default namespace keeps the entry it had before namespaces. */
export function searchTokenSecret(instance: RemoteInstance): SecretKey {
  const namespace = !instance.legacy && instance.namespace !== undefined && instance.namespace !== DEFAULT_NAMESPACE ? `${instance.namespace}/` : '';
  return { issuer: `${instance.baseUrl.replace(/\/+$/, '')}/accounts/${instance.accountId}`, subject: `ai-search-token:${namespace}${instance.name}` };
}

/**
 * A remote search instance over HTTP, speaking the namespaced `ai-search/namespaces/{namespace}/
 * instances/{name}` interface (Cloudflare deprecated the un-namespaced `ai-search/instances`
 * routes for it) or, for a legacy instance, the `legacy-rag/rags` one. The API token is read from
 * the secret store for each run and sent only as `Authorization: Bearer`.
 */
export class RemoteSearchClient implements SearchEngine {
  readonly #instance: RemoteInstance;
  readonly #secrets: SecretStore;
  readonly #fetch: typeof fetch;

  constructor(instance: RemoteInstance, secrets: SecretStore, fetchImpl: typeof fetch = fetch) {
    this.#instance = instance;
    this.#secrets = secrets;
    this.#fetch = fetchImpl;
  }

  async setToken(token: string): Promise<void> {
    await this.#secrets.set(searchTokenSecret(this.#instance), token.trim());
  }
  async hasToken(): Promise<boolean> {
    return (await this.#secrets.get(searchTokenSecret(this.#instance))) !== undefined;
  }
  async deleteToken(): Promise<void> {
    await this.#secrets.delete(searchTokenSecret(this.#instance));
  }

  async run(request: SearchRun, onEvent: (event: SearchEvent) => void = () => {}): Promise<SearchOutcome> {
    return this.#instance.legacy ? this.#runLegacy(request, onEvent) : this.#runNew(request, onEvent);
  }

  #url(path: string): string {
    const { baseUrl, accountId, name, legacy, namespace } = this.#instance;
    const kind = legacy ? 'legacy-rag/rags' : `ai-search/namespaces/${encodeURIComponent(namespace ?? DEFAULT_NAMESPACE)}/instances`;
    return `${baseUrl.replace(/\/+$/, '')}/accounts/${encodeURIComponent(accountId)}/${kind}/${encodeURIComponent(name)}/${path}`;
  }

  async #post(path: string, body: unknown, stream: boolean): Promise<Response> {
    const token = await this.#secrets.get(searchTokenSecret(this.#instance));
    if (!token) throw new RemoteSearchError('auth', `No API token for the search instance "${this.#instance.name}": add one in Search settings.`);
    let response: Response;
    try {
      response = await this.#fetch(this.#url(path), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new RemoteSearchError('network', `The search instance could not be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  async #runNew(request: SearchRun, onEvent: (event: SearchEvent) => void): Promise<SearchOutcome> {
    const ai_search_options = { retrieval: { ...(request.filters ? { filters: request.filters } : {}), ...(request.maxResults ? { max_num_results: request.maxResults } : {}) } };
    const messages = [{ role: 'user', content: request.query }];
    const response = await this.#post(request.answer ? 'chat/completions' : 'search', { messages, stream: true, ai_search_options }, true);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      // An instance that ignores `stream` answers at once: a search in the envelope, a chat completion bare.
      if (request.answer) {
        const completion = parse(ChatCompletion, parseJson(await searchAnswerText(response)));
        const searchQuery = completion.search_query ?? request.query;
        const kind = kindOf(completion.messages ?? []);
        onEvent({ type: 'chunks', searchQuery, chunks: completion.chunks, answerKind: kind });
        const text = completion.choices[0]!.message.content;
        onEvent({ type: 'delta', text });
        return { searchQuery, chunks: completion.chunks, answer: { text, kind } };
      }
      const envelope = await envelopeOf(response);
      const result = parse(SearchResult, envelope.result);
      onEvent({ type: 'chunks', searchQuery: result.search_query, chunks: result.chunks, answerKind: undefined });
      return { searchQuery: result.search_query, chunks: result.chunks, answer: undefined };
    }
    let chunks: SearchChunk[] = [];
    let searchQuery = request.query;
    let kind: AnswerKind | undefined;
    let text = '';
    for await (const event of readEventStream(response)) {
      if (event.data === '[DONE]') break;
      const data = parseJson(event.data);
      if (event.event === 'chunks') {
        const parsed = parse(ChunksEvent, data);
        chunks = parsed.chunks;
        searchQuery = parsed.search_query;
        kind = request.answer ? kindOf(parsed.messages) : undefined;
        onEvent({ type: 'chunks', searchQuery, chunks, answerKind: kind });
      } else if (request.answer) {
        const delta = ChatCompletionDelta.safeParse(data);
        const piece = delta.success ? (delta.data.choices[0]?.delta.content ?? '') : '';
        if (piece) {
          text += piece;
          onEvent({ type: 'delta', text: piece });
        }
      }
    }
    return { searchQuery, chunks, answer: request.answer ? { text, kind: kind ?? 'generated' } : undefined };
  }

  async #runLegacy(request: SearchRun, onEvent: (event: SearchEvent) => void): Promise<SearchOutcome> {
    const filters = request.filters ? toLegacyFilter(request.filters, BREACH_FILTER_FIELDS) : undefined;
    const body = { query: request.query, ...(filters ? { filters } : {}), ...(request.maxResults ? { max_num_results: request.maxResults } : {}) };
    // Legacy streams carry no chunks, so the app asks without streaming and shows chunks, then the response.
    const envelope = await envelopeOf(await this.#post(request.answer ? 'ai-search' : 'search', body, false));
    const page = parse(request.answer ? LegacyAiSearchResult : LegacySearchResult, envelope.result);
    const chunks = page.data.map(fromLegacyData);
    const kind = request.answer ? kindOf(envelope.messages) : undefined;
    onEvent({ type: 'chunks', searchQuery: page.search_query, chunks, answerKind: kind });
    if (!request.answer) return { searchQuery: page.search_query, chunks, answer: undefined };
    const text = (page as LegacyAiSearchResult).response;
    onEvent({ type: 'delta', text });
    return { searchQuery: page.search_query, chunks, answer: { text, kind: kind! } };
  }
}

/** The instance says when its answer is extractive; anything else was generated. */
function kindOf(messages: readonly { code?: number | undefined }[]): AnswerKind {
  return messages.some((message) => message.code === SearchCodes.extractiveAnswer) ? 'extractive' : 'generated';
}

/** A legacy result as a chunk: attributes carry legacy millisecond timestamps. */
function fromLegacyData(data: LegacySearchData): SearchChunk {
  const a = data.attributes;
  const seconds = (value: unknown) => (typeof value === 'number' ? Math.floor(value / 1000) : typeof value === 'string' && /^\d+$/.test(value) ? Math.floor(Number(value) / 1000) : 0);
  return {
    id: `${data.file_id}#0`,
    type: 'text',
    score: data.score,
    text: data.content.map((c) => c.text).join('\n'),
    item: {
      key: data.file_id,
      timestamp: seconds(a.timestamp),
      metadata: {
        title: typeof a.title === 'string' ? a.title : data.filename,
        domain: typeof a.domain === 'string' ? a.domain : '',
        breachDate: seconds(a.breachDate),
        dataClasses: Array.isArray(a.dataClasses) ? a.dataClasses : [],
        isSensitive: a.isSensitive === true,
        isVerified: a.isVerified === true,
        pwnCount: typeof a.pwnCount === 'number' ? a.pwnCount : 0,
      },
    },
  };
}

async function envelopeOf(response: Response): Promise<Envelope> {
  const parsed = Envelope.safeParse(parseJson(await searchAnswerText(response)));
  if (!parsed.success) throw new RemoteSearchError('failed', 'The search instance answered something that is not its envelope.', response.status);
  if (!parsed.data.success) throw fromEnvelope(parsed.data, response.status);
  return parsed.data;
}

function fromEnvelope(envelope: Envelope, status: number): RemoteSearchError {
  const causes = rootCauses(envelope.errors);
  const message = causes.length > 0 ? causes.map((c) => `${c.message} (${c.code})`).join('; ') : `the search instance answered ${status}`;
  const kind = status === 401 || status === 403 ? 'auth' : status >= 400 && status < 500 ? 'rejected' : 'failed';
  return new RemoteSearchError(kind, message, status, causes);
}

/** An error answer, read as the envelope with or without `error_chain`, or described by its status. */
async function errorOf(response: Response): Promise<RemoteSearchError> {
  const text = await readTextPrefix(response, 64 * 1024);
  const envelope = Envelope.safeParse(parseJson(text, null));
  if (envelope.success) return fromEnvelope(envelope.data, response.status);
  const kind = response.status === 401 || response.status === 403 ? 'auth' : response.status < 500 ? 'rejected' : 'failed';
  return new RemoteSearchError(kind, `the search instance answered ${response.status} ${response.statusText}`.trim(), response.status);
}

function parseJson(text: string, fallback?: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (fallback !== undefined) return fallback;
    throw new RemoteSearchError('failed', 'The search instance answered text that is not JSON.');
  }
}

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { message: string } } }, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RemoteSearchError('failed', `The search instance's answer has an unexpected shape: ${parsed.error.message.slice(0, 300)}`);
  return parsed.data;
}

/** Characters one server-sent event may hold before its end: an instance's chunks and answer pieces are far smaller. */
export const MAX_EVENT_CHARS = 1024 * 1024;

/** Server-sent events of a response body, as they arrive; an event longer than {@link MAX_EVENT_CHARS} stops the reading. */
export async function* readEventStream(response: Response): AsyncGenerator<{ event: string | undefined; data: string }> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true }).replaceAll('\r\n', '\n');
    // Checked before looking for the end, so an event that never ends is never held whole (leaving the loop cancels the body).
    if (buffer.length > MAX_EVENT_CHARS && buffer.indexOf('\n\n') < 0)
      throw new RemoteSearchError('failed', `The search instance sent an event longer than ${MAX_EVENT_CHARS / (1024 * 1024)} MB; the answer was not read further.`);
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

/** A search instance's answer, within {@link MAX_SEARCH_ANSWER_BYTES}: past it, a failure in words rather than an answer held whole in memory. */
async function searchAnswerText(response: Response): Promise<string> {
  try {
    return await readBoundedText(response, MAX_SEARCH_ANSWER_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new RemoteSearchError('failed', `The search instance answered more than a search answer holds (${error.message}).`, response.status);
    throw error;
  }
}
