import { NodeResponse } from '../../../shared/graph/index.ts';
import { parseRetryAfter } from '../api/ApiError.ts';
import type { SecretKey, SecretStore } from '../auth/secrets/SecretStore.ts';
import { backoffDelay, type BackoffPolicy } from '../api/backoff.ts';
import { mergeNodeResponses, type NodeQueryResult } from './mergeResponses.ts';
import type { QueryCache } from './QueryCache.ts';
import { BodyTooLargeError, discardBody, readBoundedText, readTextPrefix } from '../../../shared/base/boundedBody.ts';

/** The most of one page of the graph endpoint's answer read (a page is a few MB at most). */
const MAX_NODE_ANSWER_BYTES = 64 * 1024 * 1024;

export type NodeQueryErrorKind =
  /** No API key is stored for this endpoint. */
  | 'no-key'
  /** 401/403: the key is missing, wrong or revoked. */
  | 'unauthorized'
  /** Another 4xx: the query itself is refused (a bad expression is a 400). */
  | 'rejected'
  /** The endpoint could not answer: unreachable, timed out, or 429/5xx after every retry. */
  | 'unavailable'
  /** The endpoint answered something that is not the interface's response. */
  | 'protocol';

export class NodeQueryError extends Error {
  override readonly name = 'NodeQueryError';
  readonly kind: NodeQueryErrorKind;
  readonly status: number | undefined;
  constructor(kind: NodeQueryErrorKind, message: string, status?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

export interface NodeQueryClientOptions {
  /** The endpoint's base, e.g. `https://api.datacommons.org`; requests go to `<base>/v2/node`. */
  baseUrl: string;
  /** Where the API key lives (the keychain in the app); see {@link graphApiKeySecret}. */
  secrets: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  /** Whole answers kept for offline use; without it, no offline answers. */
  cache?: QueryCache;
  /** `POST` (default) keeps the key out of URLs; `GET` sends it as the `key` parameter. */
  method?: 'GET' | 'POST';
  /** Pages followed per query before stopping with `complete: false`. Default 100. */
  maxPages?: number;
  /** Tries per page, first included. Default 4. */
  maxAttempts?: number;
  backoff?: Partial<BackoffPolicy>;
  timeoutMs?: number;
  fetch?: typeof fetch;
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  now?: () => Date;
}

export interface NodeQueryRequest {
  nodes: readonly string[];
  property: string;
  /** Continue an answer from a token (a capped query's `response.nextToken`). */
  nextToken?: string | undefined;
}

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 8_000, maxRetryAfterMs: 60_000 };

/** The keychain entry of an endpoint's API key. */
export function graphApiKeySecret(endpoint: string): SecretKey {
  return { issuer: endpoint, subject: 'graph-api-key' };
}

/**
 * A client of a remote graph node query endpoint (`GET`/`POST /v2/node`). A query follows
 * `nextToken` until the answer is whole (or the page cap), merges the pages, retries 429 and
 * 5xx with capped backoff (honouring `Retry-After`), and keeps whole answers in the cache; when
 * the endpoint cannot be reached, a cached answer is returned and says so (`source: 'cache'`).
 */
export class NodeQueryClient {
  readonly endpoint: string;
  readonly #options: NodeQueryClientOptions;
  readonly #fetch: typeof fetch;
  readonly #policy: BackoffPolicy;

  constructor(options: NodeQueryClientOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.endpoint = base.endsWith('/v2/node') ? base : `${base}/v2/node`;
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
    this.#policy = { ...DEFAULT_BACKOFF, ...options.backoff };
  }

  async setApiKey(key: string): Promise<void> {
    if (key.trim() === '') throw new TypeError('an API key must not be empty');
    await this.#options.secrets.set(graphApiKeySecret(this.endpoint), key.trim());
  }

  async clearApiKey(): Promise<void> {
    await this.#options.secrets.delete(graphApiKeySecret(this.endpoint));
  }

  async hasApiKey(): Promise<boolean> {
    return (await this.#options.secrets.get(graphApiKeySecret(this.endpoint))) !== undefined;
  }

  async query(request: NodeQueryRequest, options: { signal?: AbortSignal; method?: 'GET' | 'POST'; maxPages?: number } = {}): Promise<NodeQueryResult> {
    const { signal } = options;
    signal?.throwIfAborted();
    const key = await this.#options.secrets.get(graphApiKeySecret(this.endpoint));
    if (key === undefined) throw new NodeQueryError('no-key', `no API key is stored for ${this.endpoint}; add one before querying it`);
    const method = options.method ?? this.#options.method ?? 'POST';
    const maxPages = options.maxPages ?? this.#options.maxPages ?? 100;
    const now = this.#options.now ?? (() => new Date());
    const cache = this.#options.cache;
    // A continuation is part of an answer, not an answer: it is neither cached nor answered from the cache.
    const cacheable = request.nextToken === undefined;

    const pages: NodeResponse[] = [];
    const seen = new Set<string>();
    let token = request.nextToken;
    try {
      do {
        const page = await this.#page({ nodes: request.nodes, property: request.property, nextToken: token }, method, key, signal);
        pages.push(page);
        token = page.nextToken;
        if (token !== undefined) {
          if (seen.has(token)) throw new NodeQueryError('protocol', `${this.endpoint} sent the same nextToken twice; the answer would never end`);
          seen.add(token);
        }
      } while (token !== undefined && pages.length < maxPages);
    } catch (error) {
      if (error instanceof NodeQueryError && error.kind === 'unavailable' && cache && cacheable) {
        const cached = cache.get(this.endpoint, request.nodes, request.property);
        if (cached) return { response: cached.response, source: 'cache', fetchedAt: cached.fetchedAt, pages: 0, complete: true, offlineReason: error.message };
      }
      throw error;
    }
    const response = mergeNodeResponses(pages);
    const fetchedAt = now().toISOString();
    const complete = response.nextToken === undefined;
    if (complete && cache && cacheable) cache.put(this.endpoint, request.nodes, request.property, response, fetchedAt);
    return { response, source: 'network', fetchedAt, pages: pages.length, complete };
  }

  /** One page, retried on 429, 5xx and network failures. */
  async #page(request: NodeQueryRequest, method: 'GET' | 'POST', key: string, signal: AbortSignal | undefined): Promise<NodeResponse> {
    const maxAttempts = this.#options.maxAttempts ?? 4;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      let response: Response;
      try {
        response = await this.#send(request, method, key, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
        if (attempt >= maxAttempts) throw new NodeQueryError('unavailable', `${this.endpoint} could not be reached: ${reason}`);
        await this.#sleep(backoffDelay(attempt, this.#policy, this.#options.random ?? Math.random), signal);
        continue;
      }
      if (response.ok) return this.#read(response);
      if (response.status === 429 || response.status >= 500) {
        await discardBody(response);
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        // A wait longer than we would ever choose is the service saying "not now": give up (or use the cache).
        if (attempt >= maxAttempts || (retryAfter !== undefined && retryAfter > this.#policy.maxRetryAfterMs)) {
          throw new NodeQueryError(
            'unavailable',
            `${this.endpoint} answered ${response.status}${retryAfter !== undefined ? ` (retry after ${Math.ceil(retryAfter / 1000)} s)` : ''} after ${attempt} tries`,
            response.status,
          );
        }
        await this.#sleep(backoffDelay(attempt, this.#policy, this.#options.random ?? Math.random, retryAfter), signal);
        continue;
      }
      const detail = await errorDetail(response);
      if (response.status === 401 || response.status === 403) {
        throw new NodeQueryError('unauthorized', `${this.endpoint} refused the API key (${response.status})${detail ? `: ${detail}` : ''}`, response.status);
      }
      throw new NodeQueryError('rejected', `${this.endpoint} refused the query (${response.status})${detail ? `: ${detail}` : ''}`, response.status);
    }
  }

  #send(request: NodeQueryRequest, method: 'GET' | 'POST', key: string, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#options.timeoutMs ?? 30_000);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    if (method === 'GET') {
      const query = new URLSearchParams({ key });
      for (const node of request.nodes) query.append('nodes', node);
      query.set('property', request.property);
      if (request.nextToken !== undefined) query.set('nextToken', request.nextToken);
      return this.#fetch(`${this.endpoint}?${query}`, { headers: { accept: 'application/json' }, signal: combined });
    }
    const body = { nodes: request.nodes, property: request.property, ...(request.nextToken !== undefined ? { nextToken: request.nextToken } : {}) };
    return this.#fetch(this.endpoint, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
      signal: combined,
    });
  }

  async #read(response: Response): Promise<NodeResponse> {
    let json: unknown;
    try {
      json = JSON.parse(await readBoundedText(response, MAX_NODE_ANSWER_BYTES));
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw new NodeQueryError('protocol', `${this.endpoint} answered more than a page holds (${error.message})`, response.status);
      throw new NodeQueryError('protocol', `${this.endpoint} answered ${response.status} with a body that is not JSON: ${error instanceof Error ? error.message : String(error)}`, response.status);
    }
    const parsed = NodeResponse.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new NodeQueryError('protocol', `${this.endpoint} answered in an unexpected shape at /${issue.path.join('/')}: ${issue.message}`, response.status);
    }
    return parsed.data;
  }

  #sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.#options.sleep) return this.#options.sleep(ms, signal);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** The reason in an error body: problem+json `detail`, the Google-style `message`, or the text. */
async function errorDetail(response: Response): Promise<string> {
  const text = await readTextPrefix(response, 64 * 1024);
  try {
    const body = JSON.parse(text) as { detail?: unknown; message?: unknown; error?: { message?: unknown } };
    for (const candidate of [body.detail, body.message, body.error?.message]) if (typeof candidate === 'string') return candidate;
  } catch {
    // not JSON: the text itself, shortened
  }
  return text.trim().slice(0, 300);
}
