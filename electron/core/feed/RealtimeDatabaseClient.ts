import { ApiError, kindOfStatus, parseRetryAfter } from '../api/ApiError.ts';
import { fetchServiceAccountToken, type ServiceAccountKey, type ServiceAccountToken } from './serviceAccountToken.ts';
import { answerText, errorText } from '../api/answerText.ts';

/** How the app authenticates to the details feed (seed 001's three methods, or none). */
export type FeedCredential =
  | { kind: 'none' }
  /** The sign-in's ID token as `?auth=`: acts as the person under the database's rules. */
  | { kind: 'id-token'; getIdToken(): Promise<string>; idTokenAfterUnauthorized?(rejected: string): Promise<string> }
  /** A service-account access token (JWT-bearer grant at the key file's `token_uri`) as `Authorization: Bearer`. */
  | { kind: 'service-account'; key: ServiceAccountKey }
  /** A legacy database secret as `?auth=`: still accepted, discouraged. */
  | { kind: 'secret'; secret: string };

export type ReadResult = { status: 'ok'; value: unknown; etag: string | undefined } | { status: 'not-modified'; etag: string };

const TIMEOUT_MS = 30_000;
/** Renew a service-account token this long before it expires. */
const TOKEN_MARGIN_MS = 60_000;

/**
 * A client of a realtime database's REST interface (`GET/PUT {db}/<path>.json`), as any client
 * of such a database: credentials per {@link FeedCredential}, `X-Firebase-ETag` to learn a
 * location's ETag, and `If-None-Match` with it so an unchanged location costs no body where
 * the server supports that (the reference service does; one that answers 200 with the same
 * ETag is recognised too). Errors are `ApiError`s, so the core's one error vocabulary applies.
 */
export class RealtimeDatabaseClient {
  readonly url: string;
  readonly #credential: FeedCredential;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  #token: Promise<ServiceAccountToken> | undefined;

  constructor(options: { url: string; credential: FeedCredential; fetch?: typeof fetch; now?: () => number }) {
    this.url = options.url.replace(/\/+$/, '');
    this.#credential = options.credential;
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The JSON at `path`; with `etag`, `not-modified` when the location still has it. `query` adds
   * the database's query parameters (`orderBy`, `limitToFirst`, `startAt`, …: JSON-encoded, as
   * Firebase's REST interface takes them).
   */
  async get(path: string, options: { etag?: string | undefined; query?: Readonly<Record<string, string>>; signal?: AbortSignal } = {}): Promise<ReadResult> {
    const headers = { 'x-firebase-etag': 'true', ...(options.etag ? { 'if-none-match': options.etag } : {}) };
    const response = await this.#send('GET', path, headers, undefined, options.signal, false, options.query);
    const etag = response.headers.get('etag') ?? undefined;
    if (response.status === 304) return { status: 'not-modified', etag: etag ?? options.etag! };
    const value = await readJson(response);
    if (etag !== undefined && etag === options.etag) return { status: 'not-modified', etag };
    return { status: 'ok', value, etag };
  }

  /** Sets the JSON at `path`; answers what the database stored. */
  async put(path: string, value: unknown, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    const response = await this.#send('PUT', path, { 'content-type': 'application/json' }, JSON.stringify(value), options.signal);
    return readJson(response);
  }

  /**
   * Sets the JSON at `path` only if the location still has `etag` (the database's conditional
   * request: `if-match`, answered 412 with the current value and its ETag when another write came
   * first).
   */
  async putIfMatch(path: string, value: unknown, etag: string, options: { signal?: AbortSignal } = {}): Promise<{ status: 'ok' } | { status: 'changed'; value: unknown; etag: string | undefined }> {
    const response = await this.#send('PUT', path, { 'content-type': 'application/json', 'if-match': etag }, JSON.stringify(value), options.signal);
    if (response.status === 412) return { status: 'changed', value: await readJson(response), etag: response.headers.get('etag') ?? undefined };
    await readJson(response);
    return { status: 'ok' };
  }

  async #send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
    retried = false,
    query: Readonly<Record<string, string>> = {},
    refusedIdToken?: string,
  ): Promise<Response> {
    const url = new URL(`${this.url}/${path.replace(/^\/+|\/+$/g, '')}.json`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const auth = await this.#authorize(url, refusedIdToken);
    let response: Response;
    try {
      response = await this.#fetch(url, {
        method,
        headers: { accept: 'application/json', ...headers, ...auth },
        ...(body === undefined ? {} : { body }),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new ApiError(timedOut ? 'timeout' : 'network', `the details feed at ${this.url} ${timedOut ? 'did not answer in time' : 'could not be reached'}`, { cause: error });
    }
    if (response.ok || response.status === 304 || (response.status === 412 && 'if-match' in headers)) return response;
    // A service-account token may have been revoked or expired early, an ID token's grant revoked
    // (a sign-in elsewhere ended it) or refused by a clock that disagrees: get a new one once.
    if (response.status === 401 && !retried) {
      if (this.#credential.kind === 'service-account') {
        this.#token = undefined;
        return this.#send(method, path, headers, body, signal, true, query);
      }
      if (this.#credential.kind === 'id-token' && this.#credential.idTokenAfterUnauthorized) {
        await response.body?.cancel();
        return this.#send(method, path, headers, body, signal, true, query, url.searchParams.get('auth') ?? undefined);
      }
    }
    const text = await errorText(response);
    let detail = text.slice(0, 500);
    try {
      const json = JSON.parse(text) as { error?: unknown };
      if (typeof json.error === 'string') detail = json.error;
    } catch {
      // Not JSON: keep the text.
    }
    throw new ApiError(kindOfStatus(response.status), `the details feed refused ${method} ${path}: ${detail}`, {
      status: response.status,
      ...(response.headers.get('retry-after') ? { retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), this.#now()) } : {}),
    });
  }

  /** Adds the credential to `url` or answers its headers; `refusedIdToken`: one the database just refused. */
  async #authorize(url: URL, refusedIdToken?: string): Promise<Record<string, string>> {
    const credential = this.#credential;
    switch (credential.kind) {
      case 'none':
        return {};
      case 'id-token':
        url.searchParams.set('auth', refusedIdToken !== undefined && credential.idTokenAfterUnauthorized ? await credential.idTokenAfterUnauthorized(refusedIdToken) : await credential.getIdToken());
        return {};
      case 'secret':
        url.searchParams.set('auth', credential.secret);
        return {};
      case 'service-account': {
        const current = this.#token ? await this.#token.catch(() => undefined) : undefined;
        if (!current || current.expiresAt - TOKEN_MARGIN_MS <= this.#now()) {
          this.#token = fetchServiceAccountToken(credential.key, undefined, { fetch: this.#fetch, now: this.#now });
          this.#token.catch(() => (this.#token = undefined));
        }
        let token: ServiceAccountToken;
        try {
          token = await this.#token!;
        } catch (error) {
          throw new ApiError('unauthorized', error instanceof Error ? error.message : String(error), { cause: error });
        }
        return { authorization: `Bearer ${token.accessToken}` };
      }
    }
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await answerText(response);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('protocol', `the details feed answered something that is not JSON (${text.slice(0, 80)})`, { status: response.status });
  }
}
