// Two instances of the service sharing one PostgreSQL database, as behind a load balancer: what
// the realtime database does through one is what the other answers. And PostgreSQL going away:
// /rtdb answers 503 problem+json, streams stay open, and both recover when it is back.
import { describe, expect, it } from 'vitest';
import { DATABASE_SCOPES, fetchServiceAccountToken, ServiceAccountKey } from '../../../electron/core/feed/serviceAccountToken.ts';
import type { RunningService } from '../../../server/app.ts';
import { useTwoInstances } from '../../support/twoInstances.ts';
import { eventually } from '../../support/waitFor.ts';
import { openEventStream } from '../../support/eventStream.ts';

const instances = useTwoInstances('rtdb-instances-');

async function dev<T>(service: RunningService, route: string, body?: unknown, method = 'POST'): Promise<T> {
  const response = await fetch(`${service.url}/__dev${route}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
  return (response.status === 204 ? undefined : response.json()) as Promise<T>;
}
const idToken = async (sub: string) => (await dev<{ id_token: string }>(instances.a, '/id-token', { sub, email: `${sub}@example.com` })).id_token;
const put = (service: RunningService, location: string, body: unknown, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/rtdb/${location}.json?${new URLSearchParams(query)}`, { method: 'PUT', headers, body: JSON.stringify(body) });
const get = (service: RunningService, location: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/rtdb/${location}.json?${new URLSearchParams(query)}`, { headers });

describe('two instances on one PostgreSQL database', () => {
  it('lets exactly one of two conditional writes on one ETag win, one through each instance', async () => {
    const auth = await idToken('race');
    const location = 'users/race/preferences';
    expect((await put(instances.a, location, { round: 0 }, { auth })).status).toBe(200);
    for (let round = 1; round <= 10; round++) {
      const etag = (await get(instances.b, location, { auth }, { 'x-firebase-etag': 'true' })).headers.get('etag')!;
      const [viaA, viaB] = await Promise.all([
        put(instances.a, location, { round, by: 'a' }, { auth }, { 'if-match': etag }),
        put(instances.b, location, { round, by: 'b' }, { auth }, { 'if-match': etag }),
      ]);
      const statuses = [viaA.status, viaB.status].sort();
      expect(statuses, `round ${round}`).toEqual([200, 412]);
      const winner = viaA.status === 200 ? 'a' : 'b';
      // The loser's 412 carries the winner's value; both instances now answer it.
      expect(await (viaA.status === 412 ? viaA : viaB).json()).toEqual({ round, by: winner });
      expect(await (await get(instances.a, location, { auth })).json()).toEqual({ round, by: winner });
      expect(await (await get(instances.b, location, { auth })).json()).toEqual({ round, by: winner });
    }
  });

  it('loses no server-value increment sent through both instances at once', async () => {
    const auth = await idToken('counter');
    const location = 'users/counter/visits';
    const increment = { '.sv': { increment: 1 } };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => put(i % 2 === 0 ? instances.a : instances.b, location, increment, { auth })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => 200));
    // Each transaction answers what it wrote: 1 to 30, each once, whichever instance it went through.
    expect((await Promise.all(answers.map(async (answer) => (await answer.json()) as number))).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await (await get(instances.a, location, { auth })).json()).toBe(30);
    expect(await (await get(instances.b, location, { auth })).json()).toBe(30);
  });

  it("streams to a listener on one instance the other instance's writes, and keeps ETags right on both", async () => {
    const auth = await idToken('streamer');
    const location = 'users/streamer/preferences';
    const before = await get(instances.b, location, { auth }, { 'x-firebase-etag': 'true' });
    const etag = before.headers.get('etag')!;
    const stream = await openEventStream(`${instances.b.url}/rtdb/${location}.json?auth=${auth}`);
    try {
      expect(await stream.next('the first put on B')).toEqual({ event: 'put', data: { path: '/', data: null } });
      expect((await put(instances.a, location, { theme: 'dark' }, { auth })).status).toBe(200);
      expect(await stream.next("the put on B of A's write")).toEqual({ event: 'put', data: { path: '/', data: { theme: 'dark' } } });
      // B's cached snapshot did not survive A's write.
      const after = await get(instances.b, location, { auth }, { 'x-firebase-etag': 'true', 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(await after.json()).toEqual({ theme: 'dark' });
    } finally {
      stream.close();
    }
  });

  it('accepts on one instance a secret, a service account and replaced rules made through the other', async () => {
    const { id, secret } = await dev<{ id: string; secret: string }>(instances.a, '/rtdb-secrets');
    expect((await get(instances.b, 'users', { auth: secret })).status).toBe(200);
    await dev(instances.b, `/rtdb-secrets/${id}`, undefined, 'DELETE');
    expect((await get(instances.a, 'users', { auth: secret })).status).toBe(401);

    const key = ServiceAccountKey.parse(await dev(instances.a, '/service-accounts', { scopes: [...DATABASE_SCOPES] }));
    const { accessToken } = await fetchServiceAccountToken(key);
    const headers = { authorization: `Bearer ${accessToken}` };
    expect((await get(instances.b, 'users', {}, headers)).status).toBe(200);

    const original = await (await get(instances.a, '.settings/rules', {}, headers)).json();
    const rules = {
      rules: { catalog: { '.read': true }, users: { $uid: { '.read': 'auth.uid === $uid', '.write': 'auth.uid === $uid', preferences: { '.validate': 'newData.hasChildren(["theme"])' } } } },
    };
    try {
      expect((await put(instances.a, '.settings/rules', rules, {}, headers)).status).toBe(200);
      const auth = await idToken('ruled');
      await eventually('instance B applies the rules replaced through A', async () => (await put(instances.b, 'users/ruled/preferences', { colour: 'red' }, { auth })).status === 401);
      expect((await put(instances.b, 'users/ruled/preferences', { theme: 'dark' }, { auth })).status).toBe(200);
    } finally {
      expect((await put(instances.a, '.settings/rules', original, {}, headers)).status).toBe(200);
    }
  });

  it('answers 503 problem+json while PostgreSQL is away and recovers when it is back, streams included', async () => {
    const server = instances.server;
    const auth = await idToken('outage');
    const location = 'users/outage/preferences';
    expect((await put(instances.a, location, { theme: 'before' }, { auth })).status).toBe(200);
    const stream = await openEventStream(`${instances.b.url}/rtdb/${location}.json?auth=${auth}`);
    try {
      expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: { theme: 'before' } } });
      await server.kill();
      for (const service of [instances.a, instances.b]) {
        const read = await get(service, location, { auth }, { 'x-firebase-etag': 'true' });
        expect(read.status).toBe(503);
        expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(read.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await read.json()) as { detail: string }).detail).toMatch(/database is unavailable/);
        expect((await put(service, location, { theme: 'lost' }, { auth })).status).toBe(503);
      }
      expect((await fetch(`${instances.a.url}/__dev/rtdb-secrets`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(503);
      await server.restart();
      await eventually('instance A answers /rtdb again', async () => (await get(instances.a, location, { auth })).status === 200, 30_000);
      expect((await put(instances.a, location, { theme: 'after' }, { auth })).status).toBe(200);
      expect(await (await get(instances.b, location, { auth })).json()).toEqual({ theme: 'after' });
      // B's listener reconnected (announcing "anything may have changed") or heard A's notice.
      expect(await stream.next('the put on B after the restart', 20_000)).toEqual({ event: 'put', data: { path: '/', data: { theme: 'after' } } });
    } finally {
      stream.close();
    }
  }, 90_000);
});
