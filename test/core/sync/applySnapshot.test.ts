import { describe, expect, it } from 'vitest';
import { getSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { Outbox } from '../../../electron/core/outbox/Outbox.ts';
import { getLocalBreach, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { diffSnapshot } from '../../../electron/core/sync/diff.ts';
import { FROZEN_NOW, item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const B = 'b@example.com';

const neverSends = { postResolutions: () => Promise.reject(new Error('not in this test')) };

describe('applySnapshot', () => {
  it('treats the first snapshot as a baseline: everything stored, nothing announced', () => {
    const db = memoryDatabase();
    const diff = snapshot(db, [item({ id: 'Alpha', accounts: { [A]: [] } }), item({ id: 'Beta', accounts: { [B]: ['Passwords'] } })]);
    expect(diff).toEqual({ baseline: true, newBreaches: [], modifiedBreaches: [], goneBreaches: [] });
    expect(queryBreaches(db).total).toBe(2);
    expect(getSyncState(db, 'etag')).toBe('"v1"');
    expect(getSyncState(db, 'baselineAt')).toBe(FROZEN_NOW.toISOString());
  });

  it('writes a snapshot of many rows whole (rows go in by the batch, the rest at the end), each with its own accounts', () => {
    const db = memoryDatabase();
    // 64 rows per batch: 2 whole batches and a tail of breaches; accounts in batches of their own.
    const items = Array.from({ length: 2 * 64 + 7 }, (_, i) => item({ id: `Breach${String(i).padStart(3, '0')}`, accounts: i % 3 === 0 ? { [A]: ['Passwords'], [B]: [] } : { [A]: [] } }));
    snapshot(db, items);
    const stored = queryBreaches(db, { includeSensitive: true, sort: 'name', limit: 1000 });
    expect(stored.total).toBe(items.length);
    expect(stored.items.map((row) => row.breach.id)).toEqual(items.map((row) => row.breach.id));
    for (const [i, row] of stored.items.entries()) {
      expect(row.breachedAccounts.map((account) => account.email)).toEqual(i % 3 === 0 ? [A, B] : [A]);
      expect(row.unresolved).toBe(i % 3 === 0 ? 3 : 2);
    }
    expect(Object.keys(getLocalBreach(db, 'Breach129')!.breachedAccounts[0]!.resolvedDataClasses)).toEqual(['Passwords']);
  });

  it('then reports new, modified and gone breaches', () => {
    const db = memoryDatabase();
    snapshot(db, [item({ id: 'Alpha', accounts: { [A]: [] } }), item({ id: 'Beta', accounts: { [A]: [] } }), item({ id: 'Gamma', accounts: { [A]: [] } })]);
    const diff = snapshot(
      db,
      [
        item({ id: 'Alpha', accounts: { [A]: ['Passwords'] } }), // state changed, breach did not
        item({ id: 'Beta', modifiedDate: '2024-06-01T00:00:00Z', accounts: { [A]: [] } }),
        item({ id: 'Delta', accounts: { [A]: [] } }),
      ],
      '"v2"',
    );
    expect(diff.baseline).toBe(false);
    expect(diff.newBreaches.map((b) => b.id)).toEqual(['Delta']);
    expect(diff.modifiedBreaches.map((b) => b.id)).toEqual(['Beta']);
    expect(diff.goneBreaches).toEqual(['Gamma']);
    expect(getSyncState(db, 'etag')).toBe('"v2"');
  });

  it('does not announce a breach again when it leaves and comes back', () => {
    const db = memoryDatabase();
    snapshot(db, [item({ id: 'Alpha', accounts: { [A]: [] } })]);
    snapshot(db, [], '"v2"');
    expect(snapshot(db, [item({ id: 'Alpha', accounts: { [A]: [] } })], '"v3"').newBreaches).toEqual([]);
  });

  it('compares modifiedDate as an instant, not as text', () => {
    expect(diffSnapshot(new Map([['X', '2024-01-01T10:00:00Z']]), [{ ...item({ id: 'X', accounts: {} }).breach, modifiedDate: '2024-01-01T11:00+01:00' }], new Set(), false)).toEqual({
      baseline: false,
      newBreaches: [],
      modifiedBreaches: [],
      goneBreaches: [],
    });
  });

  it('tolerates what other servers may send: any case, duplicates, no resolvedAt, names the breach lacks', () => {
    const db = memoryDatabase();
    const odd = item({ id: 'Alpha', dataClasses: ['Email addresses', 'Passwords', 'passwords'], accounts: {} });
    odd.breachedAccounts = [
      { email: 'A@Example.com', resolvedDataClasses: { PASSWORDS: {}, 'Shoe sizes': { resolvedAt: '2025-01-01T00:00:00Z' } } },
      { email: 'a@example.com', resolvedDataClasses: {} },
    ];
    snapshot(db, [odd, item({ id: 'Alpha', accounts: { [B]: [] } })]);
    const local = getLocalBreach(db, 'Alpha')!;
    expect(local.breach.dataClasses).toEqual(['Email addresses', 'Passwords']);
    expect(local.breachedAccounts).toEqual([{ email: A, resolvedDataClasses: { Passwords: {}, 'Shoe sizes': { resolvedAt: '2025-01-01T00:00:00Z' } }, pending: [], failed: [] }]);
    expect(local.unresolved).toBe(1);
  });

  it('leaves the previous snapshot whole when a write fails', () => {
    const db = memoryDatabase();
    snapshot(db, [item({ id: 'Alpha', accounts: { [A]: [] } })]);
    expect(() => snapshot(db, [item({ id: 'Beta', accounts: { [A]: [] } }), item({ id: '', accounts: { [A]: [] } })], '"broken"')).toThrow(/CHECK/);
    expect(queryBreaches(db).items.map((i) => i.breach.id)).toEqual(['Alpha']);
    expect(getSyncState(db, 'etag')).toBe('"v1"');
  });

  it("never overwrites the person's pending changes: the new snapshot is shown under them", () => {
    const db = memoryDatabase();
    snapshot(db, [item({ id: 'Alpha', accounts: { [A]: [], [B]: [] } })]);
    new Outbox({ db, sender: neverSends, now: () => FROZEN_NOW.getTime() }).record([{ breachId: 'Alpha', emails: [A], dataClasses: ['passwords'], resolved: true }]);
    // The service still says nothing is resolved, and B resolved Email addresses elsewhere.
    snapshot(db, [item({ id: 'Alpha', accounts: { [A]: [], [B]: ['Email addresses'] } })], '"v2"');
    const local = getLocalBreach(db, 'Alpha')!;
    expect(local.breachedAccounts).toEqual([
      { email: A, resolvedDataClasses: { Passwords: {} }, pending: ['Passwords'], failed: [] },
      { email: B, resolvedDataClasses: { 'Email addresses': { resolvedAt: '2025-01-01T00:00:00Z' } }, pending: [], failed: [] },
    ]);
    expect(queryBreaches(db, { unresolvedDataClasses: ['Passwords'] }).items.map((i) => i.breach.id)).toEqual(['Alpha']);
    expect(queryBreaches(db, { unresolvedDataClasses: ['Passwords'], email: A }).total).toBe(0);
  });
});
