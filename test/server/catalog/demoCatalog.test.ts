import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Breach, dataClassKey } from '../../../shared/api/index.ts';
import { compareDataClassNames } from '../../../server/catalog/dataClasses.ts';
import { DEFAULT_DEMO_COUNT, DEMO_PROPORTIONS, generateDemoCatalog } from '../../../server/catalog/demoCatalog.ts';
import { DEMO_CATALOG_FILE, formatCatalogJson, readCatalogFile } from '../../../server/catalog/demoCatalogFile.ts';

function expectWellFormed(catalog: Breach[], count: number): void {
  expect(catalog).toHaveLength(count);
  const ids = catalog.map((b) => b.id);
  expect(new Set(ids).size).toBe(count);
  expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  for (const breach of catalog) {
    expect(Breach.safeParse(breach).error).toBeUndefined();
    expect(breach.dataClasses).toContain('Email addresses');
    expect(breach.dataClasses.length).toBeGreaterThanOrEqual(2);
    expect(breach.dataClasses.length).toBeLessThanOrEqual(9);
    expect(breach.dataClasses).toEqual([...breach.dataClasses].sort(compareDataClassNames));
    expect(new Set(breach.dataClasses.map(dataClassKey)).size).toBe(breach.dataClasses.length);
    expect(breach.breachDate < breach.addedDate.slice(0, 10)).toBe(true);
    expect(breach.breachDate >= '2008-01-01').toBe(true);
    expect(breach.modifiedDate >= breach.addedDate).toBe(true);
    expect(breach.modifiedDate <= '2026-12-31T23:59:00Z').toBe(true);
    expect(breach.addedDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
    // A name reserved for examples (RFC 2606): a demo link can never reach a real or registrable site.
    if (breach.domain !== '') expect(breach.domain).toMatch(/^[a-z0-9]+\.example$/);
  }
  expect(catalog.filter((b) => b.isSensitive)).toHaveLength(Math.round(count * DEMO_PROPORTIONS.sensitive));
  expect(catalog.filter((b) => b.domain === '')).toHaveLength(Math.round(count * DEMO_PROPORTIONS.emptyDomain));
  expect(catalog.filter((b) => b.modifiedDate !== b.addedDate)).toHaveLength(Math.round(count * DEMO_PROPORTIONS.modified));
}

describe('generateDemoCatalog', () => {
  it('is deterministic per seed and differs across seeds', () => {
    expect(generateDemoCatalog()).toEqual(generateDemoCatalog());
    expect(generateDemoCatalog({ seed: 7 })).toEqual(generateDemoCatalog({ seed: 7 }));
    expect(generateDemoCatalog({ seed: 7 })).not.toEqual(generateDemoCatalog({ seed: 8 }));
  });

  it('gives a well-formed default catalog with the stated proportions', () => {
    const catalog = generateDemoCatalog();
    expectWellFormed(catalog, DEFAULT_DEMO_COUNT);
    // Sensitive 10 %, empty domain 2 %, modified 15 % of 300.
    expect([catalog.filter((b) => b.isSensitive).length, catalog.filter((b) => b.domain === '').length]).toEqual([30, 6]);
  });

  it('looks like real data: Passwords common, ~40 classes in use, repeated domains', () => {
    const catalog = generateDemoCatalog();
    const share = catalog.filter((b) => b.dataClasses.includes('Passwords')).length / catalog.length;
    expect(share).toBeGreaterThan(0.6);
    expect(share).toBeLessThan(0.85);
    expect(new Set(catalog.flatMap((b) => b.dataClasses)).size).toBeGreaterThanOrEqual(35);
    const domains = catalog.map((b) => b.domain).filter((d) => d !== '');
    expect(new Set(domains).size).toBeLessThan(domains.length);
    const years = new Set(catalog.map((b) => b.breachDate.slice(0, 4)));
    expect(years.size).toBeGreaterThanOrEqual(15);
  });

  it('scales to benchmark sizes with unique ids', () => {
    expectWellFormed(generateDemoCatalog({ count: 2500 }), 2500);
  });

  it('holds its rules for any seed and size', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 400 }), (seed, count) => {
        expectWellFormed(generateDemoCatalog({ seed, count }), count);
      }),
      { numRuns: 30 },
    );
  });

  it('refuses impossible options', () => {
    expect(() => generateDemoCatalog({ count: -1 })).toThrow(RangeError);
    expect(() => generateDemoCatalog({ count: 1.5 })).toThrow(RangeError);
    expect(() => generateDemoCatalog({ count: 1_000_000 })).toThrow(RangeError);
    expect(() => generateDemoCatalog({ seed: 0.5 })).toThrow(RangeError);
  });
});

describe('resources/demo-catalog.json', () => {
  it('is exactly the generator output (regenerate with: node server/catalog/writeDemoCatalog.ts)', () => {
    expect(readFileSync(DEMO_CATALOG_FILE, 'utf8')).toBe(formatCatalogJson(generateDemoCatalog()));
  });

  it('reads back as valid Breach records', () => {
    expect(readCatalogFile()).toEqual(generateDemoCatalog());
  });
});
