import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BREACH_FILTER_FIELDS,
  compileFilter,
  FilterError,
  parseMetadataFilter,
  translateLegacyFilter,
  type FilterRecord,
  type LegacyComparison,
  type LegacyFilter,
  type MetadataFilter,
} from '../../../shared/search/index.ts';

const FIELDS = BREACH_FILTER_FIELDS;

// Small pools so that generated filters match some records and miss others.
const WORDS = ['Adobe', 'adobe', 'LinkedIn', 'Canva', 'canva.com', 'linkedin.com', ''];
const CLASSES = ['Passwords', 'passwords', 'Email addresses', 'Usernames', 'Phone numbers'];
const SECONDS = [0, 1, 999, 1000, 1_600_000_000, 1_600_000_001, 1_700_000_000];

const recordArb = fc.record({
  key: fc.constantFrom('breaches/Adobe', 'breaches/Canva', 'breaches/LinkedIn'),
  timestamp: fc.constantFrom(...SECONDS),
  title: fc.constantFrom(...WORDS),
  domain: fc.constantFrom(...WORDS),
  breachDate: fc.constantFrom(...SECONDS),
  dataClasses: fc.uniqueArray(fc.constantFrom(...CLASSES), { maxLength: 3 }),
  isSensitive: fc.boolean(),
  isVerified: fc.boolean(),
  pwnCount: fc.constantFrom(0, 5, 10, 1_000_000),
});
type Rec = typeof recordArb extends fc.Arbitrary<infer T> ? T : never;

// ---- The plain model: what each operator means, written out field by field. ----
type Cond = { op: string; value: unknown };
function conditionsOf(filter: MetadataFilter): [string, Cond[]][] {
  return Object.entries(filter).map(([field, condition]) => [
    field,
    typeof condition === 'object' && condition !== null ? Object.entries(condition).map(([op, value]) => ({ op, value })) : [{ op: '$eq', value: condition }],
  ]);
}
const same = (a: unknown, b: unknown) => (typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b);
function modelMatches(filter: MetadataFilter, record: Rec): boolean {
  for (const [field, conds] of conditionsOf(filter)) {
    const actual = (record as Record<string, unknown>)[field];
    for (const { op, value } of conds) {
      let ok: boolean;
      if (Array.isArray(actual)) {
        const contains = (v: unknown) => actual.some((item) => same(item, v));
        if (op === '$eq') ok = contains(value);
        else if (op === '$ne') ok = !contains(value);
        else if (op === '$in') ok = (value as unknown[]).some(contains);
        else if (op === '$nin') ok = !(value as unknown[]).some(contains);
        else throw new Error('range on a list');
      } else if (op === '$eq') ok = same(actual, value);
      else if (op === '$ne') ok = !same(actual, value);
      else if (op === '$in') ok = (value as unknown[]).some((v) => same(actual, v));
      else if (op === '$nin') ok = (value as unknown[]).every((v) => !same(actual, v));
      else if (op === '$gt') ok = (actual as number) > (value as number);
      else if (op === '$gte') ok = (actual as number) >= (value as number);
      else if (op === '$lt') ok = (actual as number) < (value as number);
      else ok = (actual as number) <= (value as number);
      if (!ok) return false;
    }
  }
  return true;
}

// ---- Generated valid new-format filters. ----
const scalarFor = (field: string): fc.Arbitrary<string | number | boolean> => {
  if (field === 'isSensitive' || field === 'isVerified') return fc.boolean();
  if (field === 'timestamp' || field === 'breachDate') return fc.constantFrom(...SECONDS, 500, 1_650_000_000);
  if (field === 'pwnCount') return fc.constantFrom(0, 5, 7, 1_000_000);
  if (field === 'dataClasses') return fc.constantFrom(...CLASSES, 'PASSWORDS');
  if (field === 'key') return fc.constantFrom('breaches/Adobe', 'breaches/canva', 'breaches/None');
  return fc.constantFrom(...WORDS, 'ADOBE');
};
const numeric = (field: string) => field === 'timestamp' || field === 'breachDate' || field === 'pwnCount';
const conditionFor = (field: string) => {
  const scalar = scalarFor(field);
  const ops = ['$eq', '$ne', '$in', '$nin', ...(numeric(field) ? ['$gt', '$gte', '$lt', '$lte'] : [])];
  const opArb = fc.constantFrom(...ops).chain((op) => (op === '$in' || op === '$nin' ? fc.array(scalar, { minLength: 1, maxLength: 3 }) : scalar).map((value) => [op, value] as const));
  return fc.oneof(
    scalar,
    fc.uniqueArray(opArb, { minLength: 1, maxLength: 3, selector: ([op]) => op }).map((pairs) => Object.fromEntries(pairs)),
  );
};
const filterArb: fc.Arbitrary<MetadataFilter> = fc
  .uniqueArray(fc.constantFrom(...Object.keys(FIELDS)), { maxLength: 4 })
  .chain((fields) => fc.tuple(...fields.map((field) => conditionFor(field).map((condition) => [field, condition] as const))))
  .map((entries) => Object.fromEntries(entries) as MetadataFilter);

describe('filter engine against the plain model', () => {
  it('matches exactly what the model matches', () => {
    fc.assert(
      fc.property(filterArb, fc.array(recordArb, { maxLength: 12 }), (filter, records) => {
        const run = compileFilter(parseMetadataFilter(filter, FIELDS));
        for (const record of records) expect(run(record as FilterRecord)).toBe(modelMatches(filter, record));
      }),
      { numRuns: 400 },
    );
  });

  it('on an array field, $eq is "contains", $in is "any" and $nin is "none"', () => {
    const record = { dataClasses: ['Passwords', 'Usernames'] } as unknown as FilterRecord;
    const run = (filter: MetadataFilter) => compileFilter(parseMetadataFilter(filter, FIELDS))(record);
    expect(run({ dataClasses: 'passwords' })).toBe(true);
    expect(run({ dataClasses: { $eq: 'Phone numbers' } })).toBe(false);
    expect(run({ dataClasses: { $ne: 'Phone numbers' } })).toBe(true);
    expect(run({ dataClasses: { $in: ['Phone numbers', 'Usernames'] } })).toBe(true);
    expect(run({ dataClasses: { $nin: ['Phone numbers', 'Usernames'] } })).toBe(false);
    expect(run({ dataClasses: { $nin: ['Phone numbers'] } })).toBe(true);
  });

  it.each([
    [{ colour: 'red' }, '/filters/colour', 'unknown field "colour"'],
    [{ $or: [] }, '/filters/$or', 'not supported at the top level'],
    [{ breachDate: { $gt: '2020' } }, '/filters/breachDate/$gt', 'integer number of seconds'],
    [{ breachDate: { $gt: 1_600_000_000_000 } }, '/filters/breachDate/$gt', 'looks like milliseconds'],
    [{ title: { $gt: 3 } }, '/filters/title/$gt', '$gt compares numbers'],
    [{ dataClasses: { $lt: 3 } }, '/filters/dataClasses/$lt', 'list of strings'],
    [{ isSensitive: 'yes' }, '/filters/isSensitive', 'true or false'],
    [{ dataClasses: { $in: [] } }, '/filters/dataClasses/$in', 'non-empty list'],
    [{ dataClasses: { $in: ['Passwords', 3] } }, '/filters/dataClasses/$in/1', 'must be a string'],
    [{ domain: { $like: 'a' } }, '/filters/domain/$like', 'unknown operator "$like"'],
    [{ domain: {} }, '/filters/domain', 'needs an operator'],
    [{ domain: ['a', 'b'] }, '/filters/domain', '{"$in": [...]}'],
    [[], '/filters', 'must be an object'],
  ])('refuses %j at %s', (filter, pointer, message) => {
    try {
      parseMetadataFilter(filter, FIELDS, '/filters');
      expect.unreachable('the filter was accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(FilterError);
      const issue = (error as FilterError).issues.find((i) => i.pointer === pointer);
      expect(issue?.message).toContain(message);
    }
  });

  it('reports every bad field at once', () => {
    expect(() => parseMetadataFilter({ a: 1, b: 2 }, FIELDS)).toThrow(/\/a: unknown field "a".*\/b: unknown field "b"/);
  });
});

// ---- Legacy filters: a legacy model over legacy records (timestamps in milliseconds). ----
type LegacyRecord = Record<string, unknown>;
const toLegacyRecord = (record: Rec): LegacyRecord => ({ ...record, timestamp: record.timestamp * 1000, breachDate: record.breachDate * 1000 });
const isTime = (key: string) => key === 'timestamp' || key === 'breachDate';
function legacyMatches(filter: LegacyFilter, record: LegacyRecord): boolean {
  if (filter.type === 'and') return filter.filters.every((child) => legacyMatches(child, record));
  if (filter.type === 'or') return filter.filters.some((child) => legacyMatches(child, record));
  return legacyComparisonMatches(filter as LegacyComparison, record);
}
function legacyComparisonMatches(filter: LegacyComparison, record: LegacyRecord): boolean {
  const actual = record[filter.key];
  const value = isTime(filter.key) ? Number(filter.value) : filter.key === 'pwnCount' ? Number(filter.value) : filter.value;
  if (Array.isArray(actual)) return filter.type === 'eq' ? actual.some((a) => same(a, value)) : !actual.some((a) => same(a, value));
  switch (filter.type) {
    case 'eq':
      return same(actual, value);
    case 'ne':
      return !same(actual, value);
    case 'gt':
      return (actual as number) > (value as number);
    case 'gte':
      return (actual as number) >= (value as number);
    case 'lt':
      return (actual as number) < (value as number);
    case 'lte':
      return (actual as number) <= (value as number);
  }
}

const MS = [0, 999, 1000, 1500, 1_600_000_000_000, 1_600_000_000_500, 1_600_000_001_000, 1_700_000_000_000];
const legacyValueFor = (key: string): fc.Arbitrary<string | number | boolean> =>
  isTime(key) ? fc.constantFrom(...MS).chain((ms) => fc.constantFrom(String(ms), ms)) : key === 'pwnCount' ? fc.constantFrom(0, 5, '10', 7) : scalarFor(key);
const legacyComparisonArb = fc.constantFrom(...Object.keys(FIELDS)).chain((key) => {
  const types = numeric(key) ? (['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const) : (['eq', 'ne'] as const);
  return fc.record({ type: fc.constantFrom(...types), key: fc.constant(key), value: legacyValueFor(key) });
});
const legacyOrArb = fc
  .constantFrom(...Object.keys(FIELDS))
  .chain((key) => fc.array(legacyValueFor(key), { minLength: 1, maxLength: 3 }).map((values): LegacyFilter => ({ type: 'or', filters: values.map((value) => ({ type: 'eq', key, value })) })));
const legacyArb: fc.Arbitrary<LegacyFilter> = fc.oneof(
  legacyComparisonArb,
  legacyOrArb,
  fc.array(fc.oneof(legacyComparisonArb, legacyOrArb), { minLength: 1, maxLength: 4 }).map((filters): LegacyFilter => ({ type: 'and', filters })),
);

/** What the translation must refuse: an equality on a timestamp between two seconds, or one operator twice on a key in an "and". */
function untranslatable(filter: LegacyFilter): boolean {
  const comparisons = (node: LegacyFilter): { type: string; key: string; value: unknown }[] =>
    node.type === 'and' ? node.filters.flatMap(comparisons) : node.type === 'or' ? node.filters.flatMap(comparisons).map((c) => ({ ...c, type: 'or-eq' })) : [node as LegacyComparison];
  const all = comparisons(filter);
  if (all.some((c) => (c.type === 'eq' || c.type === 'ne' || c.type === 'or-eq') && isTime(c.key) && Number(c.value) % 1000 !== 0)) return true;
  const seen = new Set<string>();
  const groups = filter.type === 'and' ? filter.filters.map((child) => (child.type === 'or' ? { type: 'or', key: (child.filters[0] as { key: string }).key } : child)) : [];
  for (const g of groups as { type: string; key: string }[]) {
    const id = `${g.key}\u0000${g.type === 'or' ? '$in' : g.type}`;
    if (seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}

describe('legacy filter translation', () => {
  it('gives the same matches as the legacy filter, or refuses exactly what cannot be said in the new format', () => {
    fc.assert(
      fc.property(legacyArb, fc.array(recordArb, { maxLength: 12 }), (legacy, records) => {
        let translated: MetadataFilter;
        try {
          translated = translateLegacyFilter(legacy, FIELDS, '/filters');
        } catch (error) {
          expect(error).toBeInstanceOf(FilterError);
          expect(untranslatable(legacy)).toBe(true);
          return;
        }
        expect(untranslatable(legacy)).toBe(false);
        const run = compileFilter(parseMetadataFilter(translated, FIELDS));
        for (const record of records) expect(run(record as FilterRecord)).toBe(legacyMatches(legacy, toLegacyRecord(record)));
      }),
      { numRuns: 500 },
    );
  });

  it.each<[LegacyFilter, MetadataFilter]>([
    [{ type: 'eq', key: 'domain', value: 'adobe.com' }, { domain: { $eq: 'adobe.com' } }],
    [{ type: 'gte', key: 'breachDate', value: '1577836800000' }, { breachDate: { $gte: 1577836800 } }],
    [{ type: 'gt', key: 'timestamp', value: '1577836800500' }, { timestamp: { $gt: 1577836800 } }],
    [{ type: 'lt', key: 'timestamp', value: '1577836800500' }, { timestamp: { $lt: 1577836801 } }],
    [
      {
        type: 'and',
        filters: [
          { type: 'gte', key: 'breachDate', value: '1577836800000' },
          { type: 'eq', key: 'isSensitive', value: 'false' },
        ],
      },
      { breachDate: { $gte: 1577836800 }, isSensitive: { $eq: false } },
    ],
    [
      {
        type: 'or',
        filters: [
          { type: 'eq', key: 'dataClasses', value: 'Passwords' },
          { type: 'eq', key: 'dataClasses', value: 'Usernames' },
        ],
      },
      { dataClasses: { $in: ['Passwords', 'Usernames'] } },
    ],
  ])('translates %j', (legacy, expected) => {
    expect(translateLegacyFilter(legacy, FIELDS)).toEqual(expected);
  });

  it.each<[unknown, string, string]>([
    [
      {
        type: 'or',
        filters: [
          { type: 'eq', key: 'domain', value: 'a' },
          { type: 'eq', key: 'title', value: 'b' },
        ],
      },
      '/filters/filters/1/key',
      'same key',
    ],
    [{ type: 'or', filters: [{ type: 'gt', key: 'pwnCount', value: 1 }] }, '/filters/filters/0', 'not an "eq"'],
    [{ type: 'eq', key: 'breachDate', value: '1577836800500' }, '/filters/value', 'not a whole second'],
    [{ type: 'eq', key: 'breachDate', value: '2020-01-01' }, '/filters/value', 'whole number of milliseconds'],
    [
      {
        type: 'and',
        filters: [
          { type: 'eq', key: 'dataClasses', value: 'a' },
          { type: 'eq', key: 'dataClasses', value: 'b' },
        ],
      },
      '/filters/filters/1',
      'already has $eq',
    ],
    [{ type: 'like', key: 'domain', value: 'a' }, '/filters', 'unknown filter type "like"'],
    [{ type: 'gt', key: 'domain', value: 'a' }, '/filters/type', 'compares numbers'],
    [{ type: 'eq', key: 'colour', value: 'a' }, '/filters/key', 'unknown field "colour"'],
    [{ type: 'and', filters: [] }, '/filters/filters', 'non-empty list'],
  ])('refuses %j at %s', (legacy, pointer, message) => {
    try {
      translateLegacyFilter(legacy, FIELDS, '/filters');
      expect.unreachable('the filter was translated');
    } catch (error) {
      expect(error).toBeInstanceOf(FilterError);
      const issue = (error as FilterError).issues.find((i) => i.pointer === pointer);
      expect(issue?.message, JSON.stringify((error as FilterError).issues)).toContain(message);
    }
  });
});

describe('new filters sent to a legacy instance', () => {
  it('toLegacyFilter keeps the matches (checked by translating back and by the legacy model)', async () => {
    const { toLegacyFilter } = await import('../../../shared/search/index.ts');
    fc.assert(
      fc.property(filterArb, fc.array(recordArb, { maxLength: 12 }), (filter, records) => {
        const legacy = toLegacyFilter(parseMetadataFilter(filter, FIELDS), FIELDS);
        const run = compileFilter(filter);
        for (const record of records) {
          expect(legacy === undefined ? true : legacyMatches(legacy, toLegacyRecord(record))).toBe(run(record as FilterRecord));
        }
      }),
      { numRuns: 300 },
    );
  });
});
