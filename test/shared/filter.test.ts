import { describe, expect, it } from 'vitest';
import { compareBreaches, matchesBreachQuery, type Breach, type BreachQuery, type UserBreach } from '../../shared/api/index.ts';

function breach(id: string, overrides: Partial<Breach> = {}): Breach {
  return {
    id,
    domain: id.toLowerCase() + '.com',
    breachDate: '2020-01-01',
    addedDate: '2020-02-01T10:00:00Z',
    modifiedDate: '2020-02-01T10:00:00Z',
    dataClasses: ['Email addresses', 'Passwords'],
    isSensitive: false,
    ...overrides,
  };
}

const item = (b: Breach, resolved: Record<string, string[]> = {}): UserBreach => ({
  breach: b,
  breachedAccounts: Object.entries(resolved).map(([email, classes]) => ({
    email,
    resolvedDataClasses: Object.fromEntries(classes.map((c) => [c, { resolvedAt: '2021-01-01T00:00:00Z' }])),
  })),
});

const q = (query: Partial<BreachQuery>): BreachQuery => ({ includeSensitive: false, ...query });

describe('matchesBreachQuery', () => {
  const plain = item(breach('Adobe'), { 'a@x.com': [], 'b@x.com': ['Passwords'] });
  const sensitive = item(breach('Hidden', { isSensitive: true }), { 'a@x.com': [] });
  const allResolved = item(breach('Done'), { 'a@x.com': ['Email addresses', 'passwords'] });

  it('excludes sensitive breaches unless asked', () => {
    expect(matchesBreachQuery(sensitive, q({}))).toBe(false);
    expect(matchesBreachQuery(sensitive, q({ includeSensitive: true }))).toBe(true);
  });
  it('matches the domain exactly, ignoring case', () => {
    expect(matchesBreachQuery(plain, q({ domain: 'adobe.com' }))).toBe(true);
    expect(matchesBreachQuery(plain, q({ domain: 'ADOBE.com' }))).toBe(true);
    expect(matchesBreachQuery(plain, q({ domain: 'adobe.co' }))).toBe(false);
    expect(matchesBreachQuery(plain, q({ domain: 'www.adobe.com' }))).toBe(false);
  });
  it('keeps breaches with any of the data classes', () => {
    expect(matchesBreachQuery(plain, q({ dataClasses: ['Phone numbers', 'passwords'] }))).toBe(true);
    expect(matchesBreachQuery(plain, q({ dataClasses: ['Phone numbers'] }))).toBe(false);
  });
  it('keeps breaches where a listed class is unresolved for some email', () => {
    expect(matchesBreachQuery(plain, q({ unresolvedDataClasses: ['Passwords'] }))).toBe(true); // a@ has not resolved it
    expect(matchesBreachQuery(allResolved, q({ unresolvedDataClasses: ['Passwords'] }))).toBe(false); // resolved, other case
    expect(matchesBreachQuery(plain, q({ unresolvedDataClasses: ['Phone numbers'] }))).toBe(false); // not exposed at all
  });
  it('combines filters with AND', () => {
    expect(matchesBreachQuery(plain, q({ domain: 'adobe.com', dataClasses: ['Phone numbers'] }))).toBe(false);
    expect(matchesBreachQuery(plain, q({ domain: 'adobe.com', dataClasses: ['Passwords'], unresolvedDataClasses: ['Email addresses'] }))).toBe(true);
  });
});

describe('compareBreaches', () => {
  it('orders by breachDate desc, addedDate desc, id asc', () => {
    const list = [breach('B', { breachDate: '2019-01-01' }), breach('C'), breach('A'), breach('D', { addedDate: '2020-03-01T00:00:00Z', modifiedDate: '2020-03-01T00:00:00Z' })];
    expect(list.sort(compareBreaches).map((b) => b.id)).toEqual(['D', 'A', 'C', 'B']);
  });
});
