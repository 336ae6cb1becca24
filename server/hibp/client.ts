import { readFileSync } from 'node:fs';
import { breaches as fetchBreaches, RateLimitError } from 'hibp';
import { z } from 'zod';

export { HIBP_ATTRIBUTION, HIBP_DEFAULT_URL } from './constants.ts';

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
  | 'bad-answer';

/** A failed request to HIBP. Its message never carries the key, nor the address asked about. */
export class HibpError extends Error {
  readonly kind: HibpFailureKind;
  readonly status: number | undefined;
  /** From `retry-after` on a 429 (whole seconds, per the documentation), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: HibpFailureKind, message: string, options: { status?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HibpError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export const SubscriptionStatus = z.looseObject({
  SubscriptionName: z.string(),
  SubscribedUntil: z.string().optional(),
  Rpm: z.int().min(1),
  DomainSearchMaxBreachedAccounts: z.int().min(0).optional(),
  IncludesStealerLogs: z.boolean().default(false),
});
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

const TruncatedBreaches = z.array(z.looseObject({ Name: z.string().min(1) }));
const BreachedDomain = z.record(z.string(), z.array(z.string().min(1)));
const StealerLogDomains = z.array(z.string().min(1));

export interface HibpClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  userAgent?: string;
}

/**
 * Have I Been Pwned's API v3. The catalog (`GET breaches`, no key) goes through the `hibp`
 * package. The keyed endpoints are fetched here: the package turns every non-2xx answer into a
 * plain `Error` without its status, so a refused key (401), a blocked client (403) and HIBP being
 * down (5xx) cannot be told apart, and the queue must treat them differently (stop and say so;
 * back off and retry).
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

  /** `GET breaches`: every breach record HIBP holds (JSON, validated by the catalog importer). */
  async breaches(): Promise<unknown> {
    try {
      return await fetchBreaches({ baseUrl: this.#baseUrl, timeoutMs: this.#timeoutMs, userAgent: this.#userAgent });
    } catch (error) {
      if (error instanceof RateLimitError) {
        const seconds = error.retryAfterSeconds;
        throw new HibpError('rate-limited', 'HIBP answered 429 to GET breaches', { status: 429, ...(seconds !== undefined && Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}) });
      }
      throw new HibpError('unavailable', `GET breaches failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /** `GET subscription/status`: the key's plan, rate limit (Rpm) and whether stealer logs are included. */
  async subscriptionStatus(): Promise<SubscriptionStatus> {
    const body = await this.#get('subscription/status', 'GET subscription/status');
    return parse(SubscriptionStatus, body, 'subscription/status');
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
    const body = await this.#get(`breacheddomain/${encodeURIComponent(domain)}`, 'GET breacheddomain');
    if (body === null) return {};
    return parse(BreachedDomain, body, 'breacheddomain');
  }

  /** `GET stealerlogsbyemail/{email}`: website domains an infostealer captured credentials for; `[]` for a 404. */
  async stealerLogsByEmail(email: string): Promise<string[]> {
    const body = await this.#get(`stealerlogsbyemail/${encodeURIComponent(email)}`, 'GET stealerlogsbyemail');
    if (body === null) return [];
    return [...new Set(parse(StealerLogDomains, body, 'stealerlogsbyemail'))].sort();
  }

  /** The JSON body, or null for a 404; anything else that is not 2xx is a {@link HibpError}. */
  async #get(pathAndQuery: string, what: string): Promise<unknown> {
    const headers: Record<string, string> = { 'user-agent': this.#userAgent, accept: 'application/json' };
    if (this.#apiKey !== undefined) headers['hibp-api-key'] = this.#apiKey;
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
      try {
        return await response.json();
      } catch (error) {
        throw new HibpError('bad-answer', `${what}: the answer is not JSON`, { status: response.status, cause: error });
      }
    }
    await response.body?.cancel();
    switch (response.status) {
      case 400:
        throw new HibpError('bad-request', `${what}: HIBP refused the parameter (400)`, { status: 400 });
      case 401:
      case 403:
        throw new HibpError('key-refused', `${what}: HIBP refused the API key (${response.status})`, { status: response.status });
      case 429: {
        const seconds = Number(response.headers.get('retry-after'));
        return Promise.reject(
          new HibpError('rate-limited', `${what}: HIBP answered 429 (rate limit)`, { status: 429, ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {}) }),
        );
      }
      default:
        throw new HibpError(response.status >= 500 ? 'unavailable' : 'bad-answer', `${what}: HIBP answered ${response.status}`, { status: response.status });
    }
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown, endpoint: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HibpError('bad-answer', `${endpoint}: the answer is not what HIBP documents (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`);
}
