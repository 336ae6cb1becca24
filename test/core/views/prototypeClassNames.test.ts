// Data class names are the service's text: `constructor`, `__proto__` or `toString` are names like
// any other, never keys that reach Object.prototype (a plain object would answer `constructor` as
// resolved, and take `__proto__` as its prototype).
import { describe, expect, it } from 'vitest';
import { dataClassLabel } from '../../../shared/api/index.ts';
import { getLocalBreach } from '../../../electron/core/queries/localQueries.ts';
import { toBreachDetail } from '../../../electron/core/views/breachViews.ts';
import { memoryDatabase, item, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'Passwords'];

describe('data classes named like Object.prototype members', () => {
  it('are unresolved until resolved, one by one, in the local state and in the detail view', () => {
    const db = memoryDatabase();
    snapshot(db, [item({ id: 'Odd', dataClasses: NAMES, accounts: { [A]: ['__proto__', 'Passwords'] } })]);
    const local = getLocalBreach(db, 'Odd')!;
    const state = local.breachedAccounts[0]!;
    expect(Object.keys(state.resolvedDataClasses).sort()).toEqual(['Passwords', '__proto__']);
    const cells = toBreachDetail(local, false, false).accounts[0]!.cells;
    // The detail's cells are keyed by display name (`dataClassLabel`), own properties each.
    const resolved = new Map(Object.entries(cells).map(([name, cell]) => [name, cell.resolved]));
    expect([...resolved].sort()).toEqual(
      [
        [dataClassLabel('constructor'), false],
        [dataClassLabel('__proto__'), true],
        [dataClassLabel('toString'), false],
        [dataClassLabel('hasOwnProperty'), false],
        ['Passwords', true],
      ].sort(),
    );
    expect(local.unresolved).toBe(3);
  });
});
