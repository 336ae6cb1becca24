// GET /user/breaches: which breaches and accounts are listed, filters, order, errors, caching.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Breach } from '../../shared/api/index.ts';
import { expectBadRequest, expectProblem, stateOf, type TestUser, unique, useClient } from './client.ts';

const client = useClient();

/** Fixture breaches, by short name; ids share a unique prefix so ties sort by the suffix. */
const b: Record<string, Breach> = {};
let prefix: string;
let domain: string;
/** Monitored a, b, c; `a` is in every fixture breach but b7, `b` in b1 and b6, `c` in none. */
let user: TestUser;

const params = (entries: [string, string][]) => new URLSearchParams(entries);
const ids = (items: { breach: Breach }[]) => items.map((item) => item.breach.id);
const named = (...names: string[]) => names.map((name) => b[name]!.id);

beforeAll(async () => {
  prefix = unique('list');
  domain = `${prefix}.example`;
  const add = async (name: string, input: Partial<Breach>) => {
    b[name] = await client.addBreach({ id: `${prefix}-${name}`, domain: `${prefix}-${name}.example`, ...input });
  };
  await add('b1', { domain, breachDate: '2023-05-01', addedDate: '2023-06-01T10:00:00Z', dataClasses: ['Passwords', 'Email addresses'] });
  await add('b2', { breachDate: '2023-05-01', addedDate: '2023-07-01T10:00:00Z', dataClasses: ['Email addresses', 'Usernames'] });
  // Same breachDate and addedDate: id ascending decides (added in the opposite order on purpose).
  await add('b3b', { breachDate: '2021-01-01', addedDate: '2021-02-01T00:00:00Z', dataClasses: ['IP addresses'] });
  await add('b3a', { breachDate: '2021-01-01', addedDate: '2021-02-01T00:00:00Z', dataClasses: ['Email addresses'] });
  // The oldest breachDate but the newest addedDate: breachDate wins.
  await add('b4', { breachDate: '2019-01-01', addedDate: '2025-12-01T00:00:00Z', modifiedDate: '2026-01-01T00:00:00Z', dataClasses: ['Names'] });
  await add('b5', { breachDate: '2024-01-01', addedDate: '2024-01-05T00:00:00Z', dataClasses: ['Sexual preferences', 'Email addresses'], isSensitive: true });
  await add('b6', { domain: `sub.${domain}`, breachDate: '2025-03-01', addedDate: '2025-03-02T00:00:00Z', dataClasses: ['Physical addresses', 'Phone numbers'] });
  // In the catalog, newest of all, but affects nobody here.
  await add('b7', { domain, breachDate: '2026-01-01', addedDate: '2026-01-02T00:00:00Z', dataClasses: ['Passwords'] });

  const emails = [0, 1, 2].map((i) => `${String.fromCharCode(97 + i)}-${prefix}@conformance.example`);
  user = await client.newUser({
    emails,
    exposures: { [emails[0]!]: named('b1', 'b2', 'b3a', 'b3b', 'b4', 'b5', 'b6'), [emails[1]!]: named('b6', 'b1') },
  });
});

describe('GET /user/breaches: content', () => {
  it('answers 200 with an empty array when no monitored email is affected', async () => {
    const other = await client.newUser({ emails: 2 });
    const { items, text } = await client.list(other.token);
    expect(items).toEqual([]);
    expect(text.trim()).toBe('[]');
  });

  it('lists each affected breach once, exactly as in the catalog', async () => {
    const { items } = await client.list(user.token);
    expect(new Set(ids(items)).size).toBe(items.length);
    for (const item of items) expect(item.breach).toEqual(Object.values(b).find((breach) => breach.id === item.breach.id));
    expect(ids(items)).not.toContain(b.b7!.id);
  });

  it('lists only the affected monitored emails, in ascending order, with their state', async () => {
    const [a, bb, c] = user.emails;
    const { items } = await client.list(user.token, 'includeSensitive=true');
    const accounts = (name: string) => items.find((item) => item.breach.id === b[name]!.id)?.breachedAccounts.map((account) => account.email);
    expect(accounts('b1')).toEqual([a, bb]);
    expect(accounts('b6')).toEqual([a, bb]);
    for (const name of ['b2', 'b3a', 'b3b', 'b4', 'b5']) expect(accounts(name)).toEqual([a]);
    for (const item of items) {
      expect(item.breachedAccounts.map((account) => account.email)).not.toContain(c);
      for (const account of item.breachedAccounts) expect(account.resolvedDataClasses).toEqual({});
    }
  });

  it('keeps breach dataClasses alphabetically ordered', async () => {
    const { items } = await client.list(user.token, 'includeSensitive=true');
    for (const item of items) expect(item.breach.dataClasses).toEqual([...item.breach.dataClasses].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
  });
});

describe('GET /user/breaches: order', () => {
  it('orders by breachDate desc, then addedDate desc, then id asc', async () => {
    expect(ids((await client.list(user.token)).items)).toEqual(named('b6', 'b2', 'b1', 'b3a', 'b3b', 'b4'));
    expect(ids((await client.list(user.token, 'includeSensitive=true')).items)).toEqual(named('b6', 'b5', 'b2', 'b1', 'b3a', 'b3b', 'b4'));
  });
});

describe('GET /user/breaches: sensitive breaches', () => {
  it('excludes sensitive breaches by default and with includeSensitive=false', async () => {
    const byDefault = ids((await client.list(user.token)).items);
    expect(byDefault).not.toContain(b.b5!.id);
    expect(ids((await client.list(user.token, 'includeSensitive=false')).items)).toEqual(byDefault);
  });

  it('includes them with includeSensitive=true', async () => {
    const { items } = await client.list(user.token, 'includeSensitive=true');
    const sensitive = items.find((item) => item.breach.id === b.b5!.id);
    expect(sensitive?.breach.isSensitive).toBe(true);
  });
});

describe('GET /user/breaches: filters', () => {
  it('domain is an exact match on the primary domain (no suffix or substring match)', async () => {
    expect(ids((await client.list(user.token, params([['domain', domain]]))).items)).toEqual(named('b1'));
    expect(ids((await client.list(user.token, params([['domain', `sub.${domain}`]]))).items)).toEqual(named('b6'));
    expect((await client.list(user.token, params([['domain', prefix]]))).items).toEqual([]);
    expect((await client.list(user.token, params([['domain', domain.slice(1)]]))).items).toEqual([]);
    expect((await client.list(user.token, params([['domain', 'example']]))).items).toEqual([]);
  });

  it('dataClasses keeps breaches having ANY of the values, case-insensitively', async () => {
    expect(ids((await client.list(user.token, params([['dataClasses', 'Passwords']]))).items)).toEqual(named('b1'));
    expect(ids((await client.list(user.token, params([['dataClasses', 'pAsSwOrDs']]))).items)).toEqual(named('b1'));
    expect(ids((await client.list(user.token, 'dataClasses=Passwords&dataClasses=Phone%20numbers')).items)).toEqual(named('b6', 'b1'));
    expect(ids((await client.list(user.token, params([['dataClasses', 'Email addresses']]))).items)).toEqual(named('b2', 'b1', 'b3a'));
    expect((await client.list(user.token, params([['dataClasses', 'Nothing like this']]))).items).toEqual([]);
  });

  it('filters combine with AND', async () => {
    expect(
      (
        await client.list(
          user.token,
          params([
            ['domain', domain],
            ['dataClasses', 'Phone numbers'],
          ]),
        )
      ).items,
    ).toEqual([]);
    expect(
      ids(
        (
          await client.list(
            user.token,
            params([
              ['domain', `sub.${domain}`],
              ['dataClasses', 'Phone numbers'],
            ]),
          )
        ).items,
      ),
    ).toEqual(named('b6'));
    expect((await client.list(user.token, params([['dataClasses', 'Sexual preferences']]))).items).toEqual([]);
    expect(
      ids(
        (
          await client.list(
            user.token,
            params([
              ['dataClasses', 'Sexual preferences'],
              ['includeSensitive', 'true'],
            ]),
          )
        ).items,
      ),
    ).toEqual(named('b5'));
    expect((await client.list(user.token, params([['domain', b.b5!.domain]]))).items).toEqual([]);
    expect(
      ids(
        (
          await client.list(
            user.token,
            params([
              ['domain', b.b5!.domain],
              ['includeSensitive', 'true'],
              ['dataClasses', 'Email addresses'],
              ['unresolvedDataClasses', 'Email addresses'],
            ]),
          )
        ).items,
      ),
    ).toEqual(named('b5'));
  });

  it('ignores unknown parameters', async () => {
    const plain = (await client.list(user.token)).text;
    expect((await client.list(user.token, 'page=2&sort=name&x=%00')).text).toBe(plain);
  });

  it('unresolvedDataClasses keeps breaches with ANY listed class unresolved for ANY affected email, returning all accounts', async () => {
    const other = await client.newUser({ emails: 2 });
    const [a, bb] = other.emails as [string, string];
    for (const email of other.emails) await client.putExposures(email, named('b1', 'b2'));
    const unresolved = async (...names: string[]) => ids((await client.list(other.token, params(names.map((n) => ['unresolvedDataClasses', n])))).items);

    expect(await unresolved('Passwords')).toEqual(named('b1'));

    await client.resolveOk(other.token, [{ breachId: b.b1!.id, dataClasses: ['Passwords'], resolved: true, emails: [a] }]);
    const { items } = await client.list(other.token, params([['unresolvedDataClasses', 'Passwords']]));
    expect(ids(items)).toEqual(named('b1'));
    // Complete breachedAccounts, not only the unresolved ones.
    expect(items[0]!.breachedAccounts.map((account) => account.email)).toEqual([a, bb]);
    expect(Object.keys(stateOf(items, b.b1!.id, a) ?? {})).toEqual(['Passwords']);
    expect(stateOf(items, b.b1!.id, bb)).toEqual({});

    await client.resolveOk(other.token, [{ breachId: b.b1!.id, dataClasses: ['Passwords'], resolved: true, emails: [bb] }]);
    expect(await unresolved('Passwords')).toEqual([]);
    expect(await unresolved('PASSWORDS')).toEqual([]);
    expect(await unresolved('Passwords', 'Email addresses')).toEqual(named('b2', 'b1'));
    expect(await unresolved('Usernames')).toEqual(named('b2'));

    // AND with the other filters.
    expect(
      ids(
        (
          await client.list(
            other.token,
            params([
              ['dataClasses', 'Passwords'],
              ['unresolvedDataClasses', 'Email addresses'],
            ]),
          )
        ).items,
      ),
    ).toEqual(named('b1'));
    expect(
      (
        await client.list(
          other.token,
          params([
            ['dataClasses', 'Passwords'],
            ['unresolvedDataClasses', 'Passwords'],
          ]),
        )
      ).items,
    ).toEqual([]);

    await client.resolveOk(other.token, [{ breachId: b.b1!.id, dataClasses: ['Passwords'], resolved: false, emails: [a] }]);
    const after = (await client.list(other.token, params([['unresolvedDataClasses', 'Passwords']]))).items;
    expect(ids(after)).toEqual(named('b1'));
    expect(stateOf(after, b.b1!.id, a)).toEqual({});
    expect(Object.keys(stateOf(after, b.b1!.id, bb) ?? {})).toEqual(['Passwords']);
  });
});

describe('GET /user/breaches: invalid queries', () => {
  it.each([
    ['includeSensitive=yes', /includeSensitive/],
    ['includeSensitive=1', /includeSensitive/],
    ['includeSensitive=', /includeSensitive/],
    ['domain=', /domain/],
    [`domain=a.example&domain=b.example`, /domain/],
  ])('%s answers 400 problem+json naming the parameter', async (query, pointer) => {
    const result = await client.api('GET', `/user/breaches?${query}`, { token: user.token });
    expectBadRequest(result, pointer);
  });

  it('still needs authentication before anything else', async () => {
    expectProblem(await client.api('GET', '/user/breaches?includeSensitive=yes'), 401);
  });
});

describe('GET /user/breaches: caching', () => {
  it('sends an ETag, answers 304 to If-None-Match, and changes the tag after a resolution', async () => {
    const other = await client.newUser({ emails: 1 });
    await client.putExposures(other.emails[0]!, named('b1'));
    const first = await client.list(other.token);
    const etag = first.etag;
    expect(etag).toBeTruthy();
    expect((await client.list(other.token)).etag).toBe(etag);

    const path = '/user/breaches';
    for (const ifNoneMatch of [etag!, `W/${etag}`, `"nope", ${etag}`]) {
      const cached = await client.api('GET', path, { token: other.token, headers: { 'if-none-match': ifNoneMatch } });
      expect(cached.status, ifNoneMatch).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(etag);
    }
    expect((await client.api('GET', path, { token: other.token, headers: { 'if-none-match': '"something-else"' } })).status).toBe(200);

    await client.resolveOk(other.token, [{ breachId: b.b1!.id, dataClasses: ['Passwords'], resolved: true }]);
    const changed = await client.api('GET', path, { token: other.token, headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    const newTag = changed.headers.get('etag');
    expect(newTag).toBeTruthy();
    expect(newTag).not.toBe(etag);
    expect((await client.api('GET', path, { token: other.token, headers: { 'if-none-match': newTag! } })).status).toBe(304);

    // Back to the original state: the representation (and so a strong tag) may come back.
    await client.resolveOk(other.token, [{ breachId: b.b1!.id, dataClasses: ['Passwords'], resolved: false }]);
    expect((await client.list(other.token)).text).toBe(first.text);
  });

  it('gives different representations different tags (filters)', async () => {
    const all = await client.list(user.token);
    const filtered = await client.list(user.token, params([['domain', domain]]));
    expect(filtered.etag).not.toBe(all.etag);
  });
});
