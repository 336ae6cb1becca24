import type { IncomingMessage, ServerResponse } from 'node:http';
import { BreachDataHeaders, issuesToFieldErrors, Limits, ResolutionRequest } from '../../shared/api/index.ts';
import type { AccessTokenVerifier } from '../auth/AccessTokenVerifier.ts';
import type { Logger } from '../log.ts';
import { readJsonBody } from '../http/body.ts';
import { HttpProblem } from '../http/problems.ts';
import { etagOf, sendCacheableJson, sendJson } from '../http/respond.ts';
import { authenticate as authenticateBearer } from './authenticate.ts';
import { BreachQueries } from './breachQueries.ts';
import type { BreachAlertService, Caller } from './BreachAlertService.ts';
import type { Pending } from '../breaches/exposureSource.ts';
import { catalogChangesVersion, checksVersion, FollowUpVersionCache, type FollowUpVersions } from './followUpVersions.ts';
import { ResponseCache } from './ResponseCache.ts';
import { handleEmailRoutes } from './emailRoutes.ts';
import type { PersonEmails } from './PersonEmails.ts';

export const API_PREFIX = '/api/v1';

/**
 * The API under `/api/v1`: `access` (the router runs it first) verifies the bearer token every
 * route needs; `handle` answers with the caller it settled, false for paths it does not own.
 */
export function createApiRoutes(
  service: BreachAlertService,
  verifier: AccessTokenVerifier,
  options: { cache?: ResponseCache; logger?: Logger; emails?: PersonEmails; catalogVersion?: () => string } = {},
) {
  const cache = options.cache ?? new ResponseCache();
  const followUps = new FollowUpVersionCache(service);
  const queries = new BreachQueries();
  const access = (req: IncomingMessage): Promise<Caller> => authenticateBearer(req, verifier, options.logger);
  return { access, handle: handleApi };
  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, caller: Caller): Promise<boolean> {
    const path = url.pathname.slice(API_PREFIX.length);
    switch (path) {
      case '/user': {
        allow(req, ['POST']);
        const { created, emails } = await service.createUser(caller);
        sendJson(res, created ? 201 : 202, { emails }, { 'cache-control': 'no-store' });
        return true;
      }
      case '/user/breaches': {
        allow(req, ['GET', 'HEAD']);
        const account = await service.requireMonitoringUser(caller);
        const asked = queries.parse(url);
        if (!asked.ok) throw new HttpProblem(400, 'invalid query: ' + asked.errors.map((e) => `${e.parameter} ${e.message}`).join('; '), { errors: asked.errors });
        const { parsed } = asked;
        // Which addresses are known is part of the answer (the pending ones are left out of the
        // body and counted in a header), so it is part of the cache key and of the ETag.
        const knowledge = await service.pending(account);
        // The follow-ups' versions on the 304 too: a sync with nothing new is this one request.
        const versions = followUps.versions(account, knowledge);
        const headers = breachDataHeaders(knowledge, versions instanceof Promise ? await versions : versions);
        const key = [account.sub, account.emails.join(','), parsed.key, knowledge.source, knowledge.pending.join(',')].join('\u0000');
        // The stamp read with the account: a cached answer costs the store one read in all.
        let answer = cache.get(key, account.stamp);
        if (!answer) {
          const body = Buffer.from(JSON.stringify(await service.listBreaches(account, parsed.query)));
          answer = { body, etag: etagOf(Buffer.concat([body, Buffer.from(`\u0000${headers[BreachDataHeaders.source]}\u0000${knowledge.pending.join(',')}`)])) };
          // Stamped after building: building may record a new email's demo exposures.
          cache.set(key, await service.changeStamp(account), answer.body, answer.etag);
        }
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        // The details feed's version beside them: an idle app reads that feed only when it moved.
        if (options.catalogVersion) res.setHeader(BreachDataHeaders.catalogVersion, options.catalogVersion());
        sendCacheableJson(req, res, answer.body, answer.etag);
        return true;
      }
      case '/user/checks': {
        allow(req, ['GET', 'HEAD']);
        const account = await service.requireMonitoringUser(caller);
        const checks = await service.checks(account);
        const pending = checks.addresses.filter((address) => address.checkedAt === null).length;
        sendJson(res, 200, checks, {
          'cache-control': 'no-store',
          vary: 'Authorization',
          [BreachDataHeaders.source]: checks.source,
          [BreachDataHeaders.pending]: String(pending),
          [BreachDataHeaders.checksVersion]: checksVersion(checks),
        });
        return true;
      }
      case '/user/catalog-changes': {
        allow(req, ['GET', 'HEAD']);
        const account = await service.requireMonitoringUser(caller);
        const changes = await service.catalogChanges(account);
        sendJson(res, 200, { changes }, { 'cache-control': 'no-store', vary: 'Authorization', [BreachDataHeaders.catalogChangesVersion]: catalogChangesVersion(changes) });
        return true;
      }
      case '/user/breaches/resolutions': {
        allow(req, ['POST']);
        const account = await service.requireMonitoringUser(caller);
        const raw = await readJsonBody(req, Limits.maxBodyBytes);
        const parsed = ResolutionRequest.safeParse(raw);
        if (!parsed.success) {
          const errors = issuesToFieldErrors(parsed.error.issues);
          throw new HttpProblem(400, errors.map((e) => `${e.pointer || 'body'}: ${e.message}`).join('; '), { errors });
        }
        await service.applyResolutions(account, parsed.data);
        res.writeHead(204, { 'cache-control': 'no-store' });
        res.end();
        return true;
      }
      default:
        return options.emails ? handleEmailRoutes(req, res, path, caller, service, options.emails, allow) : false;
    }
  }
}

export function allow(req: IncomingMessage, methods: readonly string[]): void {
  if (!methods.includes(req.method ?? '')) {
    throw new HttpProblem(405, `${req.method} is not allowed here; use ${methods.join(' or ')}`, { headers: { allow: methods.join(', ') } });
  }
}

/**
 * The `breach-data` and `breach-checks-pending` headers of an answer carrying exposures, and on
 * the breach list the follow-ups' `breach-checks-version` and `breach-catalog-changes-version`
 * (shared/api/checks.ts).
 */
export function breachDataHeaders(knowledge: Pending, versions?: FollowUpVersions): Record<string, string> {
  const headers: Record<string, string> = { [BreachDataHeaders.source]: knowledge.source, [BreachDataHeaders.pending]: String(knowledge.pending.length) };
  if (versions) {
    headers[BreachDataHeaders.checksVersion] = versions.checks;
    headers[BreachDataHeaders.catalogChangesVersion] = versions.catalogChanges;
  }
  return headers;
}
