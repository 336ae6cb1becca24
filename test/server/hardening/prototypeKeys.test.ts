// Finding 2's class, made impossible: random JSON with prototype-named keys at random depths,
// written and read through every mount that takes a JSON body, never changes what every object
// inherits and never crashes the service — in this process (where `({}).anything` can be
// looked at) and in the real service process (`npm run server`), which freezes
// Object.prototype at start so a missed spot fails loudly instead of poisoning it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MONITOR_SCOPE } from '../../../shared/api/index.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { sendRaw, walkRequests } from '../../support/routeWalk.ts';
import { serviceStores } from '../../support/postgres.ts';
import { DESKTOP_CLIENT_ID, type DevIdentityProvider } from '../../../server/identity/index.ts';
import { exchangeCode, refresh, signIn } from '../identity/harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const STORES = await serviceStores();
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'polluted', 'email_verified', 'isAdmin', 'a', '0'];
const INHERITED_BEFORE = Object.getOwnPropertyNames(Object.prototype).sort();

/** JSON text (not a JS value: an object literal with `__proto__` would set a prototype here). */
const prototypeJson: fc.Arbitrary<string> = fc.letrec<{ node: string; object: string; array: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean()).map((value) => JSON.stringify(value)),
    tie('object'),
    tie('array'),
  ),
  object: fc
    .array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), tie('node')), { minLength: 1, maxLength: 4 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
  array: fc.array(tie('node'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
})).object;

interface Credentials {
  alice: string;
  bob: string;
  monitor: string;
  search: string;
}

async function credentials(base: string): Promise<Credentials> {
  const dev = async (route: string, body: unknown) => {
    const response = await fetch(`${base}/__dev${route}`, { method: route.startsWith('/accounts') ? 'PUT' : 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  };
  await dev('/accounts/bob', { emails: ['bob@example.com'] });
  const bob = (await dev('/token', { sub: 'bob', email: 'bob@example.com' })).access_token!;
  await fetch(`${base}/api/v1/user`, { method: 'POST', headers: { authorization: `Bearer ${bob}` } });
  return {
    alice: (await dev('/id-token', { sub: 'alice', email: 'alice@example.com' })).id_token!,
    bob,
    monitor: (await dev('/token', { sub: 'bob', email: 'bob@example.com', scope: `openid email ${MONITOR_SCOPE}` })).access_token!,
    search: (await dev('/api-tokens', { scopes: ['ai-search:read', 'ai-search:run'] })).token!,
  };
}

/** Sends `text` to every mount that takes a JSON body, with credentials so it is parsed, and reads the database back. */
async function throughEveryMount(base: string, accountId: string, who: Credentials, text: string): Promise<{ statuses: number[] }> {
  const json = { 'content-type': 'application/json' };
  const bearer = (token: string) => ({ ...json, authorization: `Bearer ${token}` });
  const requests: [string, RequestInit][] = [
    [`/rtdb/users/alice/p.json?auth=${who.alice}`, { method: 'PUT', body: text }],
    [`/rtdb/users/alice.json?auth=${who.alice}`, { method: 'PATCH', body: text }],
    [`/rtdb/users/alice/list.json?auth=${who.alice}`, { method: 'POST', body: text }],
    [`/rtdb/users/alice.json?auth=${who.alice}`, { method: 'GET' }],
    [`/rtdb/users/alice.json?auth=${who.alice}&shallow=true`, { method: 'GET' }],
    [`/rtdb/users/alice/p.json?auth=${who.alice}&print=pretty`, { method: 'GET' }],
    ['/api/v1/user/breaches/resolutions', { method: 'POST', headers: bearer(who.bob), body: text }],
    ['/api/v1/user/breaches/resolutions', { method: 'POST', headers: bearer(who.bob), body: `[${text}]` }],
    ['/api/firefox/v1/user/breaches/resolutions', { method: 'POST', headers: bearer(who.monitor), body: `[${text}]` }],
    [
      `/client/v4/accounts/${accountId}/ai-search/instances/breaches/search`,
      { method: 'POST', headers: bearer(who.search), body: `{"query":"password","ai_search_options":{"retrieval":{"filters":${text}}}}` },
    ],
    [`/client/v4/accounts/${accountId}/ai-search/instances/breaches/chat/completions`, { method: 'POST', headers: bearer(who.search), body: text }],
    [`/client/v4/accounts/${accountId}/legacy-rag/rags/breaches/search`, { method: 'POST', headers: bearer(who.search), body: `{"query":"password","filters":${text}}` }],
    ['/v2/node', { method: 'POST', headers: { ...json, 'x-api-key': 'dev-key' }, body: text }],
    ['/__dev/token', { method: 'POST', headers: json, body: `{"sub":"mallory","claims":${text}}` }],
    ['/__dev/accounts/mallory', { method: 'PUT', headers: json, body: text }],
  ];
  const statuses: number[] = [];
  for (const [route, init] of requests) statuses.push((await fetch(base + route, init)).status);
  return { statuses };
}

/** What the attacker's pollution broke: a valid resolution, and an unverified email's breaches. */
async function stillSound(base: string, who: Credentials, breachId: string): Promise<void> {
  const resolve = await fetch(`${base}/api/v1/user/breaches/resolutions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.bob}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ breachId, dataClasses: ['Email addresses'], resolved: true }]),
  });
  expect([204, 404]).toContain(resolve.status);
  expect(await resolve.text()).not.toContain('Unrecognized key');
}

describe('prototype-named keys through every JSON mount, in this process', () => {
  let service: RunningService;
  let dataDir: string;
  let who: Credentials;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-proto-'));
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent' });
    who = await credentials(service.url);
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never changes Object.prototype and never answers 5xx', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(prototypeJson, async (text) => {
        const { statuses } = await throughEveryMount(service.url, service.accountId, who, text);
        expect(statuses.filter((status) => status >= 500)).toEqual([]);
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(INHERITED_BEFORE);
        const probe = {} as Record<string, unknown>;
        for (const key of PROTOTYPE_KEYS) if (!INHERITED_BEFORE.includes(key)) expect(probe[key], key).toBeUndefined();
      }),
      { numRuns: 60 },
    );
    await stillSound(service.url, who, (await service.store.listBreaches())[0]!.id);
  });
});

describe.each(STORES)('the real service process (npm run server) on $name, Object.prototype frozen', (store) => {
  let child: ChildProcess;
  let base: string;
  let dataDir: string;
  let output = '';
  beforeAll(async () => {
    if (!store.available) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-frozen-'));
    const { databaseUrl } = await store.serviceOptions();
    const args = [path.join(ROOT, 'server/main.ts'), '--port', '0', '--data', dataDir, '--dev', '--log-level', 'warn', ...(databaseUrl ? ['--database-url', databaseUrl] : [])];
    child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start in 25 s:\n${output}`)), 25_000);
      const look = () => {
        const match = /API base URL:\s+(http:\/\/[^/\s]+)\/api\/v1/.exec(output);
        if (match && output.includes('Hardening:')) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout!.on('data', look);
      child.once('exit', (code) => reject(new Error(`the service exited (${code}):\n${output}`)));
    });
  }, 40_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach((ctx) => {
    if (!store.available) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  it('starts with Object.prototype frozen', () => {
    expect(output).toContain('Object.prototype frozen');
  });

  it('answers every route of every mount without a 5xx (no library trips over the frozen prototype)', { timeout: 120_000 }, async () => {
    // The mount table of an identical in-process service: the child's own is not reachable from here.
    const twinDir = mkdtempSync(path.join(tmpdir(), 'svc-twin-'));
    const twin = await startService({ port: 0, dataDir: twinDir, dev: true, logLevel: 'silent' });
    const mounts = twin.mounts;
    await twin.close();
    rmSync(twinDir, { recursive: true, force: true });
    const port = Number(new URL(base).port);
    const failures: string[] = [];
    for (const walk of walkRequests(mounts, { account: 'local' })) {
      if (walk.path.includes('format=') || walk.path.includes('shallow=')) continue;
      const answer = await sendRaw(port, `127.0.0.1:${port}`, walk);
      if (answer.status >= 500) failures.push(`${walk.method} ${walk.path} ${JSON.stringify(walk.headers)} → ${answer.status}: ${answer.body.slice(0, 200)}`);
    }
    expect(failures.slice(0, 10), output.slice(-2000)).toEqual([]);
  });

  it('signs in through the provider, mints service-account tokens and serves every JSON mount with prototype keys', { timeout: 120_000 }, async () => {
    const who = await credentials(base);
    // A service-account token (a JWT-bearer grant at the provider) and a read with it.
    const { fetchServiceAccountToken, ServiceAccountKey } = await import('../../../electron/core/feed/serviceAccountToken.ts');
    const key = ServiceAccountKey.parse(
      await (
        await fetch(`${base}/__dev/service-accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ scopes: ['https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/firebase.database'] }),
        })
      ).json(),
    );
    const { accessToken } = await fetchServiceAccountToken(key);
    expect((await fetch(`${base}/rtdb/users.json`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);
    expect((await fetch(`${base}/oidc/.well-known/openid-configuration`)).status).toBe(200);
    await fc.assert(
      fc.asyncProperty(prototypeJson, async (text) => {
        const { statuses } = await throughEveryMount(base, 'local', who, text);
        expect(statuses.filter((status) => status >= 500)).toEqual([]);
      }),
      { numRuns: 25 },
    );
    // The whole sign-in: login and consent pages, code exchange, refresh, revocation, and the
    // revoked sign-in's ID token refused on the database.
    const idp = { issuer: `${base}/oidc`, clientId: DESKTOP_CLIENT_ID } as DevIdentityProvider;
    const { code, verifier } = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const exchanged = await exchangeCode(idp, code, verifier);
    expect(exchanged.status).toBe(200);
    const refreshed = await refresh(idp, exchanged.body.refresh_token!);
    expect(refreshed.status).toBe(200);
    expect((await fetch(`${base}/api/v1/user/breaches`, { headers: { authorization: `Bearer ${refreshed.body.access_token}` } })).status).not.toBeGreaterThanOrEqual(500);
    const revoked = await fetch(`${idp.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: idp.clientId, token: refreshed.body.refresh_token ?? exchanged.body.refresh_token!, token_type_hint: 'refresh_token' }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect((await fetch(`${base}/rtdb/users/alice.json?auth=${exchanged.body.id_token}`)).status).toBe(401);

    const breaches = (await (await fetch(`${base}/rtdb/catalog/breaches.json?shallow=true`)).json()) as Record<string, true>;
    await stillSound(base, who, Object.keys(breaches)[0]!);
    expect(child.exitCode).toBeNull();
  });
});
