import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyProblem, parseDbPath } from '../../../server/rtdb/paths.ts';
import { createPushIdGenerator } from '../../../server/rtdb/pushIds.ts';
import { childOf, flatten, unflatten, withChild, type DbValue } from '../../../server/rtdb/tree.ts';

const key = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => keyProblem(k) === undefined && !/^\d+$/.test(k));
/** Values as the database gives them back: no nulls, no empty containers, dense arrays. */
const stored: fc.Arbitrary<DbValue> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    tie('object'),
    tie('array'),
  ),
  object: fc.dictionary(key, tie('value') as fc.Arbitrary<DbValue>, { minKeys: 1, maxKeys: 4 }),
  array: fc.array(tie('value') as fc.Arbitrary<DbValue>, { minLength: 1, maxLength: 4 }),
})).value as fc.Arbitrary<DbValue>;

describe('flatten and unflatten', () => {
  it('round-trip any stored value at any location', () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 3 }), stored, (at, value) => {
        expect(
          unflatten(
            at,
            flatten(at, value).sort((a, b) => (a.path < b.path ? -1 : 1)),
          ),
        ).toEqual(value);
      }),
    );
  });

  it('store nothing for null and empty containers, and refuse what JSON cannot hold', () => {
    expect(flatten(['a'], { b: null, c: {}, d: [] })).toEqual([]);
    expect(() => flatten(['a'], { 'b.c': 1 })).toThrow('key "b.c" contains');
    expect(() => flatten(['a'], Number.POSITIVE_INFINITY)).toThrow('not a finite number');
  });

  it('turn mostly-dense integer keys into arrays, sparse ones stay objects', () => {
    expect(unflatten([], flatten([], { a: { 0: 'x', 2: 'z' } }))).toEqual({ a: ['x', null, 'z'] });
    expect(unflatten([], flatten([], { a: { 0: 'x', 5: 'z' } }))).toEqual({ a: { 0: 'x', 5: 'z' } });
  });

  it('withChild and childOf agree', () => {
    fc.assert(
      fc.property(stored, fc.array(key, { minLength: 1, maxLength: 3 }), stored, (tree, at, child) => {
        expect(childOf(withChild(tree, at, child), at)).toEqual(child);
      }),
    );
  });
});

describe('parseDbPath', () => {
  it('splits on slashes and refuses forbidden keys', () => {
    expect(parseDbPath('/users//alice/')).toEqual(['users', 'alice']);
    for (const bad of ['a.b', 'a$', 'a#', 'a[', 'a]', 'a\u0001']) expect(() => parseDbPath(`x/${bad}`)).toThrow('contains one of');
    expect(() => parseDbPath('x'.repeat(769))).toThrow('longer than 768 bytes');
  });
});

describe('push ids', () => {
  it('sort in creation order, also within one millisecond and when the clock steps back', () => {
    const t = 1_700_000_000_000;
    const times = [0, 0, 0, 1, -5, 2];
    let i = 0;
    const next = createPushIdGenerator(() => t + times[i++ % times.length]!);
    const ids = Array.from({ length: 60 }, next);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
