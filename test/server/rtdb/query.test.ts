// The query engine alone (server/rtdb/query.ts): Firebase's orders are total orders, and a page
// walk by key (limitToFirst + startAt from the last key) visits every child exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys, compareValues, parseQuery, QueryError, readWithin, ReadTimeoutError, runQuery } from '../../../server/rtdb/query.ts';
import { record, type DbValue } from '../../../server/rtdb/tree.ts';

const key = fc.oneof(fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }).map(String), fc.stringMatching(/^[A-Za-z0-9_-]{1,6}$/));
const leaf: fc.Arbitrary<DbValue> = fc.oneof(fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 4 }), fc.constant(record([['x', 1]])));
const sign = (n: number) => Math.sign(n) || 0;

describe('Firebase orders', () => {
  it('keys: a total order (antisymmetric, transitive), 32-bit integers before other keys', () => {
    fc.assert(
      fc.property(key, key, key, (a, b, c) => {
        expect(sign(compareKeys(a, b))).toBe(-sign(compareKeys(b, a)) || 0);
        if (compareKeys(a, b) <= 0 && compareKeys(b, c) <= 0) expect(compareKeys(a, c)).toBeLessThanOrEqual(0);
        expect(compareKeys(a, b) === 0).toBe(a === b);
      }),
    );
    expect(['b', '10', 'a', '-1', '9', '2147483648', 'A'].sort(compareKeys)).toEqual(['-1', '9', '10', '2147483648', 'A', 'a', 'b']);
  });

  it('values: null < false < true < numbers < strings < objects', () => {
    const ordered: DbValue[] = [null, false, true, -5, 0, 2.5, '', 'a', 'b', record([['z', 1]])];
    for (let i = 0; i + 1 < ordered.length; i++) expect(compareValues(ordered[i]!, ordered[i + 1]!), `${JSON.stringify(ordered[i])} < ${JSON.stringify(ordered[i + 1])}`).toBeLessThan(0);
    fc.assert(
      fc.property(leaf, leaf, (a, b) => {
        expect(sign(compareValues(a, b))).toBe(-sign(compareValues(b, a)) || 0);
      }),
    );
  });
});

describe('runQuery', () => {
  it('a walk by key, one page after another, answers every child exactly once', () => {
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 40 }), fc.integer({ min: 1, max: 7 }), (keys, size) => {
        const value = record(keys.map((k) => [k, 1] as const));
        const seen: string[] = [];
        let after: string | undefined;
        for (let guard = 0; guard <= keys.length + 1; guard++) {
          const params = new URLSearchParams({ orderBy: '"$key"', limitToFirst: String(size + 1), ...(after === undefined ? {} : { startAt: JSON.stringify(after) }) });
          const page = Object.keys(runQuery(value, parseQuery(params)!) as Record<string, DbValue>).sort(compareKeys);
          seen.push(...page.filter((k) => k !== after));
          if (page.length < size + 1) break;
          after = page.at(-1);
        }
        expect(seen).toEqual([...keys].sort(compareKeys));
      }),
    );
  });

  it('limitToLast of a child order keeps the largest, ties broken by key', () => {
    const value = record<DbValue>([
      ['b', record([['n', 2]])],
      ['a', record([['n', 2]])],
      ['c', record([['n', 1]])],
      ['d', record([['m', 9]])],
    ]);
    expect(Object.keys(runQuery(value, parseQuery(new URLSearchParams({ orderBy: '"n"', limitToLast: '2' }))!) as object)).toEqual(['a', 'b']);
    expect(Object.keys(runQuery(value, parseQuery(new URLSearchParams({ orderBy: '"n"', limitToFirst: '1' }))!) as object)).toEqual(['d']);
  });

  it('answers objects without a prototype, also for keys like __proto__', () => {
    const value = record<DbValue>([
      ['__proto__', 1],
      ['constructor', 2],
    ]);
    const answer = runQuery(value, parseQuery(new URLSearchParams({ orderBy: '"$key"' }))!) as Record<string, DbValue>;
    expect(Object.getPrototypeOf(answer)).toBeNull();
    expect(Object.keys(answer).sort()).toEqual(['__proto__', 'constructor']);
  });

  it.each([
    [{ orderBy: '"$key"', limitToFirst: '1.5' }, 'limitToFirst must be a positive integer'],
    [{ orderBy: '""' }, 'orderBy must be a valid JSON encoded path'],
    [{ orderBy: '"a/./b"' }, 'orderBy must be a valid JSON encoded path'],
    [{ orderBy: '"n"', equalTo: '1', startAt: '0' }, 'equalTo cannot be combined with startAt or endAt'],
    [{ orderBy: '"n"', startAt: '{"a":1}' }, 'startAt must be a JSON value: a "quoted string", a number, true, false or null'],
  ])('refuses %j', (params, message) => {
    expect(() => parseQuery(new URLSearchParams(params))).toThrow(new QueryError(message));
  });
});

describe('readWithin (timeout=)', () => {
  it('answers a read that finishes in time, and refuses one that does not', async () => {
    expect(await readWithin(1000, async () => 'done')).toBe('done');
    expect(await readWithin(undefined, async () => 'no limit')).toBe('no limit');
    const never = () => new Promise<string>(() => {});
    await expect(readWithin(20, never)).rejects.toEqual(new ReadTimeoutError('the read took longer than the timeout of 20 ms'));
    // A read that fails after its timeout answered leaves no unhandled rejection behind.
    const late = () => new Promise<string>((_, reject) => setTimeout(() => reject(new Error('late')), 40));
    await expect(readWithin(10, late)).rejects.toBeInstanceOf(ReadTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 60));
  });
});
