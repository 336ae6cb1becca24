// Issue 26's reproductions, exactly as the attacker found them, on both stores: a conditional
// write that leaked the database (finding 1), prototype pollution through the realtime
// database (finding 2) and the lower findings in the service's own mounts (finding 7).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { serviceStores } from '../../support/postgres.ts';

const STORES = await serviceStores();

describe.each(STORES)('as an attacker on $name', (store) => {
  let service: RunningService;
  let dataDir: string;
  let breachIds: string[];

  const dev = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${service.url}/__dev${route}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return (response.status === 204 ? undefined : response.json()) as Promise<T>;
  };
  const idToken = async (sub: string) => (await dev<{ id_token: string }>('POST', '/id-token', { sub, email: `${sub}@example.com` })).id_token;
  const accessToken = async (body: Record<string, unknown>) => (await dev<{ access_token: string }>('POST', '/token', body)).access_token;

  beforeAll(async () => {
    if (!store.available) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-attacker-'));
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', ...(await store.serviceOptions()) });
    breachIds = (await service.store.listBreaches()).map((breach) => breach.id);
    // Private data to steal: bob's account, exposures and a resolution, and alice's preferences.
    await dev('PUT', '/accounts/bob', { emails: ['bob@example.com'] });
    await dev('PUT', '/exposures', { email: 'bob@example.com', breachIds: breachIds.slice(0, 2) });
    const bob = await accessToken({ sub: 'bob', email: 'bob@example.com' });
    await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${bob}` } });
    const alice = await idToken('alice');
    const put = await fetch(`${service.url}/rtdb/users/alice/preferences.json?auth=${alice}`, { method: 'PUT', body: JSON.stringify({ secretNote: 'alice-private-marker' }) });
    expect(put.status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    // A failing run on the original code leaves the pollution behind; later files get a clean process anyway.
    for (const name of ['polluted', 'email_verified']) delete (Object.prototype as Record<string, unknown>)[name];
  });
  beforeEach((ctx) => {
    if (!store.available) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  describe('finding 1: a conditional write without credentials', () => {
    it.each(['PUT', 'PATCH', 'POST', 'DELETE'])('%s /rtdb/.json with a wrong if-match is refused before the ETag is compared, showing nothing', async (method) => {
      const response = await fetch(`${service.url}/rtdb/.json`, {
        method,
        headers: { 'if-match': '"x"', 'content-type': 'application/json' },
        ...(method === 'DELETE' ? {} : { body: JSON.stringify({ x: 1 }) }),
      });
      const text = await response.text();
      expect(response.status, text.slice(0, 200)).toBe(401);
      expect(JSON.parse(text)).toEqual({ error: 'Permission denied' });
      expect(response.headers.get('etag')).toBeNull();
      expect(text).not.toContain('alice-private-marker');
    });

    it('is refused before its body is read: an unauthorised write gets 401 without the body ever arriving', async () => {
      const { request } = await import('node:http');
      const url = new URL(`${service.url}/rtdb/users/alice/preferences.json`);
      const status = await new Promise<number>((resolve, reject) => {
        // Declares a body and never sends it: only an answer given before reading can come back.
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'PUT', headers: { 'content-length': '1000000', 'content-type': 'application/json' } }, (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          req.destroy();
        });
        req.on('error', reject);
        req.write('{"a":');
      });
      expect(status).toBe(401);
    });

    it('decides X-HTTP-Method-Override on the method it names, as the real database honours it', async () => {
      const location = `${service.url}/rtdb/users/alice/override.json`;
      const alice = await idToken('alice');
      expect((await fetch(`${location}?auth=${alice}`, { method: 'PUT', body: JSON.stringify({ a: 1 }) })).status).toBe(200);
      const anonymousDelete = await fetch(location, { method: 'POST', headers: { 'x-http-method-override': 'DELETE' } });
      expect(anonymousDelete.status).toBe(401);
      // Firebase documents the override for PATCH, PUT and DELETE only: a POST posing as a GET is refused.
      const anonymousRead = await fetch(location, { method: 'POST', headers: { 'x-http-method-override': 'GET' } });
      expect(anonymousRead.status).toBe(400);
      expect(await anonymousRead.text()).not.toContain('"a"');
      const patched = await fetch(`${location}?auth=${alice}`, { method: 'POST', headers: { 'x-http-method-override': 'PATCH' }, body: JSON.stringify({ b: 2 }) });
      expect(patched.status).toBe(200);
      expect(await (await fetch(`${location}?auth=${alice}`)).json()).toEqual({ a: 1, b: 2 });
      // Only a POST stands in for another method, and only for one the database has.
      expect((await fetch(`${location}?auth=${alice}`, { method: 'PUT', headers: { 'x-http-method-override': 'DELETE' }, body: '1' })).status).toBe(400);
      expect((await fetch(`${location}?auth=${alice}`, { method: 'POST', headers: { 'x-http-method-override': 'TRACE' }, body: '1' })).status).toBe(400);
    });

    it('a caller who may write but not read gets 412 without the current value or its ETag', async () => {
      const admin = await dev<{ id: string; secret: string }>('POST', '/rtdb-secrets');
      const rules = {
        rules: {
          catalog: { '.read': true, '.write': false },
          users: { $uid: { '.read': 'auth != null && auth.uid === $uid', '.write': 'auth != null && auth.uid === $uid' } },
          dropbox: { '.write': 'auth != null' },
        },
      };
      expect((await fetch(`${service.url}/rtdb/.settings/rules.json?auth=${admin.secret}`, { method: 'PUT', body: JSON.stringify(rules) })).status).toBe(200);
      await fetch(`${service.url}/rtdb/dropbox.json?auth=${admin.secret}`, { method: 'PUT', body: JSON.stringify({ tip: 'dropbox-private-marker' }) });
      const carol = await idToken('carol');
      const response = await fetch(`${service.url}/rtdb/dropbox.json?auth=${carol}`, { method: 'PUT', headers: { 'if-match': '"x"' }, body: JSON.stringify({ tip: 'mine' }) });
      const text = await response.text();
      expect(response.status).toBe(412);
      expect(text).not.toContain('dropbox-private-marker');
      expect(response.headers.get('etag')).toBeNull();
      // An administrator still gets the current value and ETag, as the real database answers.
      const asAdmin = await fetch(`${service.url}/rtdb/dropbox.json?auth=${admin.secret}`, { method: 'PUT', headers: { 'if-match': '"x"' }, body: JSON.stringify({ tip: 'mine' }) });
      expect(asAdmin.status).toBe(412);
      expect(asAdmin.headers.get('etag')).toMatch(/\S/);
      expect(await asAdmin.json()).toEqual({ tip: 'dropbox-private-marker' });
    });
    it('a write whose rule reads its new data is refused by the rules, not 412, though its if-match is stale (issue 35, finding 9)', async () => {
      // The rules can only refuse this write once they see its body; a condition compared before
      // them would answer 412 with the value, since the caller may read it (the anonymous cases
      // above are refused before their body is read, so they cannot tell the order).
      const admin = await dev<{ id: string; secret: string }>('POST', '/rtdb-secrets');
      const rules = {
        rules: {
          catalog: { '.read': true, '.write': false },
          users: { $uid: { '.read': 'auth != null && auth.uid === $uid', '.write': 'auth != null && auth.uid === $uid' } },
          dropbox: { '.write': 'auth != null' },
          scores: { '.read': true, '.write': 'auth != null && newData.isNumber() && newData.val() < 100' },
        },
      };
      expect((await fetch(`${service.url}/rtdb/.settings/rules.json?auth=${admin.secret}`, { method: 'PUT', body: JSON.stringify(rules) })).status).toBe(200);
      const dave = await idToken('dave');
      const write = (score: number, ifMatch: string) => fetch(`${service.url}/rtdb/scores.json?auth=${dave}`, { method: 'PUT', headers: { 'if-match': ifMatch }, body: String(score) });
      const first = await fetch(`${service.url}/rtdb/scores.json?auth=${dave}`, { method: 'PUT', body: '42' });
      expect(first.status).toBe(200);
      const read = await fetch(`${service.url}/rtdb/scores.json?auth=${dave}`, { headers: { 'x-firebase-etag': 'true' } });
      const etag = read.headers.get('etag')!;
      expect(await read.json()).toBe(42);

      const refused = await write(1000, '"stale"');
      const text = await refused.text();
      expect(refused.status, text.slice(0, 200)).toBe(401);
      expect(JSON.parse(text)).toEqual({ error: 'Permission denied' });
      expect(text).not.toContain('42');
      expect(refused.headers.get('etag')).toBeNull();
      // The same stale condition on a write the rules allow is the 412, with the value (the caller may read it).
      const stale = await write(7, '"stale"');
      expect(stale.status).toBe(412);
      expect(await stale.json()).toBe(42);
      expect((await write(7, etag)).status).toBe(200);
    });
  });

  describe('finding 2: prototype-named keys written to the realtime database', () => {
    it('{"__proto__": {"polluted": 1}} pollutes nothing, and resolutions keep working after it is read back', async () => {
      const alice = await idToken('alice');
      const write = await fetch(`${service.url}/rtdb/users/alice/x.json?auth=${alice}`, { method: 'PUT', body: JSON.stringify(JSON.parse('{"__proto__":{"polluted":1}}')) });
      expect(write.status).toBe(200);
      const read = await fetch(`${service.url}/rtdb/users/alice/x.json?auth=${alice}`);
      expect(read.status).toBe(200);
      expect(await read.text()).toBe('{"__proto__":{"polluted":1}}');
      await fetch(`${service.url}/rtdb/users/alice.json?auth=${alice}&shallow=true`);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const bob = await accessToken({ sub: 'bob', email: 'bob@example.com' });
      const resolve = await fetch(`${service.apiBaseUrl}/user/breaches/resolutions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bob}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ breachId: breachIds[0], dataClasses: ['Email addresses'], resolved: true }]),
      });
      expect(resolve.status, await resolve.text()).toBe(204);
    });

    it('{"__proto__": {"email_verified": true}} does not let an unverified email read its breaches', async () => {
      const alice = await idToken('alice');
      await fetch(`${service.url}/rtdb/users/alice/y.json?auth=${alice}`, { method: 'PUT', body: '{"__proto__":{"email_verified":true}}' });
      await fetch(`${service.url}/rtdb/users/alice/y.json?auth=${alice}`);
      expect(({} as Record<string, unknown>).email_verified).toBeUndefined();
      const mallory = await accessToken({ sub: 'mallory', email: 'bob@example.com', claims: { email_verified: null } });
      await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${mallory}` } });
      const list = await fetch(`${service.apiBaseUrl}/user/breaches`, { headers: { authorization: `Bearer ${mallory}` } });
      const text = await list.text();
      expect(text).not.toContain('bob@example.com');
    });
  });

  describe('finding 7', () => {
    it('a search filter naming a prototype property is refused (400), not run', async () => {
      const { token } = await dev<{ token: string }>('POST', '/api-tokens', { scopes: ['ai-search:read'] });
      for (const field of ['hasOwnProperty', 'constructor', '__proto__', 'toString']) {
        const response = await fetch(`${service.url}/client/v4/accounts/${service.accountId}/ai-search/instances/breaches/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: `{"messages":[{"role":"user","content":"password"}],"ai_search_options":{"retrieval":{"filters":{${JSON.stringify(field)}:{"$ne":1}}}}}`,
        });
        expect(response.status, `${field}: ${await response.clone().text()}`).toBe(400);
      }
      for (const key of ['hasOwnProperty', 'constructor', '__proto__']) {
        const legacy = await fetch(`${service.url}/client/v4/accounts/${service.accountId}/legacy-rag/rags/breaches/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'password', filters: { type: 'ne', key, value: 1 } }),
        });
        expect(legacy.status, `${key}: ${await legacy.clone().text()}`).toBe(400);
      }
    });

    it('a logo path with broken percent-encoding is 400, not 500', async () => {
      const response = await fetch(`${service.url}/catalog/logos/%E0%A4%A.svg`);
      expect(response.status).toBe(400);
    });

    it.runIf(store.name === 'sqlite')('creates rtdb.db 0600 like the other database files', () => {
      expect(statSync(path.join(dataDir, 'rtdb.db')).mode & 0o777).toBe(0o600);
    });

    it('a cross-site simple POST /__dev/rtdb-secrets creates no secret', async () => {
      const before = await service.rtdb.listSecrets();
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        {},
        { 'content-type': 'application/json', origin: 'https://evil.example' },
      ] as Record<string, string>[]) {
        const response = await fetch(`${service.url}/__dev/rtdb-secrets`, { method: 'POST', headers, body: '' });
        expect(response.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
      }
      expect(await service.rtdb.listSecrets()).toEqual(before);
    });
  });
});
