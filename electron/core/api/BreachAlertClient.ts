import { z } from 'zod';
import {
  CatalogChanges,
  Email,
  EMAIL_VERIFICATION_HEADER,
  EmailVerificationMode,
  PersonEmail,
  PersonEmailList,
  ProblemFieldError,
  toBreachSearchParams,
  type BreachQueryInput,
  type CatalogChange,
  type ResolutionItem,
} from '../../../shared/api/index.ts';
import { ApiError, kindOfStatus, parseRetryAfter } from './ApiError.ts';
import type { AccessTokenSource } from './AccessTokenSource.ts';
import { readServerBreaches, type ServerUserBreach } from './serverBreaches.ts';
import { readBreachDataHeaders } from './breachDataHeaders.ts';
import { readChecksAnswer } from './readChecksAnswer.ts';
import type { BreachDataHeaderValues, ChecksAnswer } from '../db/breachDataQueries.ts';
import { discardBody } from '../../../shared/base/boundedBody.ts';
import { answerText, errorText } from './answerText.ts';

// The list's schema and its one-pass reader live beside each other.
export { ServerUserBreachList, type ServerUserBreach } from './serverBreaches.ts';

const ProblemLike = z.object({ detail: z.string().optional(), title: z.string().optional(), errors: z.array(ProblemFieldError).optional() });

export interface BreachAlertClientOptions {
  /** The API base, with its `/api/v1` prefix. */
  baseUrl: string;
  tokens: AccessTokenSource;
  timeoutMs?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** `GET /user/catalog-changes` answered: the changes, and their `breach-catalog-changes-version` where the service says it. */
export interface CatalogChangesAnswer {
  changes: CatalogChange[];
  version?: string | undefined;
}

/** `breachData`: the answer's `breach-data` / `breach-checks-pending` / follow-up version headers (shared/api/checks.ts), on a 304 too. */
export type ListBreachesResult =
  { status: 200; etag: string | undefined; items: ServerUserBreach[]; bytes: number; breachData?: BreachDataHeaderValues } | { status: 304; etag: string; breachData?: BreachDataHeaderValues };

/** The breach-alert API over HTTPS with a bearer token: one refresh-and-retry on 401. */
export class BreachAlertClient {
  readonly #baseUrl: string;
  readonly #tokens: AccessTokenSource;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: BreachAlertClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#tokens = options.tokens;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? fetch;
  }

  /** `POST /user`: any 2xx means ready (CONTRACT tolerance); the body is read when it has emails. */
  async createUser(signal?: AbortSignal): Promise<{ created: boolean; emails: string[] | undefined }> {
    const response = await this.#send('POST', '/user', undefined, {}, signal);
    const body = await answerText(response);
    const parsed = z.object({ emails: z.array(Email) }).safeParse(safeJson(body));
    return { created: response.status === 201, emails: parsed.success ? parsed.data.emails : undefined };
  }

  /**
   * `onListed`: called once a 200's headers are in, before its body is read and checked: the
   * service has computed the list by then, so a caller can send what must follow it meanwhile
   * (the headers say which: their follow-up versions).
   */
  async listBreaches(
    query: BreachQueryInput,
    options: { etag?: string | undefined; signal?: AbortSignal; onListed?: (breachData?: BreachDataHeaderValues) => void } = {},
  ): Promise<ListBreachesResult> {
    const search = toBreachSearchParams(query).toString();
    const headers: Record<string, string> = options.etag ? { 'if-none-match': options.etag } : {};
    const response = await this.#send('GET', '/user/breaches' + (search ? `?${search}` : ''), undefined, headers, options.signal);
    const breachData = readBreachDataHeaders(response.headers);
    if (response.status === 304) return { status: 304, etag: response.headers.get('etag') ?? options.etag!, breachData };
    options.onListed?.(breachData);
    const text = await answerText(response);
    const read = readServerBreaches(safeJson(text));
    if (!read.ok) {
      const issue = read.error.issues[0]!;
      throw new ApiError('protocol', `the service sent breaches in an unexpected shape at /${issue.path.join('/')}: ${issue.message}`, { status: response.status });
    }
    return { status: 200, etag: response.headers.get('etag') ?? undefined, items: read.items, bytes: text.length, breachData };
  }

  /**
   * `GET /user/checks`: what the service knows about each address. A 404 means a service that
   * does not serve it (older, or another party's): `not-served`, not an error.
   */
  async getChecks(signal?: AbortSignal): Promise<ChecksAnswer> {
    try {
      const response = await this.#send('GET', '/user/checks', undefined, {}, signal);
      return readChecksAnswer(response.headers, await answerText(response), response.status);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { status: 'not-served' };
      throw error;
    }
  }

  /**
   * `GET /user/catalog-changes` (this project's service: what catalog switches did to the
   * person's addresses); undefined from a server that does not have it (404), which is no error.
   */
  async catalogChanges(signal?: AbortSignal): Promise<CatalogChangesAnswer | undefined> {
    let response: Response;
    try {
      response = await this.#send('GET', '/user/catalog-changes', undefined, {}, signal);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
    const parsed = CatalogChanges.safeParse(safeJson(await answerText(response)));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ApiError('protocol', `the service sent catalog changes in an unexpected shape at /${issue.path.join('/')}: ${issue.message}`, { status: response.status });
    }
    return { changes: parsed.data.changes, version: readBreachDataHeaders(response.headers).catalogChangesVersion };
  }

  /**
   * `GET /user/emails` (a person's addresses, CONTRACT "A person's addresses"); undefined from a
   * service that does not serve it (404): it then knows only the addresses sign-in gave it.
   */
  async listEmails(signal?: AbortSignal): Promise<{ emails: PersonEmailList; verification: EmailVerificationMode | undefined } | undefined> {
    let response: Response;
    try {
      response = await this.#send('GET', '/user/emails', undefined, {}, signal);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
    const verification = EmailVerificationMode.safeParse(response.headers.get(EMAIL_VERIFICATION_HEADER));
    return { emails: await readAnswer(PersonEmailList, 'addresses', response), verification: verification.success ? verification.data : undefined };
  }

  /** `POST /user/emails`: the address as the service now lists it (`verified: false` where it sent a code). */
  async addEmail(email: string, signal?: AbortSignal): Promise<PersonEmail> {
    const response = await this.#send('POST', '/user/emails', JSON.stringify({ email }), { 'content-type': 'application/json' }, signal);
    return readAnswer(PersonEmail, 'the added address', response);
  }

  /** `DELETE /user/emails/{email}`: the address, its exposures and resolutions leave the service. */
  async removeEmail(email: string, signal?: AbortSignal): Promise<void> {
    const response = await this.#send('DELETE', `/user/emails/${encodeURIComponent(email)}`, undefined, {}, signal);
    await discardBody(response);
  }

  /** `POST /user/emails/{email}/verification` with the code the person received. */
  async verifyEmail(email: string, code: string, signal?: AbortSignal): Promise<void> {
    const response = await this.#send('POST', `/user/emails/${encodeURIComponent(email)}/verification`, JSON.stringify({ code }), { 'content-type': 'application/json' }, signal);
    await discardBody(response);
  }

  /** `POST /user/emails/{email}/verification-code`: sends the code again. */
  async resendVerificationCode(email: string, signal?: AbortSignal): Promise<void> {
    const response = await this.#send('POST', `/user/emails/${encodeURIComponent(email)}/verification-code`, undefined, {}, signal);
    await discardBody(response);
  }

  /** `POST /user/breaches/resolutions`: resolves on any 2xx. */
  async postResolutions(items: readonly ResolutionItem[], signal?: AbortSignal): Promise<void> {
    const response = await this.#send('POST', '/user/breaches/resolutions', JSON.stringify(items), { 'content-type': 'application/json' }, signal);
    await discardBody(response);
  }

  async #send(method: string, path: string, body: string | undefined, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Response> {
    let token = await this.#tokens.getAccessToken();
    let response = await this.#fetchOnce(method, path, body, { ...headers, authorization: `Bearer ${token}` }, signal);
    if (response.status === 401) {
      await discardBody(response);
      token = await this.#tokens.refreshAfterUnauthorized(token);
      response = await this.#fetchOnce(method, path, body, { ...headers, authorization: `Bearer ${token}` }, signal);
    }
    if (response.ok || response.status === 304) return response;
    throw await errorFrom(response);
  }

  async #fetchOnce(method: string, path: string, body: string | undefined, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await this.#fetch(this.#baseUrl + path, { method, headers: { accept: 'application/json', ...headers }, ...(body !== undefined ? { body } : {}), signal: combined });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (timeout.aborted) throw new ApiError('timeout', `the service did not answer within ${Math.round(this.#timeoutMs / 1000)} s`, { cause: error });
      throw new ApiError('network', `could not reach the service: ${describeNetworkError(error)}`, { cause: error });
    }
  }
}

async function errorFrom(response: Response): Promise<ApiError> {
  const text = await errorText(response);
  const problem = ProblemLike.safeParse(safeJson(text));
  const detail = (problem.success ? (problem.data.detail ?? problem.data.title) : undefined) ?? (text.trim().slice(0, 500) || response.statusText || `HTTP ${response.status}`);
  return new ApiError(kindOfStatus(response.status), detail, {
    status: response.status,
    fieldErrors: problem.success ? (problem.data.errors ?? []) : [],
    ...(response.headers.has('retry-after') ? { retryAfterMs: parseRetryAfter(response.headers.get('retry-after')) } : {}),
  });
}

/** A 2xx body checked against its schema; an answer of another shape is a protocol error naming where. */
async function readAnswer<T>(schema: z.ZodType<T>, what: string, response: Response): Promise<T> {
  const parsed = schema.safeParse(safeJson(await answerText(response)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError('protocol', `the service sent ${what} in an unexpected shape at /${issue.path.join('/')}: ${issue.message}`, { status: response.status });
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
