// What a snapshot writes, on any names and sizes: each breach's stored list of data classes is
// exactly JSON.stringify of the names it keeps (the writer joins it from each name's own JSON),
// and every row and account arrives whatever the batching (64 rows per statement, the rest one by one).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataClassKey } from '../../../shared/api/index.ts';
import { getLocalBreach } from '../../../electron/core/queries/localQueries.ts';
import { item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

/** Names a server may send: the usual ones in other spellings, empty or blank ones, quotes, escapes, any text. */
const name = fc.oneof(
  fc.constantFrom('Passwords', 'passwords', ' PASSWORDS ', 'Email addresses', '', '   ', 'Quote "marks"', 'Back\\slash', 'Line\u2028break', 'Ünïcödé', '\ud83d\ude00 emoji'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** The names a breach keeps: in order, the first spelling of each key, none whose key is empty. */
function kept(names: readonly string[]): string[] {
  const keys = new Set<string>();
  return names.filter((candidate) => {
    const key = dataClassKey(candidate);
    if (key === '' || keys.has(key)) return false;
    keys.add(key);
    return true;
  });
}

describe('applySnapshot on any names and sizes', () => {
  it('stores each breach with the names it keeps, exactly, and every account', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ dataClasses: fc.array(name, { maxLength: 6 }), accounts: fc.integer({ min: 0, max: 3 }) }), { maxLength: 140 }), fc.boolean(), (specs, again) => {
        const db = memoryDatabase();
        const items = specs.map((spec, i) =>
          item({ id: `Breach${i}`, dataClasses: spec.dataClasses, accounts: Object.fromEntries(Array.from({ length: spec.accounts }, (_, j) => [`user${j}@example.com`, []])) }),
        );
        // A second snapshot writes over the first, as every later sync does.
        if (again) snapshot(db, items.slice(0, 3), '"v0"');
        snapshot(db, items);
        const stored = new Map(db.prepare('SELECT id, data_classes FROM breaches').raw().all() as [string, string][]);
        expect(stored.size).toBe(items.length);
        for (const [i, spec] of specs.entries()) {
          const names = kept(spec.dataClasses);
          expect(stored.get(`Breach${i}`)).toBe(JSON.stringify(names));
          const local = getLocalBreach(db, `Breach${i}`)!;
          expect(local.breach.dataClasses).toEqual(names);
          expect(local.breachedAccounts.map((account) => account.email)).toEqual(Array.from({ length: spec.accounts }, (_, j) => `user${j}@example.com`));
        }
      }),
      { numRuns: 60 },
    );
  });
});
