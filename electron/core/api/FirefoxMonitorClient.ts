import { dataClassKey, FirefoxError, FirefoxUserBreachList, mergeFirefoxResolutions, ResolvableSlug, type BreachQueryInput, type ResolutionItem } from '../../../shared/api/index.ts';
import type { BreachDetails } from '../../../shared/catalog/index.ts';
import type { AccessTokenSource } from './AccessTokenSource.ts';
import { ApiError, kindOfStatus, parseRetryAfter, type ApiErrorKind } from './ApiError.ts';
import type { ListBreachesResult } from './BreachAlertClient.ts';
import type { ServerUserBreach } from './serverBreaches.ts';
import { readBreachDataHeaders } from './breachDataHeaders.ts';
import { readChecksAnswer } from './readChecksAnswer.ts';
import type { ChecksAnswer } from '../db/breachDataQueries.ts';
import { discardBody } from '../../../shared/base/boundedBody.ts';
import { answerText, errorText } from './answerText.ts';

/**
 * Where the newer contract's items get their breach: the details feed's copy on this machine
 * (`DetailsStore`), brought up to date once when an item names a breach it does not hold yet.
 */
export interface BreachDetailsSource {
  getMany(ids: readonly string[]): Map<string, BreachDetails>;
  /** Syncs the feed (ETag: one round trip when unchanged). */
  refresh?(signal?: AbortSignal): Promise<void>;
}

export interface FirefoxMonitorClientOptions {
  /** The API base, with its `/api/firefox/v1` prefix. */
  baseUrl: string;
  tokens: AccessTokenSource;
  details: BreachDetailsSource;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** How a code of the contract is handled; an unknown code falls back to its status (upstream asks so). */
const KIND_OF_CODE: Readonly<Record<string, ApiErrorKind>> = {
  'token-invalid': 'unauthorized',
  // A token without the scope: signing in again asks for it.
  'missing-scope': 'forbidden',
  'no-monitor-account': 'no-account',
  'invalid-request': 'invalid',
  'not-found': 'not-found',
  'rate-limited': 'rate-limited',
  'internal-error': 'server',
  unavailable: 'server',
};

/**
 * The newer Monitor contract (`/api/firefox/v1`) behind the same face as `BreachAlertClient`,
 * so the puller, the outbox and the scheduler see one model: items `{id, breachedAccounts}` are
 * joined to the details feed into the older contract's breach records, slugs become the breach's
 * own spelling of each class, and toggles go out as one-way `{breachId, dataClasses}` items.
 *
 * What this contract cannot carry (an unresolve, a class other than passwords or email
 * addresses) never reaches here: the outbox keeps those on this machine ({@link canSendUnderFirefox}).
 */
export class FirefoxMonitorClient {
  readonly #baseUrl: string;
  readonly #tokens: AccessTokenSource;
  readonly #details: BreachDetailsSource;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;
  /** Ids the last list could not join to details (the feed lags the service; picked up later). */
  unjoined: string[] = [];

  constructor(options: FirefoxMonitorClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#tokens = options.tokens;
    this.#details = options.details;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? fetch;
  }

  /** There is no `POST /user` here: people sign up on the service's site. Ready means "nothing to do". */
  async createUser(): Promise<{ created: boolean; emails: string[] | undefined }> {
    return { created: false, emails: undefined };
  }

  /**
   * `GET /user/breaches` (the `domain` filter only; sensitive breaches are never served). Always
   * a full answer: the contract has no ETag, so the stored tag is not sent.
   */
  async listBreaches(query: BreachQueryInput, options: { etag?: string | undefined; signal?: AbortSignal } = {}): Promise<ListBreachesResult> {
    if (query.dataClasses?.length || query.unresolvedDataClasses?.length) {
      throw new ApiError('invalid', 'the newer Monitor contract filters by domain only', {});
    }
    const search = query.domain !== undefined ? `?${new URLSearchParams({ domain: query.domain })}` : '';
    const response = await this.#send('GET', '/user/breaches' + search, undefined, options.signal);
    const text = await answerText(response);
    const parsed = FirefoxUserBreachList.safeParse(safeJson(text));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ApiError('protocol', `the service sent breaches in an unexpected shape at /${issue.path.join('/')}: ${issue.message}`, { status: response.status });
    }
    const ids = parsed.data.map((item) => item.id);
    let details = this.#details.getMany(ids);
    if (details.size < ids.length && this.#details.refresh) {
      try {
        await this.#details.refresh(options.signal);
        details = this.#details.getMany(ids);
      } catch (error) {
        // The feed is a separate service: when it cannot be reached, what it already gave still
        // joins, and the rest waits for a later sync (the breach list itself must not fail).
        if (options.signal?.aborted) throw error;
      }
    }
    const items: ServerUserBreach[] = [];
    const unjoined: string[] = [];
    for (const item of parsed.data) {
      const breach = details.get(item.id);
      // Upstream: skip an id you cannot resolve rather than erroring, and pick it up later.
      if (!breach) {
        unjoined.push(item.id);
        continue;
      }
      const spelling = new Map(breach.dataClasses.map((name) => [dataClassKey(name), name]));
      items.push({
        breach: {
          id: item.id,
          domain: breach.domain,
          breachDate: breach.breachDate,
          addedDate: breach.addedDate,
          modifiedDate: breach.modifiedDate,
          dataClasses: [...breach.dataClasses],
          isSensitive: breach.isSensitive,
        },
        breachedAccounts: item.breachedAccounts.map((account) => ({
          email: account.email,
          // A value this client does not know is kept as sent (the set is open upstream).
          resolvedDataClasses: Object.fromEntries(account.resolvedDataClasses.map((slug) => [spelling.get(dataClassKey(slug)) ?? slug, {}])),
        })),
      });
    }
    this.unjoined = unjoined;
    return { status: 200, etag: undefined, items, bytes: text.length, breachData: readBreachDataHeaders(response.headers) };
  }

  /** `GET /user/checks` beside the contract's breaches, where the service serves it; a 404 is `not-served`. */
  async getChecks(signal?: AbortSignal): Promise<ChecksAnswer> {
    try {
      const response = await this.#send('GET', '/user/checks', undefined, signal);
      return readChecksAnswer(response.headers, await answerText(response), response.status);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { status: 'not-served' };
      throw error;
    }
  }

  /** `POST /user/breaches/resolutions`: only resolves of the two classes the contract takes. */
  async postResolutions(items: readonly ResolutionItem[], signal?: AbortSignal): Promise<void> {
    const body = mergeFirefoxResolutions(
      items.map((item, index) => {
        if (!item.resolved)
          throw new ApiError('invalid', `item ${index}: the newer Monitor contract cannot unresolve`, { fieldErrors: [{ pointer: `/${index}/resolved`, message: 'cannot unresolve' }] });
        const slugs = item.dataClasses.map((name, classIndex) => {
          const slug = ResolvableSlug.safeParse(dataClassKey(name));
          if (!slug.success)
            throw new ApiError('invalid', `item ${index}: "${name}" cannot be resolved through the newer Monitor contract`, {
              fieldErrors: [{ pointer: `/${index}/dataClasses/${classIndex}`, message: 'not resolvable' }],
            });
          return slug.data;
        });
        return { breachId: item.breachId, dataClasses: slugs };
      }),
    );
    if (body.length === 0) return;
    const response = await this.#send('POST', '/user/breaches/resolutions', JSON.stringify(body), signal);
    await discardBody(response);
  }

  async #send(method: string, path: string, body: string | undefined, signal: AbortSignal | undefined): Promise<Response> {
    let token = await this.#tokens.getAccessToken();
    let response = await this.#fetchOnce(method, path, body, token, signal);
    if (response.status === 401) {
      await discardBody(response);
      token = await this.#tokens.refreshAfterUnauthorized(token);
      response = await this.#fetchOnce(method, path, body, token, signal);
    }
    if (response.ok) return response;
    throw await errorFrom(response);
  }

  async #fetchOnce(method: string, path: string, body: string | undefined, token: string, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
    try {
      return await this.#fetch(this.#baseUrl + path, { method, headers, ...(body !== undefined ? { body } : {}), signal: combined, cache: 'no-store' });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (timeout.aborted) throw new ApiError('timeout', `the service did not answer within ${Math.round(this.#timeoutMs / 1000)} s`, { cause: error });
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiError('network', `could not reach the service: ${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))}`, { cause: error });
    }
  }
}

/** True when the newer contract can carry this intent; anything else stays on this machine. */
export function canSendUnderFirefox(intent: { resolved: boolean; classKey: string }): boolean {
  return intent.resolved && ResolvableSlug.safeParse(intent.classKey).success;
}

async function errorFrom(response: Response): Promise<ApiError> {
  const text = await errorText(response);
  const parsed = FirefoxError.safeParse(safeJson(text));
  // A firewall may answer first, without this body: fall back to the status.
  const kind = (parsed.success ? KIND_OF_CODE[parsed.data.code] : undefined) ?? kindOfStatus(response.status);
  const detail = parsed.success ? `${parsed.data.message} (${parsed.data.code})` : text.trim().slice(0, 500) || response.statusText || `HTTP ${response.status}`;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  return new ApiError(kind, detail, { status: response.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
