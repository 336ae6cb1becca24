// Finding 2's class, made impossible: random JSON with prototype-named keys at random depths,
// written and read through every mount that takes a JSON body, never changes what every object
// inherits and never crashes the service — in this process (where `({}).anything` can be
// looked at) and in the real service process (`npm run server`), which freezes
// Object.prototype at start so a missed spot fails loudly instead of poisoning it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MONITOR_SCOPE } from '../../../shared/api/index.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { readJsonBody } from '../../../server/http/body.ts';
import { HttpProblem, sendProblem } from '../../../server/http/problems.ts';
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

/** The names every object inherits: what no body may hand a handler as an inherited member. */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

/** A JSON value as written: key order and repeated keys kept (a JS object would lose both). */
type Written = { scalar: string } | { array: Written[] } | { entries: [string, Written][] };

function render(node: Written): string {
  if ('scalar' in node) return node.scalar;
  if ('array' in node) return `[${node.array.map(render).join(',')}]`;
  return `{${node.entries.map(([key, child]) => `${JSON.stringify(key)}:${render(child)}`).join(',')}}`;
}

/** The JSON Pointer of the first inherited name in the text's order (where a parser meets it first), and the name. */
function firstInherited(node: Written, at = ''): { pointer: string; key: string } | undefined {
  if ('scalar' in node) return undefined;
  if ('array' in node) {
    for (const [index, child] of node.array.entries()) {
      const found = firstInherited(child, `${at}/${index}`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of node.entries) {
    const pointer = `${at}/${key}`;
    if (INHERITED.includes(key)) return { pointer, key };
    const found = firstInherited(child, pointer);
    if (found) return found;
  }
  return undefined;
}

const writtenJson = (keys: readonly string[], leaves: fc.Arbitrary<unknown>, arrays: boolean) =>
  fc.letrec<{ node: Written; object: Written; array: Written }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaves.map((value) => ({ scalar: JSON.stringify(value) })),
      tie('object'),
      ...(arrays ? [tie('array')] : []),
    ),
    object: fc.array(fc.tuple(fc.constantFrom(...keys), tie('node')), { minLength: 1, maxLength: 4 }).map((entries) => ({ entries })),
    array: fc.array(tie('node'), { maxLength: 3 }).map((array) => ({ array })),
  })).object;

/** An object with at least one key every object inherits, at any depth, among ordinary keys. */
const bodyWithInheritedKey = writtenJson([...INHERITED, 'prototype', 'polluted', 'a', '0'], fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null)), true)
  .filter((node) => firstInherited(node) !== undefined)
  .map((node) => ({ text: render(node), ...firstInherited(node)! }));

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

  /**
   * What each mount's contract says of a key every object inherits. Every mount of the route
   * table is named here, so a mount added tomorrow fails this test until its contract is.
   */
  const CONTRACTS: Record<string, 'refuses such keys (400 naming the key and where)' | 'keeps them as data' | 'takes no JSON body'> = {
    'firefox-v1': 'refuses such keys (400 naming the key and where)',
    'api-v1': 'refuses such keys (400 naming the key and where)',
    search: 'refuses such keys (400 naming the key and where)',
    rtdb: 'keeps them as data',
    identity: 'takes no JSON body',
    graph: 'refuses such keys (400 naming the key and where)',
    dev: 'refuses such keys (400 naming the key and where)',
    root: 'takes no JSON body',
    logos: 'takes no JSON body',
    openapi: 'takes no JSON body',
  };

  it('every mount of the route table has a stated contract for such keys', () => {
    expect(service.mounts.map((entry) => entry.name).sort()).toEqual(Object.keys(CONTRACTS).sort());
  });

  /** Where a mount's JSON routes put a body, and how each answers a refusal. */
  type Refusal = { status: number; body: Record<string, unknown> };
  const problemNames = (pointer: string, key: string) => (answer: Refusal) => {
    expect(answer.body.errors).toEqual([{ pointer, message: `"${key}" is a name every object inherits and cannot be a key here` }]);
    expect(answer.body.detail).toContain(pointer);
  };
  const firefoxNames = (pointer: string, key: string) => (answer: Refusal) => {
    expect(answer.body.code).toBe('invalid-request');
    expect(answer.body.message).toContain(`"${key}"`);
    expect(answer.body.message).toContain(pointer);
  };
  const searchNames = (pointer: string, key: string) => (answer: Refusal) => {
    expect(answer.body.success).toBe(false);
    expect(answer.body.errors).toEqual([{ code: 7400, message: `${pointer}: "${key}" is a name every object inherits and cannot be a key here` }]);
  };
  const refusingRoutes = (text: string) => {
    const json = { 'content-type': 'application/json' };
    const bearer = (token: string) => ({ ...json, authorization: `Bearer ${token}` });
    const account = service.accountId;
    return [
      { mount: 'api-v1', url: '/api/v1/user/breaches/resolutions', init: { method: 'POST', headers: bearer(who.bob), body: text }, at: '', names: problemNames },
      { mount: 'api-v1', url: '/api/v1/user/breaches/resolutions', init: { method: 'POST', headers: bearer(who.bob), body: `[${text}]` }, at: '/0', names: problemNames },
      { mount: 'firefox-v1', url: '/api/firefox/v1/user/breaches/resolutions', init: { method: 'POST', headers: bearer(who.monitor), body: `[${text}]` }, at: '/0', names: firefoxNames },
      {
        mount: 'search',
        url: `/client/v4/accounts/${account}/ai-search/instances/breaches/search`,
        init: { method: 'POST', headers: bearer(who.search), body: `{"query":"password","ai_search_options":{"retrieval":{"filters":${text}}}}` },
        at: '/ai_search_options/retrieval/filters',
        names: searchNames,
      },
      {
        mount: 'search',
        url: `/client/v4/accounts/${account}/ai-search/instances/breaches/chat/completions`,
        init: { method: 'POST', headers: bearer(who.search), body: text },
        at: '',
        names: searchNames,
      },
      {
        mount: 'search',
        url: `/client/v4/accounts/${account}/legacy-rag/rags/breaches/search`,
        init: { method: 'POST', headers: bearer(who.search), body: `{"query":"password","filters":${text}}` },
        at: '/filters',
        names: searchNames,
      },
      { mount: 'graph', url: '/v2/node', init: { method: 'POST', headers: { ...json, 'x-api-key': 'dev-key' }, body: text }, at: '', names: problemNames },
      { mount: 'dev', url: '/__dev/token', init: { method: 'POST', headers: json, body: `{"sub":"mallory","claims":${text}}` }, at: '/claims', names: problemNames },
      { mount: 'dev', url: '/__dev/accounts/mallory', init: { method: 'PUT', headers: json, body: text }, at: '', names: problemNames },
    ];
  };

  it('mounts that refuse such keys answer 400 naming the first one and where it is, in their own format', { timeout: 120_000 }, async () => {
    const covered = new Set(refusingRoutes('{}').map((route) => route.mount));
    expect([...covered].sort()).toEqual(
      Object.keys(CONTRACTS)
        .filter((name) => CONTRACTS[name]!.startsWith('refuses'))
        .sort(),
    );
    await fc.assert(
      fc.asyncProperty(bodyWithInheritedKey, async ({ text, pointer, key }) => {
        for (const route of refusingRoutes(text)) {
          const response = await fetch(service.url + route.url, route.init);
          const answer = { status: response.status, body: (await response.json()) as Record<string, unknown> };
          expect(answer.status, `${route.url} ${route.init.body}: ${JSON.stringify(answer.body)}`).toBe(400);
          route.names(route.at + pointer, key)(answer);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('the realtime database keeps such keys as data: written, read back and addressed as they were sent', { timeout: 120_000 }, async () => {
    const leaves = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean());
    const rtdbBody = writtenJson([...INHERITED, 'prototype', 'polluted', 'a'], leaves, false)
      .filter((node) => firstInherited(node) !== undefined)
      .map((node) => ({ text: render(node), ...firstInherited(node)! }));
    const at = (path: string) => `${service.url}/rtdb/users/alice/p${path}.json?auth=${who.alice}`;
    await fc.assert(
      fc.asyncProperty(rtdbBody, async ({ text, pointer }) => {
        const sent = JSON.parse(text) as unknown;
        const written = await fetch(at(''), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: text });
        expect(written.status, await written.clone().text()).toBe(200);
        expect(await written.json()).toEqual(sent);
        expect(await (await fetch(at(''))).json()).toEqual(sent);
        // The first such key, addressed by path: the sender's value (the last of repeated keys), nothing inherited.
        let expected: unknown = sent;
        for (const segment of pointer.slice(1).split('/')) expected = Object.hasOwn(expected as object, segment) ? (expected as Record<string, unknown>)[segment] : null;
        expect(await (await fetch(at(pointer))).json()).toEqual(expected);
      }),
      { numRuns: 40 },
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(INHERITED_BEFORE);
  });

  it('the identity provider takes forms only: a JSON body, however it is keyed, is a 400 invalid_request', async () => {
    await fc.assert(
      fc.asyncProperty(bodyWithInheritedKey, async ({ text }) => {
        for (const endpoint of ['/oidc/token', '/oidc/token/revocation']) {
          const response = await fetch(service.url + endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
          expect(response.status).toBe(400);
          expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
        }
      }),
      { numRuns: 20 },
    );
  });
});

describe('the shared body reader (server/http/body.ts) over loopback', () => {
  let server: Server;
  let base: string;
  /** What the reader handed the handler: its shape, and every object's prototype. */
  let seen: { tree: unknown; prototypes: Set<unknown> } | undefined;
  beforeAll(async () => {
    server = createServer((req, res) => {
      readJsonBody(req, 1024 * 1024).then(
        (value) => {
          const prototypes = new Set<unknown>();
          const visit = (node: unknown): unknown => {
            if (node === null || typeof node !== 'object') return node;
            if (Array.isArray(node)) return node.map(visit);
            prototypes.add(Object.getPrototypeOf(node));
            return Object.keys(node).map((key) => [key, visit((node as Record<string, unknown>)[key])]);
          };
          seen = { tree: visit(value), prototypes };
          res.writeHead(204).end();
        },
        (error: unknown) => sendProblem(res, error instanceof HttpProblem ? error : new HttpProblem(500, String(error))),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (text: string) => fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });

  it('hands handlers trees whose objects have no prototype, so nothing a body lacks is found on it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json({ depthSize: 'small' }), async (text) => {
        fc.pre(!INHERITED.some((name) => text.includes(JSON.stringify(name))));
        seen = undefined;
        const answer = await post(text);
        expect(answer.status, await answer.text()).toBe(204);
        expect([...seen!.prototypes]).toEqual(seen!.prototypes.size === 0 ? [] : [null]);
        const entries = (value: unknown): unknown =>
          value === null || typeof value !== 'object' ? value : Array.isArray(value) ? value.map(entries) : Object.keys(value).map((key) => [key, entries((value as Record<string, unknown>)[key])]);
        expect(seen!.tree).toEqual(entries(JSON.parse(text)));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a key every object inherits, at any depth, with a 400 naming the key and where it is', async () => {
    await fc.assert(
      fc.asyncProperty(bodyWithInheritedKey, async ({ text, pointer, key }) => {
        seen = undefined;
        const answer = await post(text);
        const problem = (await answer.json()) as { detail: string; errors: { pointer: string; message: string }[] };
        expect(answer.status, JSON.stringify(problem)).toBe(400);
        expect(seen).toBeUndefined();
        expect(problem.errors).toEqual([{ pointer, message: `"${key}" is a name every object inherits and cannot be a key here` }]);
        expect(problem.detail).toContain(`"${key}"`);
        expect(problem.detail).toContain(pointer);
      }),
      { numRuns: 200 },
    );
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
