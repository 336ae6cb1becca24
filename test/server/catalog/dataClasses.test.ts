import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataClassKey } from '../../../shared/api/index.ts';
import { compareDataClassNames, normalizeDataClasses } from '../../../server/catalog/dataClasses.ts';
import { createRng, hashString } from '../../../server/catalog/prng.ts';

describe('normalizeDataClasses', () => {
  it('orders case-insensitively, trims and keeps the first spelling of a key', () => {
    expect(normalizeDataClasses(['passwords', 'IP addresses', ' Email addresses ', 'Passwords', 'ip Addresses'])).toEqual(['Email addresses', 'IP addresses', 'passwords']);
  });

  it('is idempotent and sorted with unique keys for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 12 })), (names) => {
        const once = normalizeDataClasses(names);
        expect(normalizeDataClasses(once)).toEqual(once);
        expect(new Set(once.map(dataClassKey)).size).toBe(once.length);
        for (let i = 1; i < once.length; i++) expect(compareDataClassNames(once[i - 1] as string, once[i] as string)).toBeLessThan(0);
      }),
    );
  });
});

describe('prng', () => {
  it('repeats a sequence per seed and stays in range', () => {
    const a = createRng(42);
    const b = createRng(42);
    const values = Array.from({ length: 100 }, () => a.next());
    expect(Array.from({ length: 100 }, () => b.next())).toEqual(values);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const rng = createRng(1);
    for (let i = 0; i < 1000; i++) {
      const n = rng.int(3, 5);
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
    }
  });

  it('pins the first values, so demo data cannot change silently with the generator', () => {
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('alice@example.com')).toBe(2493822278);
    const rng = createRng(0);
    expect([rng.next(), rng.next(), rng.next()]).toEqual([0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]);
  });

  it('draws by weight and never picks a zero weight', () => {
    const rng = createRng(9);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[rng.weightedIndex([1, 0, 3])]!++;
    expect(counts[1]).toBe(0);
    expect(counts[2]! / counts[0]!).toBeGreaterThan(2.4);
    expect(counts[2]! / counts[0]!).toBeLessThan(3.6);
  });
});
