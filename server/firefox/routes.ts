import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  dataClassKey,
  FIREFOX_API_PREFIX,
  FIREFOX_QUERY_PARAMS,
  FirefoxResolutionRequest,
  issuesToFieldErrors,
  Limits,
  MONITOR_SCOPE,
  mergeFirefoxResolutions,
  RESOLVABLE_SLUGS,
  type FirefoxUserBreach,
} from '../../shared/api/index.ts';
import { InvalidTokenError, type AccessTokenClaims, type AccessTokenVerifier } from '../auth/AccessTokenVerifier.ts';
import { SigningKeysUnavailableError } from '../auth/jwtVerifier.ts';
import type { BreachAlertService } from '../api/BreachAlertService.ts';
import type { MonitoredAccount } from '../api/accounts.ts';
import { allow, breachDataHeaders } from '../api/routes.ts';
import { readJsonBody } from '../http/body.ts';
import { HttpProblem } from '../http/problems.ts';
import { sendJson } from '../http/respond.ts';
import { FirefoxApiError, fromProblem, sendFirefoxError } from './errors.ts';
import { FaultPlan } from './FaultPlan.ts';
import type { Logger } from '../log.ts';

const REALM = 'monitor';
const NO_STORE = { 'cache-control': 'private, no-store' } as const;

/** A verified access token carrying the monitor scope. */
export type MonitorClaims = AccessTokenClaims;

export interface FirefoxRoutes {
  /**
   * The access decision the router runs first: an armed fault answers before anything else, then
   * the bearer token, verified and carrying the monitor scope, every route needs.
   */
  access(req: IncomingMessage): Promise<MonitorClaims>;
  /** Handles a request under `/api/firefox/v1` for the verified token's person; false for paths outside it. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, claims: MonitorClaims): Promise<boolean>;
  /** Answers any error of this mount in its `{code, message}` shape. */
  refuse(res: ServerResponse, error: unknown, path?: string): boolean;
  /** Armed by the development surface (`POST /__dev/faults` with `mount: "firefox-v1"`). */
  faults: FaultPlan;
}

/**
 * The newer Monitor contract beside `/api/v1`, over the same service and store: a resolution
 * made through either mount is what the other one reports. Only the wording differs (CONTRACT.md,
 * "The newer Monitor contract"): items `{id, breachedAccounts}` with slug arrays, the `domain`
 * filter only, sensitive breaches never, one-way resolutions of `passwords`/`email-addresses`,
 * `{code, message}` errors, no `ETag` (`Cache-Control: private, no-store`), and no `POST /user`.
 */
export function createFirefoxRoutes(service: BreachAlertService, verifier: AccessTokenVerifier, logger: Logger, faults = new FaultPlan()): FirefoxRoutes {
  async function access(req: IncomingMessage): Promise<MonitorClaims> {
    const fault = faults.take();
    if (fault) {
      const retryAfter = { 'retry-after': String(fault.retryAfter) };
      if (fault.status === 429) throw new FirefoxApiError('rate-limited', `too many requests; retry after ${fault.retryAfter} s`, { headers: retryAfter });
      throw new FirefoxApiError('unavailable', 'the service is unavailable for a moment; keep the breaches you already hold', { headers: retryAfter });
    }
    return monitorClaims(req);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL, claims: MonitorClaims): Promise<void> {
    const path = url.pathname.slice(FIREFOX_API_PREFIX.length);
    switch (path) {
      case '/user/breaches': {
        allow(req, ['GET', 'HEAD']);
        const account = await accountOf(claims);
        const domain = parseDomainFilter(url.searchParams);
        // Read before the list: an address checked meanwhile is then at worst counted and listed, never neither.
        const pending = await service.pending(account);
        const items = (await service.listBreaches(account, { includeSensitive: false, ...(domain === undefined ? {} : { domain }) }))
          // A breach that left the catalog stays only in /api/v1 (marked removedFromCatalogAt): this
          // contract has no way to say so, and its clients join ids to the catalog's details feed,
          // which no longer has it (they would skip it and refetch the feed on every sync).
          .filter((item) => item.removedFromCatalogAt === undefined)
          // Only breaches that leaked what this contract acts on (passwords, email addresses).
          .filter((item) => item.breach.dataClasses.some((name) => isResolvableSlug(dataClassKey(name))))
          .map((item): FirefoxUserBreach => ({
            id: item.breach.id,
            breachedAccounts: item.breachedAccounts.map((state) => ({
              email: state.email,
              // Only the classes this contract serves; a resolution of another class made through
              // `/api/v1` stays there.
              resolvedDataClasses: [...new Set(Object.keys(state.resolvedDataClasses).map(dataClassKey))].filter(isResolvableSlug).sort(),
            })),
          }));
        // Unknown is not clean: the pending addresses are left out of the list and counted here.
        sendJson(res, 200, items, { ...NO_STORE, vary: 'Authorization', ...breachDataHeaders(pending) });
        return;
      }
      case '/user/breaches/resolutions': {
        allow(req, ['POST']);
        const account = await accountOf(claims);
        const parsed = FirefoxResolutionRequest.safeParse(await readJsonBody(req, Limits.maxBodyBytes));
        if (!parsed.success) {
          const errors = issuesToFieldErrors(parsed.error.issues);
          throw new FirefoxApiError('invalid-request', errors.map((e) => `${e.pointer || 'body'}: ${e.message}`).join('; '));
        }
        // One way only: what the older contract calls `resolved: true` for every affected email;
        // all or nothing, like the older mount.
        try {
          await service.applyResolutions(
            account,
            mergeFirefoxResolutions(parsed.data).map((item) => ({ ...item, resolved: true })),
          );
        } catch (error) {
          // Upstream words every "nothing to resolve" the same, so an answer does not tell an
          // unknown breach from one that affects someone else.
          if (error instanceof HttpProblem && error.status === 404) throw new FirefoxApiError('not-found', 'nothing matched for one or more entries');
          throw error;
        }
        res.writeHead(204, NO_STORE);
        res.end();
        return;
      }
      case '/user':
        // No account creation under this contract: people sign up on the service's site.
        throw new FirefoxApiError('not-found', `${req.method} ${FIREFOX_API_PREFIX}/user does not exist; accounts are created by signing up on the service's site`);
      default:
        throw new FirefoxApiError('not-found', `nothing here: ${req.method} ${url.pathname}`);
    }
  }

  async function monitorClaims(req: IncomingMessage): Promise<MonitorClaims> {
    const header = req.headers.authorization;
    const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header) : null;
    if (!match) {
      throw new FirefoxApiError('token-invalid', 'a bearer token is required ("Authorization: Bearer <token>")', { headers: { 'www-authenticate': `Bearer realm="${REALM}"` } });
    }
    let claims;
    try {
      claims = await verifier.verify(match[1]!);
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        const safe = error.description.replace(/["\\]/g, "'");
        throw new FirefoxApiError('token-invalid', `the access token is not valid: ${error.description}`, {
          headers: { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${safe}"` },
        });
      }
      if (error instanceof SigningKeysUnavailableError) {
        throw new FirefoxApiError('unavailable', 'the identity provider cannot be reached to check the token; try again shortly', { headers: { 'retry-after': '5' } });
      }
      throw error;
    }
    if (!(claims.scope ?? '').split(' ').includes(MONITOR_SCOPE)) {
      throw new FirefoxApiError('missing-scope', `the access token does not carry the scope ${MONITOR_SCOPE}`, {
        headers: { 'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${MONITOR_SCOPE}"` },
      });
    }
    return claims;
  }

  /** The Monitor account the verified token's person holds (signing up is another site's job). */
  async function accountOf(claims: MonitorClaims): Promise<MonitoredAccount> {
    const standing = await service.monitoringState({ sub: claims.sub, email: claims.email });
    if (standing.state === 'deleted') throw new FirefoxApiError('token-invalid', 'this account is disabled or no longer exists at the identity provider');
    if (standing.state === 'no-user') throw new FirefoxApiError('no-monitor-account', "this account has no Monitor account; sign up on the service's site first");
    return standing.account;
  }

  return {
    faults,
    access,
    async handle(req, res, url, claims) {
      if (url.pathname !== FIREFOX_API_PREFIX && !url.pathname.startsWith(FIREFOX_API_PREFIX + '/')) return false;
      try {
        await serve(req, res, url, claims);
      } catch (error) {
        if (res.headersSent || !refuse(res, error, url.pathname)) throw error;
      }
      return true;
    },
    refuse,
  };

  function refuse(res: ServerResponse, error: unknown, path?: string): boolean {
    if (res.headersSent) return false;
    if (error instanceof FirefoxApiError) sendFirefoxError(res, error);
    else if (error instanceof HttpProblem) sendFirefoxError(res, fromProblem(error));
    else {
      logger.error({ err: error, path }, 'request failed');
      sendFirefoxError(res, new FirefoxApiError('internal-error', 'the service failed to answer; try again later'));
    }
    return true;
  }
}

function isResolvableSlug(slug: string): boolean {
  return (RESOLVABLE_SLUGS as readonly string[]).includes(slug);
}

/** Only `domain`, at most once, not empty; anything else is a 400 (the older filters are gone). */
function parseDomainFilter(params: URLSearchParams): string | undefined {
  for (const name of new Set(params.keys())) {
    if (!(FIREFOX_QUERY_PARAMS as readonly string[]).includes(name)) {
      throw new FirefoxApiError('invalid-request', `unknown query parameter "${name}"; this contract filters by domain only`);
    }
  }
  const values = params.getAll('domain');
  if (values.length > 1) throw new FirefoxApiError('invalid-request', 'domain must be given at most once');
  if (values.length === 1 && values[0] === '') throw new FirefoxApiError('invalid-request', 'domain must not be empty');
  return values[0];
}
