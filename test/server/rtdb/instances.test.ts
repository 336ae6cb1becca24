// Two instances of the service sharing one PostgreSQL database, as behind a load balancer: what
// the realtime database does through one is what the other answers. And PostgreSQL going away:
// /rtdb answers 503 problem+json, streams stay open, and both recover when it is back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_SCOPES, fetchServiceAccountToken, ServiceAccountKey } from '../../../electron/core/feed/serviceAccountToken.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { eventually } from '../../support/waitFor.ts';
import { openEventStream } from '../../support/eventStream.ts';

const postgres = usePrivatePostgres();
let a: RunningService | undefined;
let b: RunningService | undefined;
let dataDir: string | undefined;

beforeAll(async () => {
  const server = postgres.server();
  if (!server) return;
  dataDir = mkdtempSync(path.join(tmpdir(), 'rtdb-instances-'));
  const databaseUrl = await server.createDatabase();
  a = await startService({ port: 0, dataDir: path.join(dataDir, 'a'), dev: true, logLevel: 'silent', databaseUrl });
  // Behind one address in production; here the first instance's origin is the shared issuer.
  b = await startService({ port: 0, dataDir: path.join(dataDir, 'b'), dev: true, logLevel: 'silent', databaseUrl, identityOrigin: a.url });
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
beforeEach((ctx) => {
  if (!a || !b) ctx.skip('PostgreSQL could not start (see the message above)');
});

async function dev<T>(service: RunningService, route: string, body?: unknown, method = 'POST'): Promise<T> {
  const response = await fetch(`${service.url}/__dev${route}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? undefined : response.json()) as Promise<T>;
}
const idToken = async (sub: string) => (await dev<{ id_token: string }>(a!, '/id-token', { sub, email: `${sub}@example.com` })).id_token;
const put = (service: RunningService, location: string, body: unknown, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/rtdb/${location}.json?${new URLSearchParams(query)}`, { method: 'PUT', headers, body: JSON.stringify(body) });
const get = (service: RunningService, location: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/rtdb/${location}.json?${new URLSearchParams(query)}`, { headers });

describe('two instances on one PostgreSQL database', () => {
  it('lets exactly one of two conditional writes on one ETag win, one through each instance', async () => {
    const auth = await idToken('race');
    const location = 'users/race/preferences';
    expect((await put(a!, location, { round: 0 }, { auth })).status).toBe(200);
    for (let round = 1; round <= 10; round++) {
      const etag = (await get(b!, location, { auth }, { 'x-firebase-etag': 'true' })).headers.get('etag')!;
      const [viaA, viaB] = await Promise.all([put(a!, location, { round, by: 'a' }, { auth }, { 'if-match': etag }), put(b!, location, { round, by: 'b' }, { auth }, { 'if-match': etag })]);
      const statuses = [viaA.status, viaB.status].sort();
      expect(statuses, `round ${round}`).toEqual([200, 412]);
      const winner = viaA.status === 200 ? 'a' : 'b';
      // The loser's 412 carries the winner's value; both instances now answer it.
      expect(await (viaA.status === 412 ? viaA : viaB).json()).toEqual({ round, by: winner });
      expect(await (await get(a!, location, { auth })).json()).toEqual({ round, by: winner });
      expect(await (await get(b!, location, { auth })).json()).toEqual({ round, by: winner });
    }
  });

  it("streams to a listener on one instance the other instance's writes, and keeps ETags right on both", async () => {
    const auth = await idToken('streamer');
    const location = 'users/streamer/preferences';
    const before = await get(b!, location, { auth }, { 'x-firebase-etag': 'true' });
    const etag = before.headers.get('etag')!;
    const stream = await openEventStream(`${b!.url}/rtdb/${location}.json?auth=${auth}`);
    try {
      expect(await stream.next('the first put on B')).toEqual({ event: 'put', data: { path: '/', data: null } });
      expect((await put(a!, location, { theme: 'dark' }, { auth })).status).toBe(200);
      expect(await stream.next("the put on B of A's write")).toEqual({ event: 'put', data: { path: '/', data: { theme: 'dark' } } });
      // B's cached snapshot did not survive A's write.
      const after = await get(b!, location, { auth }, { 'x-firebase-etag': 'true', 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(await after.json()).toEqual({ theme: 'dark' });
    } finally {
      stream.close();
    }
  });

  it('accepts on one instance a secret, a service account and replaced rules made through the other', async () => {
    const { id, secret } = await dev<{ id: string; secret: string }>(a!, '/rtdb-secrets');
    expect((await get(b!, 'users', { auth: secret })).status).toBe(200);
    await dev(b!, `/rtdb-secrets/${id}`, undefined, 'DELETE');
    expect((await get(a!, 'users', { auth: secret })).status).toBe(401);

    const key = ServiceAccountKey.parse(await dev(a!, '/service-accounts', { scopes: [...DATABASE_SCOPES] }));
    const { accessToken } = await fetchServiceAccountToken(key);
    const headers = { authorization: `Bearer ${accessToken}` };
    expect((await get(b!, 'users', {}, headers)).status).toBe(200);

    const original = await (await get(a!, '.settings/rules', {}, headers)).json();
    const rules = {
      rules: { catalog: { '.read': true }, users: { $uid: { '.read': 'auth.uid === $uid', '.write': 'auth.uid === $uid', preferences: { '.validate': 'newData.hasChildren(["theme"])' } } } },
    };
    try {
      expect((await put(a!, '.settings/rules', rules, {}, headers)).status).toBe(200);
      const auth = await idToken('ruled');
      await eventually('instance B applies the rules replaced through A', async () => (await put(b!, 'users/ruled/preferences', { colour: 'red' }, { auth })).status === 401);
      expect((await put(b!, 'users/ruled/preferences', { theme: 'dark' }, { auth })).status).toBe(200);
    } finally {
      expect((await put(a!, '.settings/rules', original, {}, headers)).status).toBe(200);
    }
  });

  it('answers 503 problem+json while PostgreSQL is away and recovers when it is back, streams included', async () => {
    const server = postgres.server()!;
    const auth = await idToken('outage');
    const location = 'users/outage/preferences';
    expect((await put(a!, location, { theme: 'before' }, { auth })).status).toBe(200);
    const stream = await openEventStream(`${b!.url}/rtdb/${location}.json?auth=${auth}`);
    try {
      expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: { theme: 'before' } } });
      await server.kill();
      for (const service of [a!, b!]) {
        const read = await get(service, location, { auth }, { 'x-firebase-etag': 'true' });
        expect(read.status).toBe(503);
        expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(read.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await read.json()) as { detail: string }).detail).toMatch(/database is unavailable/);
        expect((await put(service, location, { theme: 'lost' }, { auth })).status).toBe(503);
      }
      expect((await fetch(`${a!.url}/__dev/rtdb-secrets`, { method: 'POST' })).status).toBe(503);
      await server.restart();
      await eventually('instance A answers /rtdb again', async () => (await get(a!, location, { auth })).status === 200, 30_000);
      expect((await put(a!, location, { theme: 'after' }, { auth })).status).toBe(200);
      expect(await (await get(b!, location, { auth })).json()).toEqual({ theme: 'after' });
      // B's listener reconnected (announcing "anything may have changed") or heard A's notice.
      expect(await stream.next('the put on B after the restart', 20_000)).toEqual({ event: 'put', data: { path: '/', data: { theme: 'after' } } });
    } finally {
      stream.close();
    }
  }, 90_000);
});
