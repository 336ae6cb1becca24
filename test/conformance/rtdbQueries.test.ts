// The realtime database as Firebase documents its REST interface
// (https://firebase.google.com/docs/database/rest/retrieve-data and /rest/save-data): queries
// of the catalog (paging by key, the biggest breach), their refusals, print=silent,
// X-HTTP-Method-Override, server values, format/timeout/writeSizeLimit. With several instances
// the requests alternate between them, so paging and increments also cross instances.
import { describe, expect, it } from 'vitest';
import { unique, useClient } from './client.ts';

const client = useClient();
const q = (value: unknown) => JSON.stringify(value);

function rtdb(location: string, query: Record<string, string> = {}, origin = client.target.origins[0]!): string {
  const search = new URLSearchParams(query).toString();
  return `${origin}/rtdb/${location}.json${search ? `?${search}` : ''}`;
}
async function idToken(sub: string): Promise<string> {
  return ((await client.dev('POST', '/__dev/id-token', { sub, email: `${sub}@example.com` })) as { id_token: string }).id_token;
}
const errorOf = (json: unknown) => (json as { error?: string }).error;

describe("the realtime database's REST queries", () => {
  it('pages the whole catalog by key (orderBy "$key", limitToFirst, startAt), through every instance in turn', async () => {
    const whole = await client.request('GET', rtdb('catalog/breaches'));
    expect(whole.status).toBe(200);
    const expected = Object.keys(whole.json as Record<string, unknown>).sort();
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10_000; page++) {
      const answer = await client.request('GET', rtdb('catalog/breaches', { orderBy: q('$key'), limitToFirst: '51', ...(after === undefined ? {} : { startAt: q(after) }) }));
      expect(answer.status, answer.text).toBe(200);
      const keys = Object.keys(answer.json as Record<string, unknown>).sort();
      seen.push(...keys.filter((key) => key !== after));
      if (keys.length < 51) break;
      after = keys.at(-1);
    }
    expect(seen.sort()).toEqual(expected);
  });

  it('answers "the biggest breach" with orderBy "pwnCount" and limitToLast=1 (indexed in the default rules)', async () => {
    const whole = (await client.request('GET', rtdb('catalog/breaches'))).json as Record<string, { pwnCount: number }>;
    const biggest = Math.max(...Object.values(whole).map((entry) => entry.pwnCount));
    const answer = await client.request('GET', rtdb('catalog/breaches', { orderBy: q('pwnCount'), limitToLast: '1' }));
    expect(answer.status, answer.text).toBe(200);
    const entries = Object.entries(answer.json as Record<string, { pwnCount: number }>);
    expect(entries).toHaveLength(1);
    expect(entries[0]![1].pwnCount).toBe(biggest);
  });

  it("refuses what Firebase refuses, with Firebase's messages", async () => {
    const unindexed = await client.request('GET', rtdb('catalog/breaches', { orderBy: q('title') }));
    expect(unindexed.status).toBe(400);
    expect(errorOf(unindexed.json)).toBe('Index not defined, add ".indexOn": "title", for path "/catalog/breaches", to the rules');
    const noOrder = await client.request('GET', rtdb('catalog/breaches', { limitToFirst: '1' }));
    expect([noOrder.status, errorOf(noOrder.json)]).toEqual([400, 'orderBy must be defined when other query parameters are defined']);
    const unquoted = await client.request('GET', rtdb('catalog/breaches', { orderBy: '$key' }));
    expect([unquoted.status, errorOf(unquoted.json)]).toEqual([400, 'orderBy must be a valid JSON encoded path']);
    const shallow = await client.request('GET', rtdb('catalog/breaches', { orderBy: q('$key'), shallow: 'true' }));
    expect(shallow.status).toBe(400);
  });

  it("applies the rules to a query's location: a query shows nothing a plain read would not", async () => {
    const sub = unique('rtdbq');
    const auth = await idToken(sub);
    expect((await client.request('PUT', rtdb(`users/${sub}/notes`, { auth }), { body: { a: 1, b: 2 } })).status).toBe(200);
    const others = await client.request('GET', rtdb('users', { orderBy: q('$key'), equalTo: q(sub), auth }));
    expect([others.status, others.json]).toEqual([401, { error: 'Permission denied' }]);
    const anonymous = await client.request('GET', rtdb(`users/${sub}/notes`, { orderBy: q('$key'), limitToFirst: '1' }));
    expect(anonymous.status).toBe(401);
    const own = await client.request('GET', rtdb(`users/${sub}/notes`, { orderBy: q('$key'), limitToFirst: '1', auth }));
    expect([own.status, own.json]).toEqual([200, { a: 1 }]);
  });
});

describe("the realtime database's REST writes and options", () => {
  it('print=silent answers 204 with no body, on a write and on a read', async () => {
    const sub = unique('rtdbq');
    const auth = await idToken(sub);
    const write = await client.request('PUT', rtdb(`users/${sub}/p`, { auth, print: 'silent' }), { body: { theme: 'dark' } });
    expect([write.status, write.text]).toEqual([204, '']);
    const read = await client.request('GET', rtdb(`users/${sub}/p`, { auth, print: 'silent' }));
    expect([read.status, read.text]).toEqual([204, '']);
    expect((await client.request('GET', rtdb(`users/${sub}/p`, { auth }))).json).toEqual({ theme: 'dark' });
  });

  it('takes a POST with X-HTTP-Method-Override: PATCH as a PATCH (no push id)', async () => {
    const sub = unique('rtdbq');
    const auth = await idToken(sub);
    await client.request('PUT', rtdb(`users/${sub}/p`, { auth }), { body: { a: 1 } });
    const patched = await client.request('POST', rtdb(`users/${sub}/p`, { auth }), { body: { b: 2 }, headers: { 'x-http-method-override': 'PATCH' } });
    expect([patched.status, patched.json]).toEqual([200, { b: 2 }]);
    expect((await client.request('GET', rtdb(`users/${sub}/p`, { auth }))).json).toEqual({ a: 1, b: 2 });
  });

  it('resolves server values: a timestamp, and increments sent at once (through every instance) that all count', async () => {
    const sub = unique('rtdbq');
    const auth = await idToken(sub);
    const before = Date.now();
    const stamped = await client.request('PUT', rtdb(`users/${sub}/seen`, { auth }), { body: { '.sv': 'timestamp' } });
    expect(stamped.status, stamped.text).toBe(200);
    expect(stamped.json as number).toBeGreaterThanOrEqual(before - 5_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.request('PUT', rtdb(`users/${sub}/count`, { auth }), { body: { '.sv': { increment: 1 } } })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect((await client.request('GET', rtdb(`users/${sub}/count`, { auth }))).json).toBe(20);
  });

  it('accepts format=export, timeout and writeSizeLimit in the formats Firebase documents, and refuses others', async () => {
    const sub = unique('rtdbq');
    const auth = await idToken(sub);
    expect((await client.request('PUT', rtdb(`users/${sub}/p`, { auth, writeSizeLimit: 'small' }), { body: 1 })).status).toBe(200);
    expect((await client.request('GET', rtdb(`users/${sub}/p`, { auth, format: 'export', timeout: '2s' }))).json).toBe(1);
    expect((await client.request('PUT', rtdb(`users/${sub}/p`, { auth, writeSizeLimit: 'enormous' }), { body: 1 })).status).toBe(400);
    expect((await client.request('GET', rtdb(`users/${sub}/p`, { auth, timeout: 'soon' }))).status).toBe(400);
  });
});
