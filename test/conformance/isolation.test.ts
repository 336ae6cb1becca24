// Every /user endpoint is scoped to the authenticated subject: user A can never read or change
// user B's data, even when both are exposed to the same breach.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Breach } from '../../shared/api/index.ts';
import { expectProblem, resolvedKeys, stateOf, type TestUser, useClient } from './client.ts';

const client = useClient();

let shared: Breach;
let onlyA: Breach;
let onlyB: Breach;

beforeAll(async () => {
  shared = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords'], breachDate: '2022-02-02' });
  onlyA = await client.addBreach({ dataClasses: ['Email addresses', 'Usernames'], breachDate: '2021-02-02' });
  onlyB = await client.addBreach({ dataClasses: ['Email addresses', 'Phone numbers'], breachDate: '2020-02-02' });
});

async function pair(): Promise<{ a: TestUser; b: TestUser }> {
  const a = await client.newUser({ emails: 2 });
  const b = await client.newUser({ emails: 2 });
  for (const email of a.emails) await client.putExposures(email, [shared.id, onlyA.id]);
  for (const email of b.emails) await client.putExposures(email, [shared.id, onlyB.id]);
  return { a, b };
}

const snapshot = async (user: TestUser) => {
  const { text, etag } = await client.list(user.token, 'includeSensitive=true');
  return { text, etag };
};

describe('isolation between subjects', () => {
  it('A’s list never shows B’s emails or B-only breaches, even for a breach both are in', async () => {
    const { a, b } = await pair();
    const listA = (await client.list(a.token, 'includeSensitive=true')).items;
    const listB = (await client.list(b.token, 'includeSensitive=true')).items;
    expect(listA.map((item) => item.breach.id)).toEqual([shared.id, onlyA.id]);
    expect(listB.map((item) => item.breach.id)).toEqual([shared.id, onlyB.id]);
    for (const item of listA) expect(item.breachedAccounts.map((account) => account.email)).toEqual(a.emails);
    for (const item of listB) expect(item.breachedAccounts.map((account) => account.email)).toEqual(b.emails);
    expect(JSON.stringify(listA)).not.toContain(b.emails[0]!);
    expect(JSON.stringify(listA)).not.toContain(b.emails[1]!);
  });

  it('gives the two subjects different ETags for their lists', async () => {
    const { a, b } = await pair();
    const [sa, sb] = [await snapshot(a), await snapshot(b)];
    expect(sa.etag).toBeTruthy();
    expect(sa.etag).not.toBe(sb.etag);
    // A's tag does not validate B's representation.
    const crossed = await client.api('GET', '/user/breaches?includeSensitive=true', { token: b.token, headers: { 'if-none-match': sa.etag! } });
    expect(crossed.status).toBe(200);
  });

  it('A naming B’s email answers 404 and changes nothing for B (or A)', async () => {
    const { a, b } = await pair();
    const beforeA = await snapshot(a);
    const beforeB = await snapshot(b);
    for (const body of [
      [{ breachId: shared.id, dataClasses: ['Passwords'], resolved: true, emails: [b.emails[0]!] }],
      [{ breachId: shared.id, dataClasses: ['Passwords'], resolved: true, emails: [a.emails[0]!, b.emails[1]!] }],
      [{ breachId: shared.id, dataClasses: ['Passwords'], resolved: true, emails: [b.emails[0]!.toUpperCase()] }],
      [{ breachId: onlyB.id, dataClasses: ['Phone numbers'], resolved: true, emails: [b.emails[0]!] }],
    ]) {
      expectProblem(await client.resolve(a.token, body), 404);
    }
    expect(await snapshot(a)).toEqual(beforeA);
    expect(await snapshot(b)).toEqual(beforeB);
  });

  it('A resolving a breach only B is in answers 404', async () => {
    const { a, b } = await pair();
    const beforeB = await snapshot(b);
    expectProblem(await client.resolve(a.token, [{ breachId: onlyB.id, dataClasses: ['Phone numbers'], resolved: true }]), 404);
    expect(await snapshot(b)).toEqual(beforeB);
  });

  it('A resolving the shared breach (emails omitted) changes only A’s emails; B’s view is byte-identical', async () => {
    const { a, b } = await pair();
    await client.resolveOk(b.token, [{ breachId: shared.id, dataClasses: ['Email addresses'], resolved: true, emails: [b.emails[1]!] }]);
    const beforeB = await snapshot(b);
    await client.resolveOk(a.token, [{ breachId: shared.id, dataClasses: ['Passwords', 'Email addresses'], resolved: true }]);
    await client.resolveOk(a.token, [{ breachId: shared.id, dataClasses: ['Email addresses'], resolved: false }]);
    expect(await snapshot(b)).toEqual(beforeB);
    const listA = (await client.list(a.token)).items;
    expect(resolvedKeys(listA)).toEqual(a.emails.map((email) => `${shared.id}|${email}|Passwords`).sort());
    const listB = (await client.list(b.token)).items;
    expect(Object.keys(stateOf(listB, shared.id, b.emails[1]!) ?? {})).toEqual(['Email addresses']);
    expect(stateOf(listB, shared.id, b.emails[0]!)).toEqual({});
  });

  it('A’s account being deleted does not affect B', async () => {
    const { a, b } = await pair();
    const beforeB = await snapshot(b);
    await client.putAccount(a.sub, a.emails, true);
    expectProblem(await client.api('GET', '/user/breaches', { token: a.token }), 403);
    expect(await snapshot(b)).toEqual(beforeB);
    await client.resolveOk(b.token, [{ breachId: shared.id, dataClasses: ['Passwords'], resolved: true }]);
  });
});
