import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { BodyTooLargeError, formatBytes, readBoundedText, readTextPrefix } from '../../shared/base/boundedBody.ts';
import { parseRetryAfter } from './retryAfter.ts';
import { boundStealerDomains } from './stealerDomains.ts';

export { HIBP_DEFAULT_URL } from '../config.ts';
export { HIBP_ATTRIBUTION } from './constants.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/**
 * HIBP refuses requests without a user agent (403) and asks that it "accurately describe the
 * nature of the API consumer": the product, its version and what it does.
 */
export const HIBP_USER_AGENT = `BreachMonitor-Service/${VERSION} (breach-alert reference service of the Breach Monitor desktop app)`;

/** Why a request to HIBP did not give an answer, as the queue must treat it. */
export type HibpFailureKind =
  /** 401, or 403 to a request that carried our user agent: the key is not (or no longer) accepted. */
  | 'key-refused'
  /** 429: wait `retryAfterMs`, then try again. */
  | 'rate-limited'
  /** 5xx, a timeout or no connection: back off and try again. */
  | 'unavailable'
  /** 400: HIBP will never accept this parameter (e.g. a malformed address). */
  | 'bad-request'
  /** 2xx with a body that is not what the documentation describes. */
  | 'bad-answer'
  /**
   * The base URL does not answer like HIBP's API v3: `subscription/status` (which every key has)
   * or `breaches` answered 404, or a body that is not JSON of the documented shape.
   */
  | 'wrong-address';

/** A failed request to HIBP. Its message never carries the key, nor the address asked about. */
export class HibpError extends Error {
  readonly kind: HibpFailureKind;
  readonly status: number | undefined;
  /** From `retry-after` on a 429 (seconds or an HTTP-date), in milliseconds, at most `MAX_RETRY_AFTER_MS`. */
  readonly retryAfterMs: number | undefined;
  /** What `retry-after` asked for, when that was more than the service takes (`retryAfterMs`). */
  readonly retryAfterAskedMs: number | undefined;

  constructor(kind: HibpFailureKind, message: string, options: { status?: number; retryAfterMs?: number; retryAfterAskedMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HibpError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.retryAfterAskedMs = options.retryAfterAskedMs;
  }
}

// Plain objects (unknown keys dropped, never copied): zod copies a loose object's extra keys by
// assignment, which a key such as `valueOf` would trip over once Object.prototype is frozen.
export const SubscriptionStatus = z.object({
  SubscriptionName: z.string(),
  SubscribedUntil: z.string().optional(),
  Rpm: z.int().min(1),
  DomainSearchMaxBreachedAccounts: z.int().min(0).optional(),
  IncludesStealerLogs: z.boolean().default(false),
});
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

const TruncatedBreaches = z.array(z.object({ Name: z.string().min(1) }));
const BreachNames = z.array(z.string().min(1));
/** Characters of an error answer's body quoted in a message (a log line): enough for HIBP's sentences, never a whole page. */
export const MAX_BODY_EXCERPT = 200;

/**
 * The most of an answer that is read, in bytes: far beyond what HIBP sends (the whole catalog was
 * 0.9 MB in 2026; a person's answers are a few KB), so only a broken or hostile upstream reaches
 * it, and then the answer is refused and the rest never read nor held in memory. A domain search
 * lists every breached alias of the domain, so it gets the catalog's allowance.
 */
export const MAX_ANSWER_BYTES = { large: 32 * 1024 * 1024, small: 1024 * 1024 } as const;

export interface HibpClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  userAgent?: string;
}

/**
 * Have I Been Pwned's API v3, fetched here rather than through the `hibp` package: the package
 * turns every non-2xx answer into a plain `Error` without its status (a refused key (401), a
 * blocked client (403) and HIBP being down (5xx) cannot be told apart, and the queue must treat
 * them differently), reads `retry-after` as whole seconds only (RFC 9110 also allows an
 * HTTP-date), and puts a 401's whole body into its message (a log line of any length).
 */
export class HibpClient {
  readonly #baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;
  readonly #userAgent: string;

  constructor(options: HibpClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs;
    this.#userAgent = options.userAgent ?? HIBP_USER_AGENT;
  }

  get hasKey(): boolean {
    return this.#apiKey !== undefined;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  /** `GET breaches` (no key: "Authorisation is not required"): every breach record HIBP holds (JSON, validated by the catalog importer). */
  async breaches(): Promise<unknown> {
    const body = await this.#get('breaches', 'GET breaches', { keyed: false, maxBytes: MAX_ANSWER_BYTES.large });
    // The catalog always exists: a 404 means the base is not HIBP's API v3.
    if (body === null) throw new HibpError('wrong-address', `GET breaches: ${this.#baseUrl}/breaches answered 404 (not found)`, { status: 404 });
    return body;
  }

  /**
   * `GET subscription/status`: the key's plan, rate limit (Rpm) and whether stealer logs are
   * included. Every key has one, so a 404 or a body of another shape means the base URL is not
   * HIBP's API v3 (`wrong-address`).
   */
  async subscriptionStatus(): Promise<SubscriptionStatus> {
    let body: unknown;
    try {
      body = await this.#get('subscription/status', 'GET subscription/status');
    } catch (error) {
      if (error instanceof HibpError && error.kind === 'bad-answer')
        throw new HibpError('wrong-address', error.message, { ...(error.status === undefined ? {} : { status: error.status }), cause: error });
      throw error;
    }
    if (body === null) throw new HibpError('wrong-address', `GET subscription/status: ${this.#baseUrl}/subscription/status answered 404 (not found)`, { status: 404 });
    try {
      return parse(SubscriptionStatus, body, 'subscription/status');
    } catch (error) {
      throw new HibpError('wrong-address', (error as Error).message, { cause: error });
    }
  }

  /**
   * `GET breachedaccount/{account}?truncateResponse=true`: the names of the breaches HIBP holds
   * the address in (unverified ones included, HIBP's default), `[]` for its 404 ("not found").
   */
  async breachedAccount(email: string): Promise<string[]> {
    const body = await this.#get(`breachedaccount/${encodeURIComponent(email)}?truncateResponse=true`, 'GET breachedaccount');
    if (body === null) return [];
    return [...new Set(parse(TruncatedBreaches, body, 'breachedaccount').map((breach) => breach.Name))];
  }

  /**
   * `GET breacheddomain/{domain}`: alias (the part before "@") → breach names, for a domain
   * verified on the key's account; `{}` for a 404 (no breached address on it).
   */
  async breachedDomain(domain: string): Promise<Record<string, string[]>> {
    const body = await this.#get(`breacheddomain/${encodeURIComponent(domain)}`, 'GET breacheddomain', { maxBytes: MAX_ANSWER_BYTES.large });
    if (body === null) return {};
    return parseBreachedDomain(body);
  }

  /**
   * `GET stealerlogsbyemail/{email}`: website domains an infostealer captured credentials for
   * (`[]` for a 404), each a valid domain name, at most {@link MAX_STEALER_DOMAINS}: what is not
   * one is left out and counted in `dropped` (see `stealerDomains.ts`).
   */
  async stealerLogsByEmail(email: string): Promise<{ domains: string[]; dropped: number }> {
    const body = await this.#get(`stealerlogsbyemail/${encodeURIComponent(email)}`, 'GET stealerlogsbyemail');
    if (body === null) return { domains: [], dropped: 0 };
    if (!Array.isArray(body)) throw new HibpError('bad-answer', 'stealerlogsbyemail: the answer is not what HIBP documents (body: expected an array of website domains)');
    return boundStealerDomains(body);
  }

  /** The JSON body, or null for a 404; anything else that is not 2xx is a {@link HibpError}. */
  async #get(pathAndQuery: string, what: string, options: { keyed?: boolean; maxBytes?: number } = {}): Promise<unknown> {
    const headers: Record<string, string> = { 'user-agent': this.#userAgent, accept: 'application/json' };
    if (this.#apiKey !== undefined && options.keyed !== false) headers['hibp-api-key'] = this.#apiKey;
    let response: Response;
    try {
      response = await fetch(`${this.#baseUrl}/${pathAndQuery}`, { headers, signal: AbortSignal.timeout(this.#timeoutMs), redirect: 'error' });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new HibpError('unavailable', `${what}: ${timedOut ? `no answer within ${this.#timeoutMs} ms` : `cannot reach ${new URL(this.#baseUrl).host}`}`, { cause: error });
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (response.ok) {
      const text = await answerText(response, options.maxBytes ?? MAX_ANSWER_BYTES.small, what);
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new HibpError('bad-answer', `${what}: the answer is not JSON`, { status: response.status, cause: error });
      }
    }
    // HIBP's error bodies are a sentence ("Access denied due to invalid hibp-api-key."): a bounded excerpt, never the whole body.
    const said = await bodyExcerpt(response);
    const quoted = said ? `: ${JSON.stringify(said)}` : '';
    switch (response.status) {
      case 400:
        throw new HibpError('bad-request', `${what}: HIBP refused the parameter (400)`, { status: 400 });
      case 401:
      case 403:
        // Without a key (the catalog), a 401/403 refuses the client, not a key.
        throw new HibpError('key-refused', `${what}: HIBP refused ${options.keyed === false ? 'the request' : 'the API key'} (${response.status})${quoted}`, { status: response.status });
      case 429: {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'), Date.now());
        return Promise.reject(
          new HibpError('rate-limited', `${what}: HIBP answered 429 (rate limit)`, {
            status: 429,
            ...(retryAfter ? { retryAfterMs: retryAfter.ms, ...(retryAfter.askedMs > retryAfter.ms ? { retryAfterAskedMs: retryAfter.askedMs } : {}) } : {}),
          }),
        );
      }
      default:
        throw new HibpError(response.status >= 500 ? 'unavailable' : 'bad-answer', `${what}: HIBP answered ${response.status}${quoted}`, { status: response.status });
    }
  }
}

/** A 2xx answer's body as text, read up to `maxBytes` (shared/base/boundedBody.ts); a longer one is a bad answer, cut off. */
async function answerText(response: Response, maxBytes: number, what: string): Promise<string> {
  try {
    return await readBoundedText(response, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new HibpError('bad-answer', `${what}: the answer is larger than ${formatBytes(maxBytes)} (HIBP's are far smaller); it was not read`, { status: response.status });
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new HibpError('unavailable', `${what}: the answer ${timedOut ? 'did not arrive in time' : 'was cut short'}`, { status: response.status, cause: error });
  }
}

/**
 * The first {@link MAX_BODY_EXCERPT} characters of an error answer's body, control characters
 * replaced (a log line stays one line); the rest is never read. Empty when there is none.
 */
export async function bodyExcerpt(response: Response): Promise<string> {
  // Each UTF-8 byte is at most one character: MAX_BODY_EXCERPT × 4 bytes always hold enough.
  const text = await readTextPrefix(response, MAX_BODY_EXCERPT * 4);
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean.length > MAX_BODY_EXCERPT ? `${clean.slice(0, MAX_BODY_EXCERPT)}…` : clean;
}

/**
 * Alias → breach names, into an object without a prototype: an alias is any local part,
 * `constructor` included, which zod's record (built by assignment) would trip over once
 * Object.prototype is frozen.
 */
function parseBreachedDomain(body: unknown): Record<string, string[]> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HibpError('bad-answer', 'breacheddomain: the answer is not what HIBP documents (body: expected an object of alias → breach names)');
  const byAlias = Object.create(null) as Record<string, string[]>;
  for (const [alias, names] of Object.entries(body)) byAlias[alias] = parse(BreachNames, names, `breacheddomain (alias ${JSON.stringify(alias)})`);
  return byAlias;
}

function parse<T>(schema: z.ZodType<T>, body: unknown, endpoint: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HibpError('bad-answer', `${endpoint}: the answer is not what HIBP documents (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`);
}
