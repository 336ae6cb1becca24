// The realtime database (`/rtdb`): the details feed, people's preferences under the rules,
// conditional writes, streaming reads, legacy secrets and service accounts. With several
// instances (CONFORMANCE_INSTANCES) writes go through the first and reads through the last, so
// each check also says that the instances share one database; with one, both are the same.
import { describe, expect, it } from 'vitest';
import { DATABASE_SCOPES, fetchServiceAccountToken, ServiceAccountKey } from '../../electron/core/feed/serviceAccountToken.ts';
import { openEventStream } from '../support/eventStream.ts';
import { unique, useClient } from './client.ts';

const client = useClient();

function firstAndLast(): [string, string] {
  const { origins } = client.target;
  return [origins[0] as string, origins.at(-1) as string];
}
const rtdb = (origin: string, location: string, query: Record<string, string> = {}) => {
  const search = new URLSearchParams(query).toString();
  return `${origin}/rtdb/${location}.json${search ? `?${search}` : ''}`;
};
async function idToken(sub: string): Promise<string> {
  const answer = (await client.dev('POST', '/__dev/id-token', { sub, email: `${sub}@example.com` })) as { id_token: string };
  return answer.id_token;
}

describe('the realtime database', () => {
  it('serves the details feed to anyone, with the same ETag through every instance', async () => {
    const breach = await client.addBreach();
    const etags = new Set<string | null>();
    for (const origin of client.target.origins) {
      const read = await client.request('GET', rtdb(origin, `catalog/breaches/${breach.id}`), { headers: { 'x-firebase-etag': 'true' }, pinned: true });
      expect(read.status, read.text).toBe(200);
      expect(read.json).toMatchObject({ title: expect.any(String), dataClasses: expect.any(Array) });
      etags.add(read.headers.get('etag'));
    }
    expect(etags.size).toBe(1);
  });

  it("keeps a person's preferences to that person; a write through one instance is read through another", async () => {
    const [first, last] = firstAndLast();
    const sub = unique('rtdb');
    const auth = await idToken(sub);
    const location = `users/${sub}/preferences`;
    const written = await client.request('PUT', rtdb(first, location, { auth }), { body: { theme: 'dark' }, pinned: true });
    expect(written.status, written.text).toBe(200);
    const read = await client.request('GET', rtdb(last, location, { auth }), { pinned: true });
    expect(read.json).toEqual({ theme: 'dark' });
    const other = await client.request('GET', rtdb(last, location, { auth: await idToken(unique('rtdb')) }), { pinned: true });
    expect(other.status).toBe(401);
    expect((await client.request('GET', rtdb(last, location), { pinned: true })).status).toBe(401);
  });

  it('lets exactly one of two conditional writes on one ETag win, and answers the loser 412 with the current value', async () => {
    const [first, last] = firstAndLast();
    const sub = unique('rtdb');
    const auth = await idToken(sub);
    const location = `users/${sub}/preferences`;
    await client.request('PUT', rtdb(first, location, { auth }), { body: { round: 0 }, pinned: true });
    for (let round = 1; round <= 5; round++) {
      const etag = (await client.request('GET', rtdb(last, location, { auth }), { headers: { 'x-firebase-etag': 'true' }, pinned: true })).headers.get('etag') as string;
      const [one, two] = await Promise.all(
        [first, last].map((origin, i) => client.request('PUT', rtdb(origin, location, { auth }), { body: { round, by: i }, headers: { 'if-match': etag }, pinned: true })),
      );
      expect([one!.status, two!.status].sort(), `round ${round}`).toEqual([200, 412]);
      const loser = one!.status === 412 ? one! : two!;
      expect(loser.json).toEqual({ round, by: one!.status === 200 ? 0 : 1 });
      expect(loser.headers.get('etag')).not.toBe(etag);
    }
  });

  it('streams to a listener on one instance what is written through another', async () => {
    const [first, last] = firstAndLast();
    const sub = unique('rtdb');
    const auth = await idToken(sub);
    const location = `users/${sub}/preferences`;
    const stream = await openEventStream(rtdb(last, location, { auth }));
    try {
      expect(stream.response.status).toBe(200);
      expect(await stream.next('the first put')).toEqual({ event: 'put', data: { path: '/', data: null } });
      await client.request('PUT', rtdb(first, location, { auth }), { body: { theme: 'light' }, pinned: true });
      expect(await stream.next('the put of the write')).toEqual({ event: 'put', data: { path: '/', data: { theme: 'light' } } });
    } finally {
      stream.close();
    }
  });

  it('accepts a secret and a service account made through one instance on another, until the secret is revoked', async () => {
    const [first, last] = firstAndLast();
    const created = await client.request('POST', `${first}/__dev/rtdb-secrets`, { pinned: true, headers: { 'content-type': 'application/json' } });
    expect(created.status, created.text).toBe(201);
    const { id, secret } = created.json as { id: string; secret: string };
    expect((await client.request('GET', rtdb(last, 'users', { auth: secret }), { pinned: true })).status).toBe(200);
    expect((await client.request('DELETE', `${last}/__dev/rtdb-secrets/${id}`, { pinned: true })).status).toBe(204);
    expect((await client.request('GET', rtdb(first, 'users', { auth: secret }), { pinned: true })).status).toBe(401);

    const account = await client.request('POST', `${first}/__dev/service-accounts`, { body: { scopes: [...DATABASE_SCOPES] }, pinned: true });
    expect(account.status, account.text).toBe(201);
    const { accessToken } = await fetchServiceAccountToken(ServiceAccountKey.parse(account.json));
    expect((await client.request('GET', rtdb(last, 'users'), { token: accessToken, pinned: true })).status).toBe(200);
  });
});
