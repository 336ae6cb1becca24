// What only the SQLite store has: the query plans of its per-request lookups, and lookups that
// stay complete at benchmark scale. The rules it shares with the PostgreSQL store are in
// breachStore.contract.test.ts, run on both.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDemoCatalog } from '../../../server/catalog/demoCatalog.ts';
import type { ResolutionChange } from '../../../server/breaches/BreachStore.ts';
import type { SqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';
import { breach, memoryStore } from './helpers.ts';

const T1 = '2026-02-01T10:00:00Z';

function change(email: string, breachId: string, dataClass: string, resolved = true): ResolutionChange {
  return { email, breachId, dataClass, resolved };
}

let store: SqliteBreachStore;
beforeEach(() => {
  store = memoryStore([breach('Adobe'), breach('LinkedIn', { dataClasses: ['Email addresses', 'Passwords'] })]);
});
afterEach(() => store.close());

describe('query plans', () => {
  it('looks resolutions up through the primary key index, not a scan', () => {
    const plan = store._explainQueryPlan('resolutions');
    expect(plan.some((line) => /SEARCH resolutions USING PRIMARY KEY \(email=\?\)/.test(line))).toBe(true);
    expect(plan.some((line) => /SCAN resolutions/.test(line))).toBe(false);
    expect(plan.some((line) => /TEMP B-TREE/.test(line))).toBe(false);
  });

  it('looks exposures up through the primary key indexes', () => {
    const plan = store._explainQueryPlan('exposures');
    expect(plan.some((line) => /SEARCH r USING PRIMARY KEY \(email=\?\)/.test(line))).toBe(true);
    expect(plan.some((line) => /SEARCH e USING PRIMARY KEY \(email=\?\)/.test(line))).toBe(true);
    expect(plan.some((line) => /SCAN (r|e)\b|TEMP B-TREE/.test(line))).toBe(false);
  });
});

describe('at benchmark scale (20 emails × 2,000 breaches)', () => {
  // Timings belong to bench:server; this checks the lookups stay complete at that scale.
  it('answers per-request lookups completely', () => {
    const catalog = generateDemoCatalog({ count: 2000 });
    const big = memoryStore(catalog);
    try {
      const emails = Array.from({ length: 20 }, (_, i) => `user${i}@example.com`);
      const others = Array.from({ length: 40 }, (_, i) => `other${i}@example.com`);
      for (const email of [...emails, ...others])
        big.setExposures(
          email,
          catalog.map((b) => b.id),
        );
      const changes = [...emails, ...others].flatMap((email) => catalog.filter((_, i) => i % 4 === 0).map((b) => change(email, b.id, b.dataClasses[0]!)));
      big.applyResolutionChanges(changes, T1);

      const exposures = big.getExposures(emails);
      expect(exposures.size).toBe(20);
      for (const ids of exposures.values()) expect(ids).toHaveLength(2000);
      expect(big.getResolutions(emails)).toHaveLength(20 * 500);
    } finally {
      big.close();
    }
  });
});
