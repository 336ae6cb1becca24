// A small black-box client for the conformance suite: plain HTTP against the target, the
// development surface for set-up, and the contract's response checks.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { Breach, MonitoringUser, Problem, UserBreachList, type UserBreach } from '../../shared/api/index.ts';
import { useTarget, type Target } from './target.ts';
import { upstreamIfPresent, upstreamViolation } from './upstream.ts';

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, otherwise undefined. */
  json: unknown;
}

export interface RequestOptions {
  token?: string;
  /** Serialized as JSON with `Content-Type: application/json`. */
  body?: unknown;
  /** Sent as is; `contentType` defaults to `application/json`. */
  rawBody?: string | Uint8Array;
  contentType?: string | null;
  headers?: Record<string, string>;
  /** Send to exactly this URL's instance (no alternating between instances). */
  pinned?: boolean;
}

export interface BreachInput {
  id?: string;
  domain?: string;
  breachDate?: string;
  addedDate?: string;
  modifiedDate?: string;
  dataClasses?: string[];
  isSensitive?: boolean;
}

export interface TestUser {
  sub: string;
  /** Monitored emails, in ascending order. */
  emails: string[];
  token: string;
}

export interface NewUserOptions {
  /** How many monitored emails (generated), or the exact emails. Default 1. */
  emails?: number | string[];
  /** Breach ids per monitored email; emails not named here are set to no exposures. */
  exposures?: Record<string, string[]>;
  /** Skip `POST /user` (the monitoring user is then not created). */
  skipCreate?: boolean;
}

const RUN = `${Date.now().toString(36)}${randomUUID().slice(0, 6)}`;
let counter = 0;

/** A name unique to this run and call, safe in ids, subjects and email local parts (lower case). */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${RUN}-${counter.toString(36)}`.toLowerCase();
}

/** A fresh email address; `tag` sorts the addresses of one test (`a…` < `b…`). */
export function uniqueEmail(tag = 'u'): string {
  return `${unique(tag)}@conformance.example`;
}

export const MINUTE_PRECISION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::00(?:\.0+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

export class ConformanceClient {
  readonly #target: () => Target;

  constructor(target: () => Target) {
    this.#target = target;
  }

  get target(): Target {
    return this.#target();
  }

  #turn = 0;
  #oneInstance = false;

  /**
   * Runs `work` with every request sent to the first instance: for what one instance keeps in
   * its own memory, such as the fault plan of `POST /__dev/faults` (counted per instance).
   */
  async onOneInstance<T>(work: () => Promise<T>): Promise<T> {
    this.#oneInstance = true;
    try {
      return await work();
    } finally {
      this.#oneInstance = false;
    }
  }

  /** With several instances, each request goes to the next one: writes through one are read through another. */
  #alternate(url: string): string {
    const { origin, origins } = this.target;
    if (this.#oneInstance || origins.length < 2 || !url.startsWith(origin)) return url;
    const next = origins[this.#turn++ % origins.length] as string;
    return next + url.slice(origin.length);
  }

  /**
   * A request to `{base_url}` + path (path starts with `/`). Every answer is also checked
   * against Mozilla Monitor's upstream API document where it is present (upstream.ts): a
   * status it does not list (beyond the contract's documented additions) or a body outside
   * its schema fails the test that made the request.
   */
  async api(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const result = await this.request(method, this.target.apiBase + path, options);
    const upstream = upstreamIfPresent();
    if (upstream) {
      const route = path.split('?')[0] ?? path;
      const violation = upstreamViolation(upstream, { method, route, status: result.status, contentType: result.headers.get('content-type') ?? '', json: result.json });
      expect(violation, `upstream document (${method} ${path})`).toBeUndefined();
    }
    return result;
  }

  /** A request to the origin (development surface, `/`). */
  origin(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    return this.request(method, this.target.origin + path, options);
  }

  async request(method: string, url: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    // fetch labels a string body text/plain; bytes go without a Content-Type.
    if (typeof body === 'string' && options.contentType === null) body = new TextEncoder().encode(body);
    const response = await fetch(options.pinned ? url : this.#alternate(url), { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    let json: unknown;
    if (/json/i.test(response.headers.get('content-type') ?? '') && text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  /** A development-surface call that must succeed; returns the JSON answer. */
  async dev(method: string, path: string, body: unknown): Promise<unknown> {
    const result = await this.origin(method, path, { body });
    if (result.status < 200 || result.status > 299) {
      throw new Error(`development surface ${method} ${path} answered ${result.status}: ${result.text}`);
    }
    return result.json;
  }

  /** `claims` (`null` leaves one out) and `typ` break one part of a token signed with the service's own key. */
  async token(
    sub: string,
    options: { email?: string; emailVerified?: boolean; expiresIn?: number; claims?: Record<string, string | number | string[] | null>; typ?: string; scope?: string } = {},
  ): Promise<string> {
    const answer = (await this.dev('POST', '/__dev/token', { sub, ...options })) as { access_token?: unknown };
    if (typeof answer.access_token !== 'string') throw new Error('POST /__dev/token gave no access_token');
    return answer.access_token;
  }

  async putAccount(sub: string, emails: string[], deleted?: boolean): Promise<void> {
    await this.dev('PUT', `/__dev/accounts/${encodeURIComponent(sub)}`, { emails, ...(deleted === undefined ? {} : { deleted }) });
  }

  async putExposures(email: string, breachIds: string[]): Promise<void> {
    await this.dev('PUT', '/__dev/exposures', { email, breachIds });
  }

  /** Adds a catalog breach with a unique id (unless given); returns the breach as the service stored it. */
  async addBreach(input: BreachInput = {}): Promise<Breach> {
    const id = input.id ?? unique('conf-breach');
    const answer = await this.dev('POST', '/__dev/breaches', {
      id,
      domain: input.domain ?? `${id}.example`,
      breachDate: input.breachDate ?? '2020-01-15',
      addedDate: input.addedDate ?? '2020-02-01T10:00:00Z',
      ...(input.modifiedDate ? { modifiedDate: input.modifiedDate } : {}),
      dataClasses: input.dataClasses ?? ['Email addresses', 'Passwords'],
      isSensitive: input.isSensitive ?? false,
    });
    return Breach.parse(answer);
  }

  /**
   * A fresh subject with a known account: monitored emails set, every email's exposures set
   * (so no demo data leaks in), a token, and (unless skipped) `POST /user` answered 201.
   */
  async newUser(options: NewUserOptions = {}): Promise<TestUser> {
    const sub = unique('sub');
    const requested = options.emails ?? 1;
    const emails = typeof requested === 'number' ? Array.from({ length: requested }, (_, i) => uniqueEmail(String.fromCharCode(97 + i))) : requested;
    await this.putAccount(sub, emails);
    for (const email of emails) await this.putExposures(email, options.exposures?.[email] ?? []);
    const token = await this.token(sub, emails[0] ? { email: emails[0] } : {});
    if (!options.skipCreate) {
      const created = await this.api('POST', '/user', { token });
      expect(created.status, created.text).toBe(201);
    }
    return { sub, emails: [...emails].sort(), token };
  }

  /** `GET /user/breaches` that must answer 200 with a valid UserBreachList. */
  async list(token: string, query: string | URLSearchParams = ''): Promise<{ items: UserBreach[]; etag: string | null; text: string }> {
    const search = typeof query === 'string' ? query : query.toString();
    const result = await this.api('GET', '/user/breaches' + (search ? `?${search.replace(/^\?/, '')}` : ''), { token });
    expect(result.status, result.text).toBe(200);
    expect(result.headers.get('content-type') ?? '').toMatch(/^application\/json/i);
    const items = UserBreachList.parse(result.json);
    return { items, etag: result.headers.get('etag'), text: result.text };
  }

  /** `GET /user/breaches` restricted to the given breach ids (fixtures), with sensitive ones. */
  async listOf(token: string, ids: readonly string[]): Promise<UserBreach[]> {
    const { items } = await this.list(token, 'includeSensitive=true');
    return items.filter((item) => ids.includes(item.breach.id));
  }

  resolve(token: string, items: unknown): Promise<HttpResult> {
    return this.api('POST', '/user/breaches/resolutions', { token, body: items });
  }

  /** A resolutions request that must answer 204 with no body. */
  async resolveOk(token: string, items: unknown[]): Promise<void> {
    const result = await this.resolve(token, items);
    expect(result.status, result.text).toBe(204);
    expect(result.text).toBe('');
  }
}

/** Registers the target for this test file and returns a client for it. */
export function useClient(): ConformanceClient {
  return new ConformanceClient(useTarget());
}

/** Asserts an RFC 9457 answer with this status; returns the parsed problem. */
export function expectProblem(result: HttpResult, status: number): Problem {
  expect(result.status, result.text).toBe(status);
  expect(result.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/i);
  const problem = Problem.parse(result.json);
  expect(problem.status).toBe(status);
  expect(problem.title.length).toBeGreaterThan(0);
  expect(typeof problem.detail).toBe('string');
  return problem;
}

/** A 400 problem with an `errors` array; returns the pointers. */
export function expectBadRequest(result: HttpResult, pointer?: string | RegExp): string[] {
  const problem = expectProblem(result, 400);
  expect(problem.errors, 'a 400 answer lists its errors').toBeDefined();
  const errors = problem.errors ?? [];
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    expect(typeof error.pointer).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
  }
  const pointers = errors.map((error) => error.pointer);
  if (typeof pointer === 'string') expect(pointers).toContain(pointer);
  else if (pointer)
    expect(
      pointers.some((p) => pointer.test(p)),
      `pointers ${JSON.stringify(pointers)} match ${pointer}`,
    ).toBe(true);
  return pointers;
}

/** The `MonitoringUser` body of a 201/202 from `POST /user`. */
export function parseMonitoringUser(result: HttpResult): MonitoringUser {
  return MonitoringUser.parse(result.json);
}

/** `resolvedDataClasses` of one email in one breach, or undefined when not listed. */
export function stateOf(items: readonly UserBreach[], breachId: string, email: string): Record<string, { resolvedAt?: string | undefined }> | undefined {
  return items.find((item) => item.breach.id === breachId)?.breachedAccounts.find((account) => account.email === email)?.resolvedDataClasses;
}

/** Every resolved (breach, email, data class) as `id|email|class`, sorted. */
export function resolvedKeys(items: readonly UserBreach[]): string[] {
  const keys: string[] = [];
  for (const item of items) {
    for (const account of item.breachedAccounts) {
      for (const dataClass of Object.keys(account.resolvedDataClasses)) keys.push(`${item.breach.id}|${account.email}|${dataClass}`);
    }
  }
  return keys.sort();
}

/** The start of the current minute minus a margin, and the present plus one: bounds for `resolvedAt`. */
export function minuteWindow(before: number, after: number): [number, number] {
  return [before - (before % 60_000) - 60_000, after + 60_000];
}
