// POST /user/breaches/resolutions: semantics, validation (400/413/415), visibility (404), atomicity.
import { beforeAll, describe, expect, it } from 'vitest';
import { Problem, type Breach } from '../../shared/api/index.ts';
import { expectBadRequest, expectProblem, type HttpResult, MINUTE_PRECISION, minuteWindow, resolvedKeys, stateOf, type TestUser, unique, uniqueEmail, useClient } from './client.ts';
import { rawExchange, write } from './raw.ts';

const client = useClient();

/** Three data classes, one shared only with `b`. */
let ba: Breach;
/** Two data classes. */
let bb: Breach;
/** In the catalog, affecting nobody. */
let bc: Breach;

beforeAll(async () => {
  ba = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords', 'Usernames'], breachDate: '2022-01-01' });
  bb = await client.addBreach({ dataClasses: ['Email addresses', 'Phone numbers'], breachDate: '2021-01-01' });
  bc = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords'], breachDate: '2020-01-01' });
});

/** Monitored e1, e2 (in ba), e1 also in bb; e3 monitored and in nothing. */
async function scenario(): Promise<TestUser & { e1: string; e2: string; e3: string }> {
  const user = await client.newUser({ emails: 3 });
  const [e1, e2, e3] = user.emails as [string, string, string];
  await client.putExposures(e1, [ba.id, bb.id]);
  await client.putExposures(e2, [ba.id]);
  return { ...user, e1, e2, e3 };
}

/** The full observable state: body and tag of the unfiltered list (with sensitive breaches). */
async function snapshot(token: string): Promise<{ text: string; etag: string | null }> {
  const { text, etag } = await client.list(token, 'includeSensitive=true');
  return { text, etag };
}

describe('resolutions: state transitions', () => {
  it('answers 204 without a body and records resolvedAt at minute precision', async () => {
    const user = await scenario();
    const before = Date.now();
    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['Passwords'], resolved: true, emails: [user.e1] }]);
    const after = Date.now();
    const items = await client.listOf(user.token, [ba.id]);
    const state = stateOf(items, ba.id, user.e1);
    expect(Object.keys(state ?? {})).toEqual(['Passwords']);
    const resolvedAt = state!.Passwords!.resolvedAt!;
    expect(resolvedAt).toMatch(MINUTE_PRECISION);
    const [low, high] = minuteWindow(before, after);
    expect(Date.parse(resolvedAt)).toBeGreaterThanOrEqual(low);
    expect(Date.parse(resolvedAt)).toBeLessThanOrEqual(high);
    expect(stateOf(items, ba.id, user.e2)).toEqual({});
  });

  it('repeating resolved:true keeps the stored state identical (resolvedAt preserved), with no error', async () => {
    const user = await scenario();
    const item = { breachId: ba.id, dataClasses: ['Passwords', 'Usernames'], resolved: true };
    await client.resolveOk(user.token, [item]);
    const first = await snapshot(user.token);
    await client.resolveOk(user.token, [item]);
    await client.resolveOk(user.token, [{ ...item, dataClasses: ['PASSWORDS'] }]);
    const second = await snapshot(user.token);
    expect(second.text).toBe(first.text);
    expect(second.etag).toBe(first.etag);

    // Resolving one more class leaves the earlier resolvedAt values untouched.
    const earlier = stateOf(JSON.parse(first.text), ba.id, user.e1)!;
    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['Email addresses', 'Passwords'], resolved: true }]);
    const later = stateOf(await client.listOf(user.token, [ba.id]), ba.id, user.e1)!;
    expect(later.Passwords).toEqual(earlier.Passwords);
    expect(later.Usernames).toEqual(earlier.Usernames);
    expect(Object.keys(later).sort()).toEqual(['Email addresses', 'Passwords', 'Usernames']);
  });

  it('resolved:false removes the key, idempotently', async () => {
    const user = await scenario();
    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['Passwords', 'Usernames'], resolved: true }]);
    const unresolve = [{ breachId: ba.id, dataClasses: ['Passwords'], resolved: false, emails: [user.e1] }];
    await client.resolveOk(user.token, unresolve);
    const once = await snapshot(user.token);
    const items = JSON.parse(once.text) as Parameters<typeof stateOf>[0];
    expect(Object.keys(stateOf(items, ba.id, user.e1)!)).toEqual(['Usernames']);
    expect(Object.keys(stateOf(items, ba.id, user.e2)!).sort()).toEqual(['Passwords', 'Usernames']);
    await client.resolveOk(user.token, unresolve);
    expect((await snapshot(user.token)).text).toBe(once.text);

    // Unresolving a class that was never resolved is fine too.
    await client.resolveOk(user.token, [{ breachId: bb.id, dataClasses: ['Phone numbers'], resolved: false }]);
    expect((await snapshot(user.token)).text).toBe(once.text);

    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['Usernames', 'Passwords'], resolved: false }]);
    const cleared = await client.listOf(user.token, [ba.id]);
    expect(stateOf(cleared, ba.id, user.e1)).toEqual({});
    expect(stateOf(cleared, ba.id, user.e2)).toEqual({});
  });

  it('without emails, applies to every affected monitored email (and only those)', async () => {
    const user = await scenario();
    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['Usernames'], resolved: true }]);
    const items = await client.listOf(user.token, [ba.id, bb.id]);
    expect(resolvedKeys(items)).toEqual([`${ba.id}|${user.e1}|Usernames`, `${ba.id}|${user.e2}|Usernames`].sort());
    expect(items.flatMap((item) => item.breachedAccounts.map((account) => account.email))).not.toContain(user.e3);
  });

  it('with emails, applies to exactly those emails; duplicates (any case) are de-duplicated', async () => {
    const user = await scenario();
    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['Passwords'], resolved: true, emails: [user.e2, user.e2.toUpperCase(), user.e2] }]);
    const items = await client.listOf(user.token, [ba.id]);
    expect(resolvedKeys(items)).toEqual([`${ba.id}|${user.e2}|Passwords`]);
    expect(items[0]!.breachedAccounts.map((account) => account.email)).toEqual([user.e1, user.e2]);
  });

  it('matches data class names case-insensitively and stores the breach’s own spelling', async () => {
    const user = await scenario();
    await client.resolveOk(user.token, [
      { breachId: ba.id, dataClasses: ['pAsSwOrDs', 'PASSWORDS', 'email ADDRESSES'], resolved: true, emails: [user.e1] },
      { breachId: bb.id, dataClasses: ['phone numbers'], resolved: true },
    ]);
    const items = await client.listOf(user.token, [ba.id, bb.id]);
    expect(Object.keys(stateOf(items, ba.id, user.e1)!).sort()).toEqual(['Email addresses', 'Passwords']);
    expect(Object.keys(stateOf(items, bb.id, user.e1)!)).toEqual(['Phone numbers']);

    // Unresolving with yet another spelling removes the stored key.
    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['PassWords'], resolved: false, emails: [user.e1] }]);
    expect(Object.keys(stateOf(await client.listOf(user.token, [ba.id]), ba.id, user.e1)!)).toEqual(['Email addresses']);
  });

  it('applies several items of one request together (mixing resolved true and false)', async () => {
    const user = await scenario();
    await client.resolveOk(user.token, [{ breachId: bb.id, dataClasses: ['Phone numbers', 'Email addresses'], resolved: true }]);
    await client.resolveOk(user.token, [
      { breachId: ba.id, dataClasses: ['Usernames'], resolved: true, emails: [user.e2] },
      { breachId: bb.id, dataClasses: ['Phone numbers'], resolved: false },
    ]);
    const items = await client.listOf(user.token, [ba.id, bb.id]);
    expect(resolvedKeys(items)).toEqual([`${ba.id}|${user.e2}|Usernames`, `${bb.id}|${user.e1}|Email addresses`].sort());
  });

  it('an empty array answers 204 and changes nothing', async () => {
    const user = await scenario();
    await client.resolveOk(user.token, [{ breachId: ba.id, dataClasses: ['Passwords'], resolved: true }]);
    const before = await snapshot(user.token);
    await client.resolveOk(user.token, []);
    expect(await snapshot(user.token)).toEqual(before);
  });
});

describe('resolutions: invalid requests (400 problem+json with pointers; nothing changes)', () => {
  let user: Awaited<ReturnType<typeof scenario>>;
  let before: { text: string; etag: string | null };
  beforeAll(async () => {
    user = await scenario();
    await client.resolveOk(user.token, [{ breachId: bb.id, dataClasses: ['Phone numbers'], resolved: true }]);
    before = await snapshot(user.token);
  });
  const good = () => ({ breachId: ba.id, dataClasses: ['Passwords'], resolved: true });

  const cases: [string, () => unknown, string | RegExp | undefined][] = [
    ['empty dataClasses', () => [{ ...good(), dataClasses: [] }], '/0/dataClasses'],
    ['empty emails', () => [{ ...good(), emails: [] }], '/0/emails'],
    ['an invalid email string', () => [{ ...good(), emails: [user.e1, 'not-an-email'] }], '/0/emails/1'],
    ['an email that is not a string', () => [{ ...good(), emails: [42] }], '/0/emails/0'],
    ['an unknown property', () => [{ ...good(), note: 'hi' }], /^\/0/],
    ['resolved as a string', () => [{ ...good(), resolved: 'true' }], '/0/resolved'],
    ['resolved missing', () => [{ breachId: ba.id, dataClasses: ['Passwords'] }], '/0/resolved'],
    ['breachId as a number', () => [{ ...good(), breachId: 7 }], '/0/breachId'],
    ['breachId missing', () => [{ dataClasses: ['Passwords'], resolved: true }], '/0/breachId'],
    ['breachId empty', () => [{ ...good(), breachId: '' }], '/0/breachId'],
    ['dataClasses as a string', () => [{ ...good(), dataClasses: 'Passwords' }], '/0/dataClasses'],
    ['a data class that is not a string', () => [{ ...good(), dataClasses: ['Passwords', null] }], '/0/dataClasses/1'],
    ['emails as a string', () => [{ ...good(), emails: user.e1 }], '/0/emails'],
    ['an item that is not an object', () => [good(), 'item'], '/1'],
    ['a body that is an object, not an array', () => good(), undefined],
    ['a body that is null', () => null, undefined],
    ['duplicate breachId across items', () => [good(), { ...good(), dataClasses: ['Usernames'] }], '/1/breachId'],
    ['a data class the breach does not have', () => [{ ...good(), dataClasses: ['Passwords', 'Phone numbers'] }], '/0/dataClasses/1'],
    ['more than 1000 items', () => Array.from({ length: 1001 }, (_, i) => ({ ...good(), breachId: `${ba.id}-${i}` })), undefined],
    ['more than 100 data classes', () => [{ ...good(), dataClasses: Array.from({ length: 101 }, (_, i) => `Class ${i}`) }], '/0/dataClasses'],
    ['more than 1000 emails in an item', () => [{ ...good(), emails: Array.from({ length: 1001 }, (_, i) => `x${i}@conformance.example`) }], '/0/emails'],
  ];

  it.each(cases)('%s', async (_name, body, pointer) => {
    expectBadRequest(await client.resolve(user.token, body()), pointer);
    expect(await snapshot(user.token)).toEqual(before);
  });

  it('names the missing data class in the answer', async () => {
    const problem = expectProblem(await client.resolve(user.token, [{ ...good(), dataClasses: ['Favourite colours'] }]), 400);
    expect(JSON.stringify(problem)).toContain('Favourite colours');
  });

  it.each([
    ['malformed JSON', '[{"breachId": '],
    ['trailing garbage', '[] []'],
    ['an empty body', ''],
    ['single quotes', "[{'breachId':'x'}]"],
  ])('%s answers 400', async (_name, rawBody) => {
    expectBadRequest(await client.api('POST', '/user/breaches/resolutions', { token: user.token, rawBody }));
    expect(await snapshot(user.token)).toEqual(before);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['no content type', null],
  ])('a non-JSON media type (%s) answers 415', async (_name, contentType) => {
    const result = await client.api('POST', '/user/breaches/resolutions', { token: user.token, rawBody: JSON.stringify([good()]), contentType });
    expectProblem(result, 415);
    expect(await snapshot(user.token)).toEqual(before);
  });

  it('accepts application/json with a charset parameter', async () => {
    const result = await client.api('POST', '/user/breaches/resolutions', { token: user.token, rawBody: '[]', contentType: 'application/json; charset=utf-8' });
    expect(result.status).toBe(204);
  });

  it('a body over 1 MiB answers 413', async () => {
    const rawBody = '[' + ' '.repeat(1024 * 1024) + ']';
    expectProblem(await client.api('POST', '/user/breaches/resolutions', { token: user.token, rawBody }), 413);
    expect(await snapshot(user.token)).toEqual(before);
  });

  /** A chunked upload of 1.5 MiB, then (same connection) the end of the body and a second request. */
  async function chunkedOverLimit(responses: number) {
    const chunk = ' '.repeat(64 * 1024);
    const path = new URL(client.target.apiBase).pathname;
    const host = new URL(client.target.origin).host;
    return rawExchange(
      client.target.origin,
      async (socket) => {
        await write(
          socket,
          `POST ${path}/user/breaches/resolutions HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${user.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n`,
        );
        for (let sent = 0; sent < 1.5 * 1024 * 1024; sent += chunk.length) await write(socket, `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        await write(socket, '1\r\n]\r\n0\r\n\r\n');
        await write(socket, `GET ${path}/user/breaches HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${user.token}\r\n\r\n`);
      },
      { expect: responses, timeoutMs: 3000 },
    );
  }

  it('a streamed (chunked, no Content-Length) body over 1 MiB answers 413', async () => {
    const { responses } = await chunkedOverLimit(1);
    const first = responses[0];
    expect(first?.status).toBe(413);
    expect(first?.headers['content-type'] ?? '').toMatch(/^application\/problem\+json/i);
    expect(Problem.parse(JSON.parse(first!.body)).status).toBe(413);
    expect(await snapshot(user.token)).toEqual(before);
  });

  // BUG (server/http/body.ts:21-25): the 413 is thrown from inside `for await (… of req)`, which
  // destroys the request stream; the answer still says `Connection: keep-alive`, but the
  // connection never answers another request (pooled clients such as fetch then hang).
  it('after that 413 the connection either serves the next request or is announced closed', async () => {
    const { responses } = await chunkedOverLimit(2);
    expect(responses[0]?.status).toBe(413);
    const announcedClose = /close/i.test(responses[0]?.headers.connection ?? '');
    expect(responses.length === 2 || announcedClose, `responses: ${responses.map((r) => r.status).join(', ')}; connection: ${responses[0]?.headers.connection}`).toBe(true);
  });

  it('a body just under 1 MiB is read (here: valid, empty)', async () => {
    const rawBody = '[' + ' '.repeat(1024 * 1024 - 10) + ']';
    expect((await client.api('POST', '/user/breaches/resolutions', { token: user.token, rawBody })).status).toBe(204);
  });
});

describe('resolutions: not found or not visible (404; nothing changes)', () => {
  let user: Awaited<ReturnType<typeof scenario>>;
  let before: { text: string; etag: string | null };
  beforeAll(async () => {
    user = await scenario();
    await client.resolveOk(user.token, [{ breachId: bb.id, dataClasses: ['Phone numbers'], resolved: true }]);
    before = await snapshot(user.token);
  });

  const cases: [string, () => unknown[]][] = [
    ['an unknown breach', () => [{ breachId: unique('no-such-breach'), dataClasses: ['Passwords'], resolved: true }]],
    ['an email the caller does not monitor', () => [{ breachId: ba.id, dataClasses: ['Passwords'], resolved: true, emails: [uniqueEmail('stranger')] }]],
    ['a monitored email the breach does not affect', () => [{ breachId: ba.id, dataClasses: ['Passwords'], resolved: true, emails: [user.e3] }]],
    ['one affected and one unaffected monitored email', () => [{ breachId: ba.id, dataClasses: ['Passwords'], resolved: true, emails: [user.e1, user.e3] }]],
    ['a breach affecting none of the caller’s emails (emails omitted)', () => [{ breachId: bc.id, dataClasses: ['Passwords'], resolved: true }]],
    ['a breach affecting none of the caller’s emails (emails given)', () => [{ breachId: bc.id, dataClasses: ['Passwords'], resolved: false, emails: [user.e1] }]],
    ['a breach affecting only e1, for e2', () => [{ breachId: bb.id, dataClasses: ['Phone numbers'], resolved: false, emails: [user.e2] }]],
  ];

  it.each(cases)('%s', async (_name, body) => {
    const result: HttpResult = await client.resolve(user.token, body());
    expectProblem(result, 404);
    expect(await snapshot(user.token)).toEqual(before);
  });
});

describe('resolutions: atomicity (all or nothing)', () => {
  const goodItems = (user: Awaited<ReturnType<typeof scenario>>) => [
    { breachId: ba.id, dataClasses: ['Passwords', 'Usernames'], resolved: true },
    { breachId: bb.id, dataClasses: ['Email addresses'], resolved: true, emails: [user.e1] },
  ];

  const bad: [string, number, (user: Awaited<ReturnType<typeof scenario>>) => unknown][] = [
    ['an unknown breach last', 404, () => ({ breachId: unique('no-such-breach'), dataClasses: ['Passwords'], resolved: true })],
    ['an unaffected email last', 404, (user) => ({ breachId: bc.id, dataClasses: ['Passwords'], resolved: true, emails: [user.e1] })],
    ['a missing data class last', 400, () => ({ breachId: bc.id, dataClasses: ['Nope'], resolved: true })],
    ['a bad email last', 400, () => ({ breachId: bc.id, dataClasses: ['Passwords'], resolved: true, emails: ['nope'] })],
    ['a duplicate breach id last', 400, () => ({ breachId: ba.id, dataClasses: ['Email addresses'], resolved: true })],
  ];

  it.each(bad)('good items plus %s → %i, nothing applied', async (_name, status, badItem) => {
    const user = await scenario();
    const before = await snapshot(user.token);
    expectProblem(await client.resolve(user.token, [...goodItems(user), badItem(user)]), status);
    expect(await snapshot(user.token)).toEqual(before);
    // The bad item first changes nothing either.
    expectProblem(await client.resolve(user.token, [badItem(user), ...goodItems(user)]), status);
    expect(await snapshot(user.token)).toEqual(before);
    // Without the bad item the same request applies.
    await client.resolveOk(user.token, goodItems(user));
    expect(resolvedKeys(await client.listOf(user.token, [ba.id, bb.id])).length).toBe(5);
  });

  it('a failing batch does not undo or redo earlier resolutions (resolved:false + bad item)', async () => {
    const user = await scenario();
    await client.resolveOk(user.token, goodItems(user));
    const before = await snapshot(user.token);
    const result = await client.resolve(user.token, [
      { breachId: ba.id, dataClasses: ['Passwords', 'Usernames'], resolved: false },
      { breachId: bb.id, dataClasses: ['Email addresses'], resolved: false, emails: [user.e1] },
      { breachId: bc.id, dataClasses: ['Passwords'], resolved: false },
    ]);
    expectProblem(result, 404);
    expect(await snapshot(user.token)).toEqual(before);
  });
});

describe('resolutions: data class names that are also JavaScript property names', () => {
  async function userOf(classes: string[]) {
    const breach = await client.addBreach({ dataClasses: classes });
    const user = await client.newUser({ emails: 1, exposures: {} });
    await client.putExposures(user.emails[0]!, [breach.id]);
    return { breach, user };
  }

  it('constructor, toString and hasOwnProperty resolve and list like any other name', async () => {
    const classes = ['constructor', 'hasOwnProperty', 'toString', 'Passwords'];
    const { breach, user } = await userOf(classes);
    await client.resolveOk(user.token, [{ breachId: breach.id, dataClasses: ['constructor', 'toString', 'hasOwnProperty'], resolved: true }]);
    const items = await client.listOf(user.token, [breach.id]);
    expect(Object.keys(stateOf(items, breach.id, user.emails[0]!) ?? {}).sort()).toEqual(['constructor', 'hasOwnProperty', 'toString']);
    const { items: unresolved } = await client.list(user.token, 'unresolvedDataClasses=toString&unresolvedDataClasses=constructor');
    expect(unresolved).toEqual([]);
  });

  // BUG (server/api/BreachAlertService.ts:129-130): resolved classes are collected with
  // `classes = {}; classes[row.dataClass] = …`; for a class named `__proto__` that sets the
  // object's prototype instead of a key, so the stored resolution never appears in
  // resolvedDataClasses and the breach stays "unresolved" for unresolvedDataClasses.
  it('a data class named __proto__ resolves and lists like any other name', async () => {
    const { breach, user } = await userOf(['__proto__', 'Passwords']);
    await client.resolveOk(user.token, [{ breachId: breach.id, dataClasses: ['__proto__'], resolved: true }]);
    // Read the raw JSON: the shared zod record schema would drop a `__proto__` key on its own.
    const raw = (await client.api('GET', '/user/breaches', { token: user.token })).json as { breachedAccounts: { resolvedDataClasses: object }[] }[];
    expect(Object.keys(raw[0]?.breachedAccounts[0]?.resolvedDataClasses ?? {})).toEqual(['__proto__']);
    expect((await client.list(user.token, 'unresolvedDataClasses=__proto__')).items).toEqual([]);
  });
});
