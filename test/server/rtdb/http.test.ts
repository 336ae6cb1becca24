import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_SCOPES, fetchServiceAccountToken, ServiceAccountKey, ServiceAccountTokenError } from '../../../electron/core/feed/serviceAccountToken.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { PERSON_NODE_MAX_BYTES } from '../../../server/rtdb/personQuota.ts';
import { CREDENTIAL_RECHECK_MS } from '../../../server/rtdb/stream.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { openEventStream } from '../../support/eventStream.ts';
import { STORE_KINDS } from './stores.ts';

const [EMAIL_SCOPE, DATABASE_SCOPE] = DATABASE_SCOPES;
const ROOT = path.resolve(import.meta.dirname, '../../..');
const postgres = usePrivatePostgres();
let service: RunningService;
let db: string;
let dataDir: string;
let databaseUrl: string | undefined;
let firstBreach: string;

async function dev<T>(route: string, body?: unknown, method = 'POST'): Promise<T> {
  const response = await fetch(`${service.url}/__dev${route}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? undefined : response.json()) as Promise<T>;
}
const idToken = async (sub: string, expiresIn?: number) => (await dev<{ id_token: string }>('/id-token', { sub, email: `${sub}@example.com`, ...(expiresIn ? { expiresIn } : {}) })).id_token;
const serviceAccount = async (scopes: string[]) => ServiceAccountKey.parse(await dev('/service-accounts', { scopes }));
const adminToken = async () => (await fetchServiceAccountToken(await serviceAccount([...DATABASE_SCOPES]))).accessToken;

function call(location: string, init: { method?: string; body?: unknown; query?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const query = new URLSearchParams(init.query ?? {}).toString();
  return fetch(`${db}/${location}.json${query ? `?${query}` : ''}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;
async function expectDenied(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: 'Permission denied' });
}

describe.each(STORE_KINDS)('the realtime database over HTTP on %s', (kind) => {
  let unavailable = false;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rtdb-http-'));
    databaseUrl = undefined;
    if (kind === 'postgres') {
      const server = postgres.server();
      if (!server) {
        unavailable = true;
        return;
      }
      databaseUrl = await server.createDatabase();
    }
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', ...(databaseUrl ? { databaseUrl } : {}) });
    db = `${service.url}/rtdb`;
    firstBreach = (await service.store.listBreaches())[0]!.id;
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach((ctx) => {
    if (unavailable) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  describe('without authentication', () => {
    it('reads what the rules make public: the catalog details', async () => {
      const response = await call(`catalog/breaches/${firstBreach}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ title: expect.any(String), pwnCount: expect.any(Number), dataClasses: expect.any(Array) });
      expect(await (await call('catalog/breaches/NoSuchBreach')).json()).toBeNull();
    });

    it("is refused people's data, the root and every write", async () => {
      await expectDenied(await call('users/alice/preferences'));
      await expectDenied(await call(''));
      await expectDenied(await call('users/alice/preferences', { method: 'PUT', body: { theme: 'dark' } }));
      await expectDenied(await call(`catalog/breaches/${firstBreach}`, { method: 'DELETE' }));
    });
  });

  describe("a service-account access token (JWT-bearer grant at the key file's token_uri)", () => {
    it('with both scopes has full read and write access, bypassing the rules', async () => {
      const key = await serviceAccount([EMAIL_SCOPE, DATABASE_SCOPE]);
      expect(key).toMatchObject({ type: 'service_account', token_uri: `${service.issuer}/service-accounts/token` });
      const { accessToken, expiresAt } = await fetchServiceAccountToken(key);
      expect(expiresAt).toBeGreaterThan(Date.now());
      const auth = { authorization: `Bearer ${accessToken}` };
      expect((await call('users/carol/preferences', { method: 'PUT', body: { theme: 'dark' }, headers: auth })).status).toBe(200);
      expect(await (await call('users/carol/preferences', { headers: auth })).json()).toEqual({ theme: 'dark' });
      expect((await call('catalog/breaches/Extra', { method: 'PUT', body: { title: 'Extra' }, headers: auth })).status).toBe(200);
      expect((await call('catalog/breaches/Extra', { method: 'DELETE', headers: auth })).status).toBe(200);
    });

    it('works as ?access_token= too', async () => {
      const token = await adminToken();
      const response = await call('users', { query: { access_token: token } });
      expect(response.status).toBe(200);
    });

    it('is not issued to an account permitted only one of the scopes (invalid_scope)', async () => {
      const key = await serviceAccount([DATABASE_SCOPE]);
      const refused = await fetchServiceAccountToken(key).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ServiceAccountTokenError);
      expect((refused as ServiceAccountTokenError).code).toBe('invalid_scope');
      expect((refused as Error).message).toContain(EMAIL_SCOPE);
    });

    it('with only one scope (all the account may have) gets no access to the database', async () => {
      const key = await serviceAccount([DATABASE_SCOPE]);
      const { accessToken } = await fetchServiceAccountToken(key, [DATABASE_SCOPE]);
      const response = await call('users', { headers: { authorization: `Bearer ${accessToken}` } });
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toBe(`the access token lacks the scope ${EMAIL_SCOPE}`);
    });

    it('refuses assertions signed with another key, and tokens that are not its own', async () => {
      const key = await serviceAccount([...DATABASE_SCOPES]);
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const forged = await fetchServiceAccountToken({ ...key, private_key: other }).catch((error: unknown) => error);
      expect((forged as ServiceAccountTokenError).code).toBe('invalid_grant');
      const wrongAudience = await fetchServiceAccountToken({ ...key, token_uri: `${service.url}/oidc/service-accounts/token?x=1` }).catch((e: unknown) => e);
      expect((wrongAudience as ServiceAccountTokenError).code).toBe('invalid_grant');
      // An API access token (another audience) is not a database token.
      const { access_token: apiToken } = await dev<{ access_token: string }>('/token', { sub: 'alice' });
      expect((await call('users', { headers: { authorization: `Bearer ${apiToken}` } })).status).toBe(401);
      expect((await call('users', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    });

    it('answers grant errors as OAuth errors', async () => {
      const post = (body: string, type = 'application/x-www-form-urlencoded') => fetch(`${service.issuer}/service-accounts/token`, { method: 'POST', headers: { 'content-type': type }, body });
      expect(await (await post('grant_type=password')).json()).toMatchObject({ error: 'unsupported_grant_type' });
      expect(await (await post('grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer')).json()).toMatchObject({ error: 'invalid_request' });
      expect(await (await post('grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=abc')).json()).toMatchObject({ error: 'invalid_grant' });
      expect((await post('{}', 'application/json')).status).toBe(400);
    });
  });

  describe('an ID token as ?auth=', () => {
    it('acts as that person under the rules: own path yes', async () => {
      const auth = await idToken('alice');
      expect((await call('users/alice/preferences', { method: 'PUT', body: { hidden: ['X'] }, query: { auth } })).status).toBe(200);
      expect(await (await call('users/alice/preferences', { query: { auth } })).json()).toEqual({ hidden: ['X'] });
    });

    it("another person's path no", async () => {
      const auth = await idToken('alice');
      await expectDenied(await call('users/bob/preferences', { query: { auth } }));
      await expectDenied(await call('users/bob/preferences', { method: 'PUT', body: { hidden: [] }, query: { auth } }));
      await expectDenied(await call('users', { query: { auth } }));
    });

    it('expired no', async () => {
      const auth = await idToken('alice', -10);
      const response = await call('users/alice/preferences', { query: { auth } });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Auth token is expired' });
    });

    it('foreign (another signer or another audience) no', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const foreign = await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: 'x' })
        .setIssuer(service.issuer)
        .setAudience('breach-monitor-desktop')
        .setSubject('alice')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      expect(await (await call('users/alice/preferences', { query: { auth: foreign } })).json()).toEqual({ error: 'Could not parse auth token.' });
      const { access_token: accessToken } = await dev<{ access_token: string }>('/token', { sub: 'alice' });
      expect((await call('users/alice/preferences', { query: { auth: accessToken } })).status).toBe(401);
    });

    it('no longer works once the account is gone', async () => {
      const auth = await idToken('dave');
      expect((await call('users/dave', { query: { auth } })).status).toBe(200);
      await dev('/accounts/dave', { emails: [], deleted: true }, 'PUT');
      expect((await call('users/dave', { query: { auth } })).status).toBe(401);
    });
  });

  describe('legacy secrets as ?auth=', () => {
    it('give full access with a Warning header, until revoked', async () => {
      const { id, secret } = await dev<{ id: string; secret: string }>('/rtdb-secrets');
      const response = await call('users', { query: { auth: secret } });
      expect(response.status).toBe(200);
      expect(response.headers.get('warning')).toMatch(/^299 - ".*legacy.*discouraged/);
      await dev(`/rtdb-secrets/${id}`, undefined, 'DELETE');
      const revoked = await call('users', { query: { auth: secret } });
      expect(revoked.status).toBe(401);
      expect(await revoked.json()).toEqual({ error: 'Could not parse auth token.' });
      expect((await fetch(`${service.url}/__dev/rtdb-secrets/${id}x`, { method: 'DELETE' })).status).toBe(404);
    });

    it('are created, listed and revoked with npm run server -- rtdb-secret', async () => {
      const run = (...args: string[]) =>
        promisify(execFile)(process.execPath, [path.join(ROOT, 'server/main.ts'), 'rtdb-secret', ...args, '--data', dataDir, ...(databaseUrl ? ['--database-url', databaseUrl] : [])]);
      const created = (await run('create')).stdout;
      const id = /id: +(\S+)/.exec(created)![1]!;
      const secret = /secret: +(\S+)/.exec(created)![1]!;
      expect((await call('users', { query: { auth: secret } })).status).toBe(200);
      expect((await run('list')).stdout).toMatch(new RegExp(`${id} +created \\S+ +active`));
      expect((await run('revoke', id)).stdout).toContain(`revoked ${id}`);
      expect((await run('list')).stdout).toMatch(new RegExp(`${id} +created \\S+ +revoked`));
      expect((await call('users', { query: { auth: secret } })).status).toBe(401);
      await expect(run('revoke', 'nope')).rejects.toMatchObject({ stderr: expect.stringContaining('no secret has the id "nope"') });
      await expect(run('rotate')).rejects.toMatchObject({ stderr: expect.stringContaining('use "create", "list" or "revoke ID"') });
    }, 60_000);
  });

  describe('writes under the rules', () => {
    it('PUT, PATCH (several locations), POST (time-ordered keys) and DELETE on one’s own path', async () => {
      const auth = await idToken('erin');
      const base = 'users/erin/preferences';
      expect(await (await call(base, { method: 'PUT', body: { theme: 'dark', notify: { newBreach: true } }, query: { auth } })).json()).toEqual({ theme: 'dark', notify: { newBreach: true } });
      expect((await call(base, { method: 'PATCH', body: { theme: 'light', 'notify/digest': false }, query: { auth } })).status).toBe(200);
      expect(await (await call(base, { query: { auth } })).json()).toEqual({ theme: 'light', notify: { newBreach: true, digest: false } });
      const names: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await call(`${base}/hidden`, { method: 'POST', body: `breach-${i}`, query: { auth } });
        names.push(((await response.json()) as { name: string }).name);
      }
      expect(names.every((name) => /^[-0-9A-Za-z_]{20}$/.test(name))).toBe(true);
      expect([...names].sort()).toEqual(names);
      expect(await (await call(`${base}/hidden`, { query: { auth } })).json()).toEqual(Object.fromEntries(names.map((n, i) => [n, `breach-${i}`])));
      expect(await (await call(`${base}/hidden`, { method: 'DELETE', query: { auth } })).json()).toBeNull();
      expect(await (await call(`${base}/hidden`, { query: { auth } })).json()).toBeNull();
      // A PATCH reaching outside one's own path is refused whole.
      await expectDenied(await call('users', { method: 'PATCH', body: { 'erin/preferences/theme': 'dark', 'bob/preferences/theme': 'dark' }, query: { auth } }));
      expect(await (await call(`${base}/theme`, { query: { auth } })).json()).toBe('light');
    });

    it("keeps a person's node within its quota: a write past it is refused whole and changes nothing, deleting makes room, a service account is not held to it", async () => {
      const auth = await idToken('gina');
      const half = 'x'.repeat(PERSON_NODE_MAX_BYTES / 2);
      expect((await call('users/gina/notes/a', { method: 'PUT', body: half, query: { auth } })).status).toBe(200);
      // A second half, with the JSON around it, is past the quota: 413, and neither part of the PATCH is kept.
      const over = await call('users/gina', { method: 'PATCH', body: { 'notes/b': half, theme: 'dark' }, query: { auth } });
      expect(over.status).toBe(413);
      expect(await errorOf(over)).toMatch(new RegExp(`^Payload too large: /users/gina would hold \\d+ bytes; a person's node holds at most ${PERSON_NODE_MAX_BYTES} bytes$`));
      expect(await (await call('users/gina/theme', { query: { auth } })).json()).toBeNull();
      expect(Object.keys((await (await call('users/gina/notes', { query: { auth } })).json()) as object)).toEqual(['a']);
      // Another person is not held to gina's count.
      const hal = await idToken('hal');
      expect((await call('users/hal/notes/a', { method: 'PUT', body: half, query: { auth: hal } })).status).toBe(200);
      // Room again once something is deleted.
      expect((await call('users/gina/notes/a', { method: 'DELETE', query: { auth } })).status).toBe(200);
      expect((await call('users/gina/notes/b', { method: 'PUT', body: half, query: { auth } })).status).toBe(200);
      // The operator's service account writes past it (the quota bounds people, not the operator).
      const headers = { authorization: `Bearer ${await adminToken()}` };
      expect((await call('users/gina/notes/c', { method: 'PUT', body: half, headers })).status).toBe(200);
      await call('users/gina', { method: 'DELETE', headers });
      await call('users/hal', { method: 'DELETE', headers });
    });

    it('applies rules replaced by a service account, including .validate and newData', async () => {
      const token = await adminToken();
      const headers = { authorization: `Bearer ${token}` };
      const original = await (await call('.settings/rules', { headers })).json();
      await expectDenied(await call('.settings/rules', { query: { auth: await idToken('alice') } }));
      const rules = {
        rules: {
          catalog: { '.read': true },
          users: {
            $uid: {
              '.read': 'auth.uid === $uid',
              '.write': 'auth.uid === $uid && (!data.exists() || newData.child("locked").val() !== true)',
              preferences: { '.validate': 'newData.hasChildren(["theme"])' },
            },
          },
        },
      };
      expect((await call('.settings/rules', { method: 'PUT', body: rules, headers })).status).toBe(200);
      const bad = await call('.settings/rules', { method: 'PUT', body: { rules: { x: { '.read': 'nope()' } } }, headers });
      expect(bad.status).toBe(400);
      expect(await errorOf(bad)).toContain('/x/.read');
      try {
        const auth = await idToken('frank');
        expect((await call('users/frank/preferences', { method: 'PUT', body: { theme: 'dark' }, query: { auth } })).status).toBe(200);
        await expectDenied(await call('users/frank/preferences', { method: 'PUT', body: { colour: 'red' }, query: { auth } }));
        await expectDenied(await call('users/frank', { method: 'PATCH', body: { locked: true }, query: { auth } }));
      } finally {
        expect((await call('.settings/rules', { method: 'PUT', body: original, headers })).status).toBe(200);
      }
    });
  });

  describe('shallow, ETag and conditional writes', () => {
    it('?shallow=true answers the keys with true, and primitives as they are', async () => {
      const response = await call('catalog/breaches', { query: { shallow: 'true' } });
      const keys = (await response.json()) as Record<string, boolean>;
      expect(Object.keys(keys)).toEqual((await service.store.listBreaches()).map((b) => b.id));
      expect(new Set(Object.values(keys))).toEqual(new Set([true]));
      expect(await (await call(`catalog/breaches/${firstBreach}/title`, { query: { shallow: 'true' } })).json()).toEqual(expect.any(String));
    });

    it('X-Firebase-ETag adds an ETag; if-match makes a write conditional (412 with the current value)', async () => {
      const auth = await idToken('gina');
      const location = 'users/gina/preferences';
      const first = await call(location, { method: 'PUT', body: { theme: 'dark' }, query: { auth }, headers: { 'x-firebase-etag': 'true' } });
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^".+"$/);
      const read = await call(location, { query: { auth }, headers: { 'x-firebase-etag': 'true' } });
      expect(read.headers.get('etag')).toBe(etag);
      expect((await call(location, { query: { auth } })).headers.get('etag')).toBeNull();

      const updated = await call(location, { method: 'PUT', body: { theme: 'light' }, query: { auth }, headers: { 'if-match': etag } });
      expect(updated.status).toBe(200);
      const newEtag = updated.headers.get('etag')!;
      expect(newEtag).not.toBe(etag);
      const stale = await call(location, { method: 'PUT', body: { theme: 'blue' }, query: { auth }, headers: { 'if-match': etag } });
      expect(stale.status).toBe(412);
      expect(stale.headers.get('etag')).toBe(newEtag);
      expect(await stale.json()).toEqual({ theme: 'light' });
      expect((await call(location, { method: 'DELETE', query: { auth }, headers: { 'if-match': etag } })).status).toBe(412);
      expect((await call(location, { method: 'DELETE', query: { auth }, headers: { 'if-match': newEtag } })).status).toBe(200);
    });

    it('an unchanged catalog costs one round trip without a body (If-None-Match → 304)', async () => {
      const first = await call('catalog/breaches', { headers: { 'x-firebase-etag': 'true' } });
      const etag = first.headers.get('etag')!;
      const again = await call('catalog/breaches', { headers: { 'x-firebase-etag': 'true', 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    });
  });

  describe('streaming reads (Accept: text/event-stream)', () => {
    it('sends the value at once, then each change as a put at "/" (or of just the child changed below), and nothing for writes elsewhere', async () => {
      const headers = { authorization: `Bearer ${await adminToken()}` };
      const stream = await openEventStream(`${db}/catalog/breaches/Streamed.json`);
      try {
        expect(stream.response.status).toBe(200);
        expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: null } });
        expect((await call('catalog/breaches/Other', { method: 'PUT', body: { title: 'Other' }, headers })).status).toBe(200);
        expect((await call('catalog/breaches/Streamed', { method: 'PUT', body: { title: 'One' }, headers })).status).toBe(200);
        expect(await stream.next('the put of the write')).toEqual({ event: 'put', data: { path: '/', data: { title: 'One' } } });
        expect((await call('catalog/breaches', { method: 'PATCH', body: { 'Streamed/title': 'Two' }, headers })).status).toBe(200);
        // As the real database: a change below the location is sent as a put of that child alone.
        expect(await stream.next('the put of the PATCH of a child')).toEqual({ event: 'put', data: { path: '/title', data: 'Two' } });
        expect((await call('catalog/breaches/Streamed', { method: 'DELETE', headers })).status).toBe(200);
        expect(await stream.next('the put of the delete')).toEqual({ event: 'put', data: { path: '/', data: null } });
      } finally {
        stream.close();
        await call('catalog/breaches/Other', { method: 'DELETE', headers });
      }
    });

    it('is refused where the rules refuse the read, and cancelled when replaced rules stop permitting it', async () => {
      const refused = await openEventStream(`${db}/users/ivy.json`);
      expect(refused.response.status).toBe(401);
      expect(await refused.response.json()).toEqual({ error: 'Permission denied' });
      const headers = { authorization: `Bearer ${await adminToken()}` };
      const original = await (await call('.settings/rules', { headers })).json();
      const auth = await idToken('ivy');
      const stream = await openEventStream(`${db}/users/ivy.json?auth=${auth}`);
      try {
        expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: null } });
        expect((await call('users/ivy/preferences', { method: 'PUT', body: { theme: 'dark' }, query: { auth } })).status).toBe(200);
        expect(await stream.next('the own write')).toEqual({ event: 'put', data: { path: '/preferences', data: { theme: 'dark' } } });
        expect((await call('.settings/rules', { method: 'PUT', body: { rules: { catalog: { '.read': true } } }, headers })).status).toBe(200);
        expect(await stream.next('the cancel')).toEqual({ event: 'cancel', data: null });
      } finally {
        stream.close();
        expect((await call('.settings/rules', { method: 'PUT', body: original, headers })).status).toBe(200);
      }
    });

    it('ends with auth_revoked when the ID token expires', async () => {
      const auth = await idToken('jo', 2);
      const stream = await openEventStream(`${db}/users/jo.json?auth=${auth}`);
      try {
        expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: null } });
        expect(await stream.next('auth_revoked at the expiry', 10_000)).toEqual({ event: 'auth_revoked', data: 'credential is no longer valid' });
      } finally {
        stream.close();
      }
    });

    it('ends with auth_revoked, sending nothing more, once its credential is revoked (a legacy secret)', async () => {
      const { id, secret } = await dev<{ id: string; secret: string }>('/rtdb-secrets');
      const headers = { authorization: `Bearer ${await adminToken()}` };
      const stream = await openEventStream(`${db}/catalog/breaches/Revoked.json?auth=${secret}`);
      try {
        expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: null } });
        expect((await call('catalog/breaches/Revoked', { method: 'PUT', body: { title: 'Seen' }, headers })).status).toBe(200);
        expect(await stream.next('the put while the secret holds')).toEqual({ event: 'put', data: { path: '/', data: { title: 'Seen' } } });
        await dev(`/rtdb-secrets/${id}`, undefined, 'DELETE');
        // Past the stream's last check of its credential (at most a second old when it sends a change).
        await new Promise((resolve) => setTimeout(resolve, CREDENTIAL_RECHECK_MS + 100));
        expect((await call('catalog/breaches/Revoked', { method: 'PUT', body: { title: 'Not for a revoked secret' }, headers })).status).toBe(200);
        expect(await stream.next('auth_revoked instead of the put')).toEqual({ event: 'auth_revoked', data: 'credential is no longer valid' });
      } finally {
        stream.close();
        await call('catalog/breaches/Revoked', { method: 'DELETE', headers });
      }
    });

    it('takes neither shallow nor X-Firebase-ETag', async () => {
      expect((await openEventStream(`${db}/catalog.json?shallow=true`)).response.status).toBe(400);
      expect((await openEventStream(`${db}/catalog.json`, { 'x-firebase-etag': 'true' })).response.status).toBe(400);
    });
  });

  describe('bad requests get a clear error', () => {
    it.each([
      ['users/a.b', { query: { auth: 'x' } }, 401, 'Could not parse auth token.'],
      // JSONP would let any web page read the database as a script: not served.
      ['catalog/breaches', { query: { callback: 'steal' } }, 400, 'query parameter "callback" is not supported'],
      ['catalog/breaches', { query: { orderBy: '$key' } }, 400, 'orderBy must be a valid JSON encoded path'],
      ['catalog/breaches', { query: { shallow: 'yes' } }, 400, 'shallow must be true or false'],
    ] as const)('%s %j → %i', async (location, init, status, message) => {
      const response = await call(location, init);
      expect(response.status).toBe(status);
      expect(await errorOf(response)).toContain(message);
    });

    it('refuses bad keys, bad JSON and paths without .json', async () => {
      const headers = { authorization: `Bearer ${await adminToken()}` };
      const badKey = await call('users/x', { method: 'PUT', body: { 'a.b': 1 }, headers });
      expect(badKey.status).toBe(400);
      expect(await errorOf(badKey)).toContain('key "a.b" contains one of . $ # [ ] /');
      const badJson = await fetch(`${db}/users/x.json`, { method: 'PUT', headers, body: '{nope' });
      expect(badJson.status).toBe(400);
      expect(await errorOf(badJson)).toContain("couldn't parse JSON");
      expect((await fetch(`${db}/users/x`)).status).toBe(404);
      expect((await call('users/x', { method: 'OPTIONS', headers })).status).toBe(405);
    });
  });

  describe('durability', () => {
    it('keeps every write across a restart', async () => {
      const auth = await idToken('hank');
      await call('users/hank/preferences', { method: 'PUT', body: { theme: 'dark', list: [1, 2, 3] }, query: { auth } });
      await service.close();
      // A new port: the client's pooled connections to the old one are dead.
      service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', ...(databaseUrl ? { databaseUrl } : {}) });
      db = `${service.url}/rtdb`;
      const again = await idToken('hank');
      expect(await (await call('users/hank/preferences', { query: { auth: again } })).json()).toEqual({ theme: 'dark', list: [1, 2, 3] });
    });
  });
});
