// A local stand-in of Have I Been Pwned's API v3, for tests only (HIBP cannot be reached from
// here, and tests must not spend a real key). It follows https://haveibeenpwned.com/API/v3 as
// strictly as the documentation allows; docs/decisions/0130-hibp-stand-follows-hibps-documentation-rule.md says which part of the
// documentation each rule follows, and where the documentation is silent what was chosen.
// Its catalog is the HIBP snapshot in ../shared/fixtures/hibp/breaches.json, read in place.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SHARED_FIXTURES } from './fixtures.ts';

export const HIBP_FIXTURE_CATALOG = path.join(SHARED_FIXTURES, 'hibp', 'breaches.json');

/** The fields of a catalog record the stand-in reasons about (the rest is passed through). */
export interface CatalogRecord {
  Name: string;
  Domain: string;
  IsVerified: boolean;
  IsSensitive: boolean;
  IsRetired?: boolean;
  IsSpamList?: boolean;
  [field: string]: unknown;
}

export interface StandInKey {
  rpm: number;
  stealerLogs?: boolean;
  /** Domains verified on the key's account (domain search). */
  domains?: string[];
  subscriptionName?: string;
}

export interface HibpStandInOptions {
  /** Key → its subscription. A key not listed is refused (401). */
  keys: Record<string, StandInKey>;
  /** Address → names of the catalog breaches it is in (any casing; sensitive and retired ones too: the API decides what to show). */
  accounts?: Record<string, string[]>;
  /** Address → website domains an infostealer captured credentials for. */
  stealerLogs?: Record<string, string[]>;
  /** The service's clock when it is simulated, so "when" means the same on both sides. */
  now?: () => number;
  catalogFile?: string;
}

export interface RecordedRequest {
  at: number;
  method: string;
  /** Path after the base URL, with its query, e.g. `breachedaccount/a%40b.example?truncateResponse=true`. */
  path: string;
  key: string | undefined;
  userAgent: string | undefined;
  status: number;
  /** Set on a 429: when the stand-in said the key may ask again. */
  retryUntil?: number;
}

const KEYED = /^(breachedaccount|breacheddomain|stealerlogsbyemail|stealerlogsbyemaildomain|stealerlogsbywebsitedomain|subscribeddomains|subscription|pasteaccount)(\/|$)/;
/** HIBP keys are 32 hexadecimal characters. */
const WELL_FORMED_KEY = /^[0-9a-f]{32}$/i;
const WINDOW_MS = 60_000;

/** A running stand-in: its base URL (like `https://haveibeenpwned.com/api/v3`) and what it received. */
export class HibpStandIn {
  readonly url: string;
  readonly requests: RecordedRequest[] = [];
  readonly #server: Server;
  readonly #options: HibpStandInOptions;
  readonly #catalog: CatalogRecord[];
  readonly #byName: Map<string, CatalogRecord>;
  readonly #accounts: Map<string, string[]>;
  readonly #stealer: Map<string, string[]>;
  /** Per key: times of the requests the limit counted, and until when it asked the key to wait. */
  readonly #sent = new Map<string, number[]>();
  readonly #heldUntil = new Map<string, number>();
  #storm: ((now: number) => number | undefined) | undefined;
  #failures: { status: number; remaining: number } | undefined;

  private constructor(server: Server, url: string, options: HibpStandInOptions) {
    this.#server = server;
    this.url = url;
    this.#options = options;
    this.#catalog = JSON.parse(readFileSync(options.catalogFile ?? HIBP_FIXTURE_CATALOG, 'utf8')) as CatalogRecord[];
    this.#byName = new Map(this.#catalog.map((record) => [record.Name.toLowerCase(), record]));
    this.#accounts = new Map(Object.entries(options.accounts ?? {}).map(([email, names]) => [email.toLowerCase(), names]));
    this.#stealer = new Map(Object.entries(options.stealerLogs ?? {}).map(([email, domains]) => [email.toLowerCase(), domains]));
    for (const names of this.#accounts.values()) for (const name of names) if (!this.#byName.has(name.toLowerCase())) throw new Error(`stand-in: no breach "${name}" in the catalog`);
  }

  static async start(options: HibpStandInOptions): Promise<HibpStandIn> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const standIn = new HibpStandIn(server, `http://127.0.0.1:${port}/api/v3`, options);
    server.on('request', (req, res) => standIn.#arrive(req, res));
    return standIn;
  }

  /**
   * From now on, account searches (`breachedaccount/…`) wait unanswered until the returned
   * function is called: HIBP takes its time too, and a test can look at what a client shows in
   * between. Keep it shorter than the client's timeout.
   */
  holdAccountSearches(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.#held = held;
    return () => {
      if (this.#held === held) this.#held = undefined;
      release();
    };
  }

  #held: Promise<void> | undefined;

  #arrive(req: IncomingMessage, res: ServerResponse): void {
    const held = this.#held;
    if (held && /^\/api\/v3\/breachedaccount\//.test(new URL(req.url ?? '/', 'http://stand-in').pathname)) void held.then(() => this.#handle(req, res));
    else this.#handle(req, res);
  }

  /** The names an account search must answer for `email` (what HIBP would show), in catalog order. */
  visibleBreaches(email: string, filters: { includeUnverified?: boolean; domain?: string } = {}): string[] {
    const names = new Set((this.#accounts.get(email.toLowerCase()) ?? []).map((name) => name.toLowerCase()));
    return this.#catalog
      .filter((record) => names.has(record.Name.toLowerCase()))
      .filter((record) => !record.IsSensitive && !record.IsRetired)
      .filter((record) => filters.includeUnverified !== false || record.IsVerified)
      .filter((record) => filters.domain === undefined || record.Domain.toLowerCase() === filters.domain.toLowerCase())
      .map((record) => record.Name);
  }

  /** Adds a breach to the catalog (`GET breaches`), as HIBP does when it loads a new one. */
  addBreach(record: CatalogRecord): void {
    this.#catalog.push(record);
    this.#byName.set(record.Name.toLowerCase(), record);
  }

  /**
   * Retires a breach, as HIBP does when data is permanently removed: `IsRetired` true in
   * `GET breaches`, and no longer returned for an account ("IsRetired: Indicates if the breach
   * has been retired. This data has been permanently removed and will not be returned by the
   * API", https://haveibeenpwned.com/API/v3#BreachModel).
   */
  retireBreach(name: string): void {
    const record = this.#byName.get(name.toLowerCase());
    if (!record) throw new Error(`stand-in: no breach "${name}" to retire`);
    record.IsRetired = true;
  }

  /** Adds an address to a breach, as a new load of data into HIBP would. */
  addToBreach(email: string, name: string): void {
    const key = email.toLowerCase();
    this.#accounts.set(key, [...(this.#accounts.get(key) ?? []), name]);
  }

  /** While set, a request may be refused with 429 and the `retry-after` (seconds) this returns, though within the key's Rpm (another client sharing the key). */
  storm(decide: ((now: number) => number | undefined) | undefined): void {
    this.#storm = decide;
  }

  /** The next `count` requests answer `status` (500, 503, …). */
  failNext(status: number, count: number): void {
    this.#failures = { status, remaining: count };
  }

  /** Requests that arrived while the key had been told to wait (must stay empty). */
  requestsBeforeRetryAfter(): RecordedRequest[] {
    const violations: RecordedRequest[] = [];
    const heldUntil = new Map<string | undefined, number>();
    for (const request of this.requests) {
      const until = heldUntil.get(request.key) ?? 0;
      if (request.at < until) violations.push(request);
      if (request.retryUntil !== undefined) heldUntil.set(request.key, Math.max(until, request.retryUntil));
    }
    return violations;
  }

  /** The most requests that arrived in any 60 s window [t, t + 60 s), per key. */
  busiestMinute(key?: string): number {
    const times = this.requests.filter((request) => key === undefined || request.key === key).map((request) => request.at);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= WINDOW_MS) j++;
      most = Math.max(most, i - j + 1);
    }
    return most;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const at = this.#now();
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const route = url.pathname.replace(/^\/api\/v3\//, '');
    const key = headerOf(req, 'hibp-api-key');
    const userAgent = headerOf(req, 'user-agent');
    const record: RecordedRequest = { at, method: req.method ?? 'GET', path: route + url.search, key, userAgent, status: 0 };
    this.requests.push(record);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8' }), ...headers });
      res.end(text);
    };

    if (!url.pathname.startsWith('/api/v3/')) return send(404);
    if (req.method !== 'GET') return send(405);
    // "A missing user agent will result in an HTTP 403 response."
    if (!userAgent) return send(403, 'Forbidden — no user agent has been specified in the request.');
    if (this.#failures && this.#failures.remaining > 0) {
      this.#failures.remaining--;
      return send(this.#failures.status, 'Service unavailable');
    }

    const keyed = KEYED.test(route);
    const subscription = key === undefined ? undefined : this.#options.keys[key];
    if (keyed) {
      if (key === undefined) return send(401, 'Access denied due to missing hibp-api-key.');
      if (!WELL_FORMED_KEY.test(key)) return send(401, 'Access denied due to improperly formed hibp-api-key.');
      if (!subscription) return send(401, 'Access denied due to invalid hibp-api-key.');
      const limited = this.#rateLimit(key, subscription, at);
      if (limited !== undefined) {
        record.retryUntil = at + limited * 1000;
        return send(429, { statusCode: 429, message: `Rate limit is exceeded. Try again in ${limited} seconds.` }, { 'retry-after': String(limited) });
      }
    }

    const [service, parameter = ''] = splitRoute(route);
    switch (service) {
      case 'breaches': {
        const domain = url.searchParams.get('domain');
        const spam = url.searchParams.get('isSpamList');
        return send(
          200,
          this.#catalog.filter((r) => (domain === null || r.Domain.toLowerCase() === domain.toLowerCase()) && (spam === null || (r.IsSpamList ?? false) === (spam === 'true'))),
        );
      }
      case 'breach': {
        const found = this.#byName.get(parameter.toLowerCase());
        return found ? send(200, found) : send(404);
      }
      case 'breachedaccount': {
        if (parameter.trim() === '') return send(400, 'Bad request — the account does not comply with an acceptable format.');
        const truncate = url.searchParams.get('truncateResponse') !== 'false';
        const includeUnverified = url.searchParams.get('includeUnverified') !== 'false';
        const domain = url.searchParams.get('domain') ?? undefined;
        const names = this.visibleBreaches(parameter, { includeUnverified, ...(domain ? { domain } : {}) });
        if (names.length === 0) return send(404);
        return send(
          200,
          names.map((name) => (truncate ? { Name: name } : this.#byName.get(name.toLowerCase()))),
        );
      }
      case 'breacheddomain': {
        const domain = parameter.toLowerCase();
        if (!(subscription!.domains ?? []).map((d) => d.toLowerCase()).includes(domain)) return send(403, 'Forbidden — the domain has not been verified on this account.');
        const byAlias: Record<string, string[]> = {};
        for (const email of this.#accounts.keys()) {
          if (!email.endsWith('@' + domain)) continue;
          // A verified domain owner sees every breach of its addresses, sensitive ones included; retired data is gone.
          const names = this.#catalog.filter((r) => !r.IsRetired && (this.#accounts.get(email) ?? []).some((n) => n.toLowerCase() === r.Name.toLowerCase())).map((r) => r.Name);
          if (names.length > 0) byAlias[email.slice(0, email.lastIndexOf('@'))] = names;
        }
        return Object.keys(byAlias).length === 0 ? send(404) : send(200, byAlias);
      }
      case 'stealerlogsbyemail': {
        if (!subscription!.stealerLogs) return send(403, 'Forbidden — the subscription does not include stealer logs.');
        const domains = this.#stealer.get(parameter.toLowerCase());
        return domains && domains.length > 0 ? send(200, [...domains].sort()) : send(404);
      }
      case 'subscription': {
        if (parameter !== 'status') return send(404);
        return send(200, {
          SubscriptionName: subscription!.subscriptionName ?? `Pwned (${subscription!.rpm} rpm)`,
          Description: 'A stand-in subscription for tests.',
          SubscribedUntil: '2027-01-01T00:00:00',
          Rpm: subscription!.rpm,
          DomainSearchMaxBreachedAccounts: 1000,
          IncludesStealerLogs: subscription!.stealerLogs ?? false,
        });
      }
      default:
        return send(404);
    }
  }

  /** Seconds to wait (rounded up, as documented) when this request is over the key's limit or in a storm. */
  #rateLimit(key: string, subscription: StandInKey, at: number): number | undefined {
    const held = this.#heldUntil.get(key) ?? 0;
    const sent = (this.#sent.get(key) ?? []).filter((time) => time > at - WINDOW_MS);
    this.#sent.set(key, sent);
    let waitMs: number | undefined;
    if (at < held) waitMs = held - at;
    else if (sent.length >= subscription.rpm) waitMs = sent[sent.length - subscription.rpm]! + WINDOW_MS - at;
    else {
      const storm = this.#storm?.(at);
      if (storm !== undefined) waitMs = storm * 1000;
    }
    if (waitMs !== undefined) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      this.#heldUntil.set(key, Math.max(held, at + seconds * 1000));
      return seconds;
    }
    sent.push(at);
    return undefined;
  }
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function splitRoute(route: string): [string, string?] {
  const slash = route.indexOf('/');
  return slash === -1 ? [route] : [route.slice(0, slash), decodeURIComponent(route.slice(slash + 1))];
}
