import { describe, expect, it } from 'vitest';
import { generateDemoCatalog } from '../../../server/catalog/demoCatalog.ts';
import { demoExposuresFor } from '../../../server/catalog/exposures.ts';
import type { Breach } from '../../../shared/api/index.ts';

const catalog = generateDemoCatalog();
const byId = new Map(catalog.map((b) => [b.id, b]));
const emails = Array.from({ length: 60 }, (_, i) => `person${i}@example.com`);

function breach(id: string, overrides: Partial<Breach> = {}): Breach {
  return {
    id,
    domain: `${id.toLowerCase()}.com`,
    breachDate: '2019-01-01',
    addedDate: '2019-02-01T00:00:00Z',
    modifiedDate: '2019-02-01T00:00:00Z',
    dataClasses: ['Email addresses', 'Names'],
    isSensitive: false,
    ...overrides,
  };
}

describe('demoExposuresFor', () => {
  it('is stable per email, whatever its case or the catalog order', () => {
    const first = demoExposuresFor('Alice@Example.com', catalog);
    expect(demoExposuresFor('alice@example.com', catalog)).toEqual(first);
    expect(demoExposuresFor(' ALICE@EXAMPLE.COM ', [...catalog].reverse())).toEqual(first);
    expect(demoExposuresFor('bob@example.com', catalog)).not.toEqual(first);
  });

  it('picks 5–25 known breaches, ordered by id, with a sensitive one and one with Passwords', () => {
    for (const email of emails) {
      const ids = demoExposuresFor(email, catalog);
      expect(ids.length).toBeGreaterThanOrEqual(5);
      expect(ids.length).toBeLessThanOrEqual(25);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const picked = ids.map((id) => byId.get(id));
      expect(picked.every((b) => b !== undefined)).toBe(true);
      expect(picked.some((b) => b?.isSensitive)).toBe(true);
      expect(picked.some((b) => b?.dataClasses.includes('Passwords'))).toBe(true);
    }
  });

  it('favours older breaches', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 400; i++) for (const id of demoExposuresFor(`user${i}@example.org`, catalog)) counts.set(id, (counts.get(id) ?? 0) + 1);
    const byAge = [...catalog].sort((a, b) => a.addedDate.localeCompare(b.addedDate));
    const oldest = byAge.slice(0, 60).reduce((sum, b) => sum + (counts.get(b.id) ?? 0), 0);
    const newest = byAge.slice(-60).reduce((sum, b) => sum + (counts.get(b.id) ?? 0), 0);
    expect(oldest).toBeGreaterThan(newest * 1.5);
  });

  it('honours min and max, and the catalog size', () => {
    expect(demoExposuresFor('a@example.com', catalog, { min: 3, max: 3 })).toHaveLength(3);
    expect(demoExposuresFor('a@example.com', catalog.slice(0, 2))).toHaveLength(2);
    expect(demoExposuresFor('a@example.com', [])).toEqual([]);
    expect(demoExposuresFor('a@example.com', catalog, { min: 0, max: 0 })).toEqual([]);
    expect(() => demoExposuresFor('a@example.com', catalog, { min: 5, max: 4 })).toThrow(RangeError);
  });

  it('still includes the only sensitive and the only Passwords breach of a large catalog', () => {
    const small = Array.from({ length: 200 }, (_, i) => breach(`Site${String(i).padStart(3, '0')}`));
    small.push(breach('Secret', { isSensitive: true }), breach('Leaky', { dataClasses: ['Email addresses', 'Passwords'] }));
    for (const email of emails.slice(0, 10)) {
      const ids = demoExposuresFor(email, small, { min: 2, max: 5 });
      expect(ids).toContain('Secret');
      expect(ids).toContain('Leaky');
    }
  });

  it('works without sensitive or Passwords breaches', () => {
    const plain = Array.from({ length: 30 }, (_, i) => breach(`Plain${i}`));
    expect(demoExposuresFor('a@example.com', plain).length).toBeGreaterThanOrEqual(5);
  });
});
