import { describe, expect, it } from 'vitest';
import { LocalBreachQuery } from '../../../shared/api/localQuery.ts';
import { settleFailed } from '../../../electron/core/db/outboxQueries.ts';
import { Outbox } from '../../../electron/core/outbox/Outbox.ts';
import { countBreaches, countMatches, getLocalBreach, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { matchesListText, understandListText } from '../../../shared/search/listText.ts';
import { FROZEN_NOW, item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const B = 'b@example.com';
const neverSends = { postResolutions: () => Promise.reject(new Error('not in this test')) };

function fixture() {
  const db = memoryDatabase();
  snapshot(db, [
    item({
      id: 'AcmeBank',
      domain: 'acmebank.com',
      breachDate: '2021-03-01',
      addedDate: '2021-04-01T00:00:00Z',
      dataClasses: ['Email addresses', 'Passwords'],
      accounts: { [A]: [], [B]: ['Passwords'] },
    }),
    item({ id: 'Zeta', domain: 'zeta-bank.io', breachDate: '2023-01-01', addedDate: '2023-01-05T00:00:00Z', dataClasses: ['Email addresses'], accounts: { [A]: ['Email addresses'] } }),
    item({ id: 'bravo', domain: 'bravo.org', breachDate: '2019-07-01', addedDate: '2024-01-01T00:00:00Z', dataClasses: ['Email addresses', 'Passwords', 'Usernames'], accounts: { [B]: [] } }),
    item({ id: 'Private', domain: 'private.example', breachDate: '2022-01-01', isSensitive: true, accounts: { [A]: [] } }),
  ]);
  return db;
}
const ids = (page: { items: { breach: { id: string } }[] }) => page.items.map((i) => i.breach.id);

describe('queryBreaches', () => {
  it('searches id and domain, ignoring case', () => {
    const db = fixture();
    expect(ids(queryBreaches(db, { text: 'BANK' }))).toEqual(['Zeta', 'AcmeBank']);
    expect(ids(queryBreaches(db, { text: '.org' }))).toEqual(['bravo']);
    expect(ids(queryBreaches(db, { text: '  ' }))).toEqual(['Zeta', 'AcmeBank', 'bravo']);
    expect(ids(queryBreaches(db, { text: '%' }))).toEqual([]);
  });

  it('understands the text box: data classes, their synonyms and dates, and words in names, domains and data classes', () => {
    const db = fixture();
    expect(ids(queryBreaches(db, { text: 'passwords' }))).toEqual(['AcmeBank', 'bravo']);
    expect(ids(queryBreaches(db, { text: 'Passwords' }))).toEqual(['AcmeBank', 'bravo']);
    expect(ids(queryBreaches(db, { text: 'pass' }))).toEqual(['AcmeBank', 'bravo']);
    expect(ids(queryBreaches(db, { text: 'user names' }))).toEqual(['bravo']);
    expect(ids(queryBreaches(db, { text: 'emails' }))).toEqual(['Zeta', 'AcmeBank', 'bravo']);
    expect(ids(queryBreaches(db, { text: 'after 2020' }))).toEqual(['Zeta', 'AcmeBank']);
    expect(ids(queryBreaches(db, { text: 'which of my breaches leaked passwords after 2020?' }))).toEqual(['AcmeBank']);
    expect(ids(queryBreaches(db, { text: 'passwords before 2020' }))).toEqual(['bravo']);
    expect(ids(queryBreaches(db, { text: 'bank passwords' }))).toEqual(['AcmeBank']);
    expect(ids(queryBreaches(db, { text: 'phone numbers' }))).toEqual([]);
    expect(ids(queryBreaches(db, { text: 'in 2022', includeSensitive: true }))).toEqual(['Private']);
    expect(countMatches(db, { text: 'passwords' })).toBe(2);
  });

  it('answers the text box as shared/search/listText.ts does, on every case', () => {
    const db = fixture();
    const all = queryBreaches(db, { includeSensitive: true, limit: 100 }).items.map((row) => row.breach);
    const texts = [
      'passwords',
      'pass',
      'PASSWORD',
      'emails',
      'ip',
      'bank',
      'acme',
      '.org',
      'io',
      '%',
      'the',
      'after 2020',
      'since 2021',
      'before 2021',
      'in 2019',
      '2019-2021',
      'bank after 2022',
      'zeta emails',
      'usernames 2019',
      'which',
      '","',
    ];
    for (const text of texts) {
      const match = understandListText(text, { dataClasses: ['Email addresses', 'Passwords', 'Usernames'] });
      const expected = all.filter((breach) => match === undefined || matchesListText(breach, match)).map((breach) => breach.id);
      expect(ids(queryBreaches(db, { text, includeSensitive: true })), text).toEqual(expected);
    }
  });

  it('matches any part of the domain, ignoring case, but not the breach id', () => {
    const db = fixture();
    expect(ids(queryBreaches(db, { domainContains: 'BANK' }))).toEqual(['Zeta', 'AcmeBank']);
    expect(ids(queryBreaches(db, { domainContains: 'ank.i' }))).toEqual(['Zeta']);
    expect(ids(queryBreaches(db, { domainContains: 'acme', domain: 'zeta-bank.io' }))).toEqual([]);
    expect(ids(queryBreaches(db, { domainContains: 'private' }))).toEqual([]);
    expect(ids(queryBreaches(db, { domainContains: 'private', includeSensitive: true }))).toEqual(['Private']);
    expect(ids(queryBreaches(db, { domainContains: '%' }))).toEqual([]);
    expect(() => queryBreaches(db, { domainContains: '   ' })).toThrow(/at least one character/);
  });

  it('sorts by breach date (the service order), added date, name and unresolved count', () => {
    const db = fixture();
    expect(ids(queryBreaches(db, { sort: 'breachDate' }))).toEqual(['Zeta', 'AcmeBank', 'bravo']);
    expect(ids(queryBreaches(db, { sort: 'addedDate' }))).toEqual(['bravo', 'Zeta', 'AcmeBank']);
    expect(ids(queryBreaches(db, { sort: 'name' }))).toEqual(['AcmeBank', 'bravo', 'Zeta']);
    expect(queryBreaches(db, { sort: 'unresolved' }).items.map((i) => [i.breach.id, i.unresolved])).toEqual([
      ['AcmeBank', 3], // ties fall back to the service order
      ['bravo', 3],
      ['Zeta', 0],
    ]);
  });

  it("gives a per-email view: that email's breaches, its unresolved classes, its state only", () => {
    const db = fixture();
    const page = queryBreaches(db, { email: 'A@example.com', includeSensitive: true });
    expect(ids(page)).toEqual(['Zeta', 'Private', 'AcmeBank']);
    expect(page.items.every((i) => i.breachedAccounts.length === 1 && i.breachedAccounts[0]!.email === A)).toBe(true);
    // B resolved Passwords of AcmeBank; A did not.
    expect(ids(queryBreaches(db, { email: A, unresolvedDataClasses: ['passwords'] }))).toEqual(['AcmeBank']);
    expect(ids(queryBreaches(db, { email: B, unresolvedDataClasses: ['passwords'] }))).toEqual(['bravo']);
    expect(getLocalBreach(db, 'bravo', { email: A })).toBeUndefined();
    expect(getLocalBreach(db, 'AcmeBank', { email: B })!.unresolved).toBe(1);
  });

  it('returns a window with the total', () => {
    const db = fixture();
    const page = queryBreaches(db, { limit: 2, offset: 1, includeSensitive: true });
    expect(page.total).toBe(4);
    expect(ids(page)).toEqual(['Private', 'AcmeBank']);
    expect(queryBreaches(db, { limit: 2, offset: 10 })).toEqual({ total: 3, offset: 10, items: [] });
    expect(countMatches(db, { text: 'bank' })).toBe(2);
  });

  it('validates the query at the door', () => {
    const db = fixture();
    expect(() => queryBreaches(db, { sort: 'random' as never })).toThrow();
    expect(() => queryBreaches(db, { email: 'not an email' })).toThrow();
    expect(() => queryBreaches(db, { limit: 0 })).toThrow();
    expect(LocalBreachQuery.parse({})).toEqual({ includeSensitive: false, sort: 'breachDate', offset: 0, limit: 100 });
  });

  it('shows pending and failed changes on the rows they concern, and filters by them', () => {
    const db = fixture();
    const outbox = new Outbox({ db, sender: neverSends, now: () => FROZEN_NOW.getTime() });
    outbox.record([{ breachId: 'Zeta', emails: [A], dataClasses: ['Email addresses'], resolved: false }]);
    outbox.record([{ breachId: 'bravo', resolved: true }]);
    const [failedRow] = outbox.items().filter((i) => i.breachId === 'bravo' && i.dataClass === 'Usernames');
    settleFailed(db, failedRow!.id, 1, 404, 'email not found for breach "bravo"', FROZEN_NOW.toISOString());

    expect(getLocalBreach(db, 'Zeta')!.breachedAccounts).toEqual([{ email: A, resolvedDataClasses: {}, pending: ['Email addresses'], failed: [] }]);
    expect(getLocalBreach(db, 'bravo')!.breachedAccounts).toEqual([
      {
        email: B,
        resolvedDataClasses: { 'Email addresses': {}, Passwords: {}, Usernames: {} },
        pending: ['Email addresses', 'Passwords'],
        failed: [{ dataClass: 'Usernames', reason: 'email not found for breach "bravo"', outboxId: failedRow!.id }],
      },
    ]);
    expect(ids(queryBreaches(db, { unresolvedDataClasses: ['Email addresses'] }))).toEqual(['Zeta', 'AcmeBank']);
    expect(ids(queryBreaches(db, { sort: 'unresolved' }))).toEqual(['AcmeBank', 'Zeta', 'bravo']);
  });
});

describe('countBreaches', () => {
  it('counts unresolved per email and per data class over what the query matches', () => {
    const db = fixture();
    expect(countBreaches(db, { includeSensitive: true })).toEqual({
      breaches: 4,
      unresolvedBreaches: 3,
      byEmail: [
        { email: A, breaches: 3, unresolvedBreaches: 2, unresolvedDataClasses: 4 },
        { email: B, breaches: 2, unresolvedBreaches: 2, unresolvedDataClasses: 4 },
      ],
      byDataClass: [
        { dataClass: 'Email addresses', breaches: 4, unresolvedBreaches: 3, unresolvedAccounts: 4 },
        { dataClass: 'Passwords', breaches: 3, unresolvedBreaches: 3, unresolvedAccounts: 3 },
        { dataClass: 'Usernames', breaches: 1, unresolvedBreaches: 1, unresolvedAccounts: 1 },
      ],
    });
    expect(countBreaches(db, { email: B }).byEmail).toEqual([{ email: B, breaches: 2, unresolvedBreaches: 2, unresolvedDataClasses: 4 }]);
    expect(countBreaches(db, { dataClasses: ['Shoe sizes'] })).toEqual({ breaches: 0, unresolvedBreaches: 0, byEmail: [], byDataClass: [] });
  });
});
