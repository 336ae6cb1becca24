// Data class identity (issue 18): a display name, any casing of it and its slug (the spelling
// Mozilla Monitor's own API document uses) name the same class, in filters, resolutions and
// resolvedDataClasses keys. Answers keep the breach's own spelling.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Breach } from '../../shared/api/index.ts';
import { expectBadRequest, stateOf, type TestUser, useClient } from './client.ts';

const client = useClient();

let hibp: Breach;
let other: Breach;
let slugged: Breach;
let user: TestUser;

beforeAll(async () => {
  hibp = await client.addBreach({ dataClasses: ['Email addresses', 'IP addresses', 'Passwords'], breachDate: '2023-01-01' });
  other = await client.addBreach({ dataClasses: ['Phone numbers', 'Usernames'], breachDate: '2022-01-01' });
  // A catalog that itself speaks slugs, as a Monitor-fed service would.
  slugged = await client.addBreach({ dataClasses: ['email-addresses', 'passwords'], breachDate: '2021-01-01' });
  user = await client.newUser({ emails: 2 });
  for (const email of user.emails) await client.putExposures(email, [hibp.id, other.id, slugged.id]);
});

const ids = (items: readonly { breach: Breach }[]) => items.map((item) => item.breach.id);

describe('data classes by slug or display name', () => {
  it('dataClasses=email-addresses keeps the breaches that list "Email addresses" (upstream example spelling)', async () => {
    const { items } = await client.list(user.token, 'dataClasses=email-addresses');
    expect(ids(items)).toEqual([hibp.id, slugged.id]);
    // The breach keeps its own spelling.
    expect(items[0]!.breach.dataClasses).toEqual(['Email addresses', 'IP addresses', 'Passwords']);
    expect(items[1]!.breach.dataClasses).toEqual(['email-addresses', 'passwords']);
  });

  it.each([
    ['the slug', 'ip-addresses'],
    ['upper case slug', 'IP-ADDRESSES'],
    ['the display name', 'IP addresses'],
    ['another separator', 'ip_addresses'],
    ['padded, mixed case', '  Ip   Addresses '],
  ])('dataClasses matches %s', async (_label, value) => {
    expect(ids((await client.list(user.token, new URLSearchParams([['dataClasses', value]]))).items)).toEqual([hibp.id]);
  });

  it('a display name matches a breach that lists slugs, and the other way round', async () => {
    expect(ids((await client.list(user.token, new URLSearchParams([['dataClasses', 'Passwords']]))).items)).toEqual([hibp.id, slugged.id]);
    expect(ids((await client.list(user.token, 'dataClasses=phone-numbers&dataClasses=Nothing')).items)).toEqual([other.id]);
  });

  it('POST /user/breaches/resolutions accepts slugs (204) and reports the breach spelling as key', async () => {
    const [e1, e2] = user.emails as [string, string];
    await client.resolveOk(user.token, [
      { breachId: hibp.id, dataClasses: ['email-addresses', 'passwords'], resolved: true, emails: [e1] },
      { breachId: slugged.id, dataClasses: ['Email addresses'], resolved: true, emails: [e1] },
    ]);
    const items = await client.listOf(user.token, [hibp.id, slugged.id]);
    expect(Object.keys(stateOf(items, hibp.id, e1) ?? {}).sort()).toEqual(['Email addresses', 'Passwords']);
    expect(Object.keys(stateOf(items, slugged.id, e1) ?? {})).toEqual(['email-addresses']);
    expect(stateOf(items, hibp.id, e2)).toEqual({});

    // unresolvedDataClasses by slug: e2 still has Email addresses unresolved in both.
    expect(ids((await client.list(user.token, 'unresolvedDataClasses=email-addresses')).items)).toEqual([hibp.id, slugged.id]);
    // Two spellings of one class in one item name it once; undoing by another spelling works.
    await client.resolveOk(user.token, [{ breachId: hibp.id, dataClasses: ['PASSWORDS', 'passwords'], resolved: false, emails: [e1] }]);
    expect(Object.keys(stateOf(await client.listOf(user.token, [hibp.id]), hibp.id, e1) ?? {})).toEqual(['Email addresses']);
  });

  it('resolvedDataClasses keys of any spelling count for unresolvedDataClasses', async () => {
    const [e1, e2] = user.emails as [string, string];
    await client.resolveOk(user.token, [{ breachId: other.id, dataClasses: ['usernames'], resolved: true }]);
    expect(ids((await client.list(user.token, 'unresolvedDataClasses=Usernames')).items)).toEqual([]);
    expect(Object.keys(stateOf(await client.listOf(user.token, [other.id]), other.id, e1) ?? {})).toEqual(['Usernames']);
    expect(Object.keys(stateOf(await client.listOf(user.token, [other.id]), other.id, e2) ?? {})).toEqual(['Usernames']);
  });

  it('a slug the breach does not have is still refused with a pointer', async () => {
    const result = await client.resolve(user.token, [{ breachId: other.id, dataClasses: ['phone-numbers', 'email-addresses'], resolved: true }]);
    expectBadRequest(result, '/0/dataClasses/1');
  });
});
