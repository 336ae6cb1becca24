// The reference service against Mozilla Monitor's own API document
// (../shared/fixtures/monitor/openapi.yml): every documented status of every operation is
// provoked and its answer validated against the upstream schemas (client.ts checks every answer
// of the whole suite the same way), and every request example of the document is replayed
// (its breach ids and email mapped to real ones) expecting the documented status.
import { beforeAll, describe, expect, it } from 'vitest';
import { UserBreachList, type Breach } from '../../shared/api/index.ts';
import { ServerUserBreachList } from '../../electron/core/api/BreachAlertClient.ts';
import { expectProblem, stateOf, type TestUser, unique, uniqueEmail, useClient } from './client.ts';
import { loadUpstream, UPSTREAM_FILE, UPSTREAM_MISSING_MESSAGE, upstreamViolation, type Upstream } from './upstream.ts';

const upstream = loadUpstream();
if (!upstream) console.warn(UPSTREAM_MISSING_MESSAGE);

const client = useClient();
const LIST = '/user/breaches';
const RESOLVE = '/user/breaches/resolutions';

describe.skipIf(!upstream)(`the upstream document (${UPSTREAM_FILE})`, () => {
  const doc = upstream as Upstream;

  describe('the check itself', () => {
    const good = {
      breach: { id: 'B', domain: 'b.example', breachDate: '2023-04-10', addedDate: '2023-05-01T12:34:00Z', modifiedDate: '2023-05-01T12:34:00Z', dataClasses: ['passwords'], isSensitive: false },
      breachedAccounts: [{ email: 'alice@example.com', resolvedDataClasses: { Passwords: { resolvedAt: '2023-05-02T10:00:00Z' } } }],
    };
    const check = (json: unknown, status = 200, contentType = 'application/json') => upstreamViolation(doc, { method: 'GET', route: LIST, status, contentType, json });

    it("accepts the document's own response examples", () => {
      const examples = doc.responseExamples('GET', LIST, 200);
      expect(examples.map((e) => e.name)).toEqual(['hasBreaches', 'noResults']);
      for (const example of examples) expect(check(example.value), example.name).toBeUndefined();
      expect(check([good])).toBeUndefined();
    });

    it.each([
      ['a missing required field', { ...good, breach: { ...good.breach, isSensitive: undefined } }, /must have required property 'isSensitive'/],
      ['a date that is no date (format date)', { ...good, breach: { ...good.breach, breachDate: '2023-02-30' } }, /breachDate must match format "date"/],
      ['a date-time without time (format date-time)', { ...good, breach: { ...good.breach, addedDate: '2023-05-01' } }, /addedDate must match format "date-time"/],
      ['an email that is none (format email)', { ...good, breachedAccounts: [{ email: 'alice', resolvedDataClasses: {} }] }, /email must match format "email"/],
      ['a resolution that is not an object', { ...good, breachedAccounts: [{ email: 'alice@example.com', resolvedDataClasses: { Passwords: true } }] }, /Passwords must be object/],
      [
        'a bad resolvedAt',
        { ...good, breachedAccounts: [{ email: 'alice@example.com', resolvedDataClasses: { Passwords: { resolvedAt: 'yesterday' } } }] },
        /resolvedAt must match format "date-time"/,
      ],
    ])('rejects %s', (_name, item, message) => {
      expect(check([item])).toMatch(message);
    });

    it('rejects statuses the document does not list, and bodies that are not JSON where it documents JSON', () => {
      expect(check([], 500)).toMatch(/answered 500, which the upstream document does not list/);
      expect(upstreamViolation(doc, { method: 'POST', route: '/user', status: 200, contentType: 'application/json', json: {} })).toMatch(/does not list \(201, 202, 401, 403\)/);
      expect(check([], 200, 'text/html')).toMatch(/Content-Type "text\/html"/);
      // The contract's documented additions (upstream.ts) pass.
      expect(check(undefined, 304, '')).toBeUndefined();
    });
  });

  describe('every documented status of every operation, answered within the upstream schema', () => {
    let breach: Breach;
    let user: TestUser;
    const seen = new Set<string>();
    const note = (method: string, route: string, status: number) => seen.add(`${method} ${route} ${status}`);

    beforeAll(async () => {
      breach = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords', 'Usernames'], breachDate: '2023-04-10', isSensitive: false });
      user = await client.newUser({ emails: 2, skipCreate: true });
      for (const email of user.emails) await client.putExposures(email, [breach.id]);
    });

    it('POST /user: 201, 202, 401, 403', async () => {
      for (const [token, status] of [
        [user.token, 201],
        [user.token, 202],
        ['not-a-jwt', 401],
      ] as const) {
        const result = await client.api('POST', '/user', { token });
        expect(result.status, result.text).toBe(status);
        note('POST', '/user', status);
      }
      const gone = unique('sub');
      await client.putAccount(gone, [uniqueEmail()], true);
      expectProblem(await client.api('POST', '/user', { token: await client.token(gone) }), 403);
      note('POST', '/user', 403);
    });

    it('GET /user/breaches: 200 (with resolutions), 401, 403', async () => {
      await client.resolveOk(user.token, [{ breachId: breach.id, dataClasses: ['passwords'], resolved: true, emails: [user.emails[0]!] }]);
      const { items } = await client.list(user.token, 'includeSensitive=true');
      expect(items.find((i) => i.breach.id === breach.id)?.breachedAccounts).toHaveLength(2);
      note('GET', LIST, 200);
      expectProblem(await client.api('GET', LIST), 401);
      note('GET', LIST, 401);
      const stranger = await client.newUser({ skipCreate: true });
      expectProblem(await client.api('GET', LIST, { token: stranger.token }), 403);
      note('GET', LIST, 403);
    });

    it('POST /user/breaches/resolutions: 204, 400, 401, 403, 404', async () => {
      const item = { breachId: breach.id, dataClasses: ['usernames'], resolved: true };
      expect((await client.resolve(user.token, [item])).status).toBe(204);
      note('POST', RESOLVE, 204);
      expectProblem(await client.resolve(user.token, [{ ...item, dataClasses: [] }]), 400);
      note('POST', RESOLVE, 400);
      expectProblem(await client.api('POST', RESOLVE, { body: [item] }), 401);
      note('POST', RESOLVE, 401);
      const stranger = await client.newUser({ skipCreate: true });
      expectProblem(await client.resolve(stranger.token, [item]), 403);
      note('POST', RESOLVE, 403);
      expectProblem(await client.resolve(user.token, [{ ...item, breachId: unique('nowhere') }]), 404);
      note('POST', RESOLVE, 404);
    });

    it('covered every status the document lists', () => {
      const documented = doc.operations().flatMap((op) => op.statuses.map((status) => `${op.method} ${op.path} ${status}`));
      expect([...seen].sort()).toEqual(documented.sort());
    });
  });

  describe('request examples, replayed with real ids', () => {
    let first: Breach;
    let second: Breach;
    let other: Breach;
    let user: TestUser;
    /** The document's placeholders → this run's breaches and monitored email. */
    const mapIds = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value), (key, v: unknown) => {
        if (key === 'breachId') return v === 'Breach1' ? first.id : v === 'Breach2' ? second.id : v;
        if (v === 'alice@example.com') return user.emails[0];
        return v;
      });

    beforeAll(async () => {
      // Spelled as Have I Been Pwned spells them; the examples use slugs.
      first = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords'], breachDate: '2023-04-10', domain: 'example.com' });
      second = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords', 'Phone numbers'], breachDate: '2022-01-01' });
      other = await client.addBreach({ dataClasses: ['Usernames'], breachDate: '2021-01-01', isSensitive: true });
      user = await client.newUser({ emails: 2 });
      for (const email of user.emails) await client.putExposures(email, [first.id, second.id, other.id]);
    });

    it('has examples for every parameter and for the request body', () => {
      expect(doc.parameters('GET', LIST).map((p) => [p.name, Object.keys((p.examples ?? {}) as object).length > 0])).toEqual([
        ['domain', true],
        ['dataClasses', true],
        ['unresolvedDataClasses', true],
        ['includeSensitive', true],
      ]);
      expect(doc.requestExamples('POST', RESOLVE).map((e) => e.name)).toEqual(['resolveMultipleBreaches', 'resolvePasswordsOneEmail', 'undoPasswordsAllEmailsInBreach']);
    });

    it('every example request body is valid by the upstream request schema', () => {
      const validate = doc.validator(doc.requestSchema('POST', RESOLVE));
      for (const example of doc.requestExamples('POST', RESOLVE)) expect(validate(example.value), example.name).toBe(true);
    });

    it('the resolution examples answer 204 and do what they say', async () => {
      const [e1, e2] = user.emails as [string, string];
      const resolved = async () => {
        const items = await client.listOf(user.token, [first.id, second.id]);
        return [stateOf(items, first.id, e1), stateOf(items, first.id, e2), stateOf(items, second.id, e1), stateOf(items, second.id, e2)].map((s) => Object.keys(s ?? {}));
      };
      const examples = Object.fromEntries(doc.requestExamples('POST', RESOLVE).map((e) => [e.name, mapIds(e.value) as unknown[]]));

      await client.resolveOk(user.token, examples.resolveMultipleBreaches!);
      // Breach1 for every affected email; Breach2 for alice only. Keys in the breach's spelling.
      expect(await resolved()).toEqual([['Passwords'], ['Passwords'], ['Passwords'], []]);

      await client.resolveOk(user.token, examples.undoPasswordsAllEmailsInBreach!);
      expect(await resolved()).toEqual([[], [], [], []]);

      await client.resolveOk(user.token, examples.resolvePasswordsOneEmail!);
      expect(await resolved()).toEqual([['Passwords'], [], [], []]);
      // Idempotent: the same request again changes nothing and is no error.
      await client.resolveOk(user.token, examples.resolvePasswordsOneEmail!);
      expect(await resolved()).toEqual([['Passwords'], [], [], []]);
    });

    it('each parameter example answers 200 within the schema, and the filter examples find the breaches that spell the class differently', async () => {
      const results: Record<string, string[]> = {};
      for (const parameter of doc.parameters('GET', LIST)) {
        for (const [name, example] of Object.entries(parameter.examples as Record<string, { value: unknown }>)) {
          const search = new URLSearchParams();
          for (const value of Array.isArray(example.value) ? example.value : [example.value]) search.append(String(parameter.name), String(value));
          const { items } = await client.list(user.token, search);
          results[`${String(parameter.name)}:${name}`] = items.map((item) => item.breach.id);
        }
      }
      // After the replay above, alice has Passwords resolved in first; bob has nothing resolved.
      expect(results).toEqual({
        'domain:example': [first.id],
        'dataClasses:passwords': [first.id, second.id],
        'dataClasses:pii': [first.id, second.id],
        'unresolvedDataClasses:passwords': [first.id, second.id],
        'includeSensitive:include': [first.id, second.id, other.id],
      });
    });

    it("the document's response examples are what our client and our shared schema read", () => {
      for (const example of doc.responseExamples('GET', LIST, 200)) {
        expect(ServerUserBreachList.safeParse(example.value).success, example.name).toBe(true);
        expect(UserBreachList.safeParse(example.value).success, example.name).toBe(true);
      }
    });
  });
});
