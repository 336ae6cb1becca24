import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { Breach, emailKey, issuesToFieldErrors, toMinutePrecision } from '../../shared/api/index.ts';
import { readJsonBody } from '../http/body.ts';
import { HttpProblem } from '../http/problems.ts';
import { isLoopback, sendJson } from '../http/respond.ts';
import { allow } from '../api/routes.ts';
import { normalizeDataClasses } from '../catalog/dataClasses.ts';
import type { BreachStore } from '../breaches/BreachStore.ts';
import type { MintAccessTokenOptions } from '../identity/mintAccessToken.ts';
import { DevAccountRequest, DevBreachBatchRequest, DevBreachRequest, DevExposuresRequest, DevFaultRequest, DevIdTokenRequest, DevServiceAccountRequest, DevTokenRequest } from './schemas.ts';
import { ApiTokenRequest, type ApiTokenStore } from '../search/ApiTokenStore.ts';
import type { FaultPlan } from '../firefox/FaultPlan.ts';

export const DEV_PREFIX = '/__dev';

export interface DevSurfaceDeps {
  store: BreachStore;
  mintAccessToken(options: MintAccessTokenOptions): Promise<string>;
  /** API tokens of the search interface, for `/__dev/api-tokens`. */
  apiTokens?: { store: ApiTokenStore; accountId: string };
  /** Fault plans by mount name (`POST /__dev/faults`). */
  faults?: Readonly<Record<string, FaultPlan>>;
  /** Realtime-database credentials (`/__dev/id-token`, `/__dev/service-accounts`, `/__dev/rtdb-secrets`). */
  mintIdToken?(options: { sub: string; email?: string; expiresIn?: number }): Promise<string>;
  createServiceAccount?(scopes: string[]): Promise<unknown>;
  secrets?: { createSecret(): Promise<{ id: string; secret: string }>; revokeSecret(id: string): Promise<boolean> };
  /** Gives breaches added through `/__dev/breaches` generated details in the details feed, in one transaction. */
  putDetails?(breaches: readonly Breach[]): Promise<void>;
}

/**
 * The development surface: only mounted with `--dev`, only answered from loopback (anything
 * else gets the same 404 as a path that does not exist).
 */
export function createDevRoutes({ store, mintAccessToken, apiTokens, mintIdToken, createServiceAccount, secrets, putDetails, faults }: DevSurfaceDeps) {
  return async function handleDev(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (!isLoopback(req)) return false;
    const path = url.pathname.slice(DEV_PREFIX.length);

    if (path === '/token') {
      allow(req, ['POST']);
      const body = await parseBody(req, DevTokenRequest);
      const expiresIn = body.expiresIn ?? 3600;
      const overrides = body.claims || body.typ ? { overrides: { ...(body.claims ? { claims: body.claims } : {}), ...(body.typ ? { typ: body.typ } : {}) } } : {};
      const accessToken = await mintAccessToken({
        sub: body.sub,
        ...(body.email ? { email: body.email } : {}),
        ...(body.emailVerified !== undefined ? { emailVerified: body.emailVerified } : {}),
        ...(body.scope ? { scope: body.scope } : {}),
        expiresIn,
        ...overrides,
      });
      sendJson(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn }, { 'cache-control': 'no-store' });
      return true;
    }

    if (apiTokens && path === '/api-tokens') {
      allow(req, ['POST']);
      const body = await parseBody(req, ApiTokenRequest);
      const { id, token, info } = await apiTokens.store.create(apiTokens.accountId, body);
      sendJson(res, 201, { id, token, scopes: info.scopes, expiresAt: info.expiresAt ?? null, allowIps: info.allowIps }, { 'cache-control': 'no-store' });
      return true;
    }
    const apiToken = /^\/api-tokens\/([^/]+)$/.exec(path);
    if (apiTokens && apiToken) {
      allow(req, ['DELETE']);
      const id = decodePathSegment(apiToken[1]!);
      if (!(await apiTokens.store.revoke(id))) throw new HttpProblem(404, `no API token "${id}"`);
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
      return true;
    }

    if (path === '/faults' && faults) {
      allow(req, ['POST']);
      const body = await parseBody(req, DevFaultRequest);
      const plan = faults[body.mount];
      if (!plan) throw new HttpProblem(404, `no mount "${body.mount}" takes faults here`);
      plan.arm({ status: body.status, retryAfter: body.retryAfter ?? 1 }, body.count);
      sendJson(res, 200, { mount: body.mount, status: body.status, remaining: plan.remaining() }, { 'cache-control': 'no-store' });
      return true;
    }

    if (path === '/id-token' && mintIdToken) {
      allow(req, ['POST']);
      const body = await parseBody(req, DevIdTokenRequest);
      const idToken = await mintIdToken({ sub: body.sub, ...(body.email ? { email: body.email } : {}), ...(body.expiresIn ? { expiresIn: body.expiresIn } : {}) });
      sendJson(res, 200, { id_token: idToken }, { 'cache-control': 'no-store' });
      return true;
    }

    if (path === '/service-accounts' && createServiceAccount) {
      allow(req, ['POST']);
      const body = await parseBody(req, DevServiceAccountRequest);
      sendJson(res, 201, await createServiceAccount(body.scopes), { 'cache-control': 'no-store' });
      return true;
    }

    if (path === '/rtdb-secrets' && secrets) {
      allow(req, ['POST']);
      sendJson(res, 201, await secrets.createSecret(), { 'cache-control': 'no-store' });
      return true;
    }

    const secret = /^\/rtdb-secrets\/([^/]+)$/.exec(path);
    if (secret && secrets) {
      allow(req, ['DELETE']);
      const id = decodePathSegment(secret[1]!);
      if (!(await secrets.revokeSecret(id))) throw new HttpProblem(404, `no database secret has the id "${id}"`);
      res.writeHead(204).end();
      return true;
    }

    const account = /^\/accounts\/([^/]+)$/.exec(path);
    if (account) {
      allow(req, ['PUT']);
      const sub = decodePathSegment(account[1]!);
      const body = await parseBody(req, DevAccountRequest);
      const emails = [...new Set(body.emails.map(emailKey))];
      await store.putAccount({ sub, emails, deleted: body.deleted ?? false });
      sendJson(res, 200, { sub, emails, deleted: body.deleted ?? false });
      return true;
    }

    if (path === '/exposures') {
      allow(req, ['PUT']);
      const body = await parseBody(req, DevExposuresRequest);
      const found = await Promise.all(body.breachIds.map((id) => store.getBreach(id)));
      const unknown = body.breachIds.flatMap((id, index) => (found[index] ? [] : [{ pointer: `/breachIds/${index}`, message: `breach "${id}" is not in the catalog` }]));
      if (unknown.length > 0) throw new HttpProblem(400, unknown.map((e) => e.message).join('; '), { errors: unknown });
      const breachIds = [...new Set(body.breachIds)];
      await store.setExposures(emailKey(body.email), breachIds, true);
      sendJson(res, 200, { email: emailKey(body.email), breachIds });
      return true;
    }

    if (path === '/breaches') {
      allow(req, ['POST']);
      const breach = toBreach(await parseBody(req, DevBreachRequest));
      const existed = (await store.getBreach(breach.id)) !== undefined;
      await store.putBreach(breach);
      await putDetails?.([breach]);
      sendJson(res, existed ? 200 : 201, breach);
      return true;
    }

    // The bulk path (benchmark set-up): many breaches in one catalog transaction and one details write.
    if (path === '/breaches/batch') {
      allow(req, ['POST']);
      const breaches = (await parseBody(req, DevBreachBatchRequest, DEV_BATCH_BODY_BYTES)).map(toBreach);
      await store.putBreaches(breaches);
      await putDetails?.(breaches);
      sendJson(res, 200, { count: breaches.length });
      return true;
    }
    return false;
  };
}

/** A batch of 5,000 breaches is about 1.5 MB of JSON. */
const DEV_BATCH_BODY_BYTES = 8 * 1024 * 1024;

function toBreach(body: z.infer<typeof DevBreachRequest>): Breach {
  const addedDate = toMinutePrecision(body.addedDate);
  const modified = toMinutePrecision(body.modifiedDate ?? body.addedDate);
  return Breach.parse({
    ...body,
    addedDate,
    modifiedDate: Date.parse(modified) < Date.parse(addedDate) ? addedDate : modified,
    dataClasses: normalizeDataClasses(body.dataClasses),
  });
}

async function parseBody<T extends z.ZodType>(req: IncomingMessage, schema: T, maxBytes = 1024 * 1024): Promise<z.infer<T>> {
  const parsed = schema.safeParse(await readJsonBody(req, maxBytes));
  if (parsed.success) return parsed.data;
  const errors = issuesToFieldErrors(parsed.error.issues);
  throw new HttpProblem(400, errors.map((e) => `${e.pointer || 'body'}: ${e.message}`).join('; '), { errors });
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpProblem(400, 'the path segment is not valid percent-encoding');
  }
}
