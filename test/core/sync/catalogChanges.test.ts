// What the app keeps of the service's catalog changes (issue 25): the snapshot's "removed from
// the catalog" marks, the changes it has not shown yet (the ones from before the account's first
// sync here count as seen), their sentences, and dismissal up to a change. Puller against servers
// with and without GET /user/catalog-changes.
import { describe, expect, it } from 'vitest';
import type { CatalogChange } from '../../../shared/api/index.ts';
import { readServerBreaches } from '../../../electron/core/api/serverBreaches.ts';
import { applySnapshot } from '../../../electron/core/sync/applySnapshot.ts';
import { catalogNoticeOf, describeChange, dismissCatalogChanges, recordCatalogChanges, removedFromCatalog } from '../../../electron/core/sync/catalogChanges.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import type { CatalogChangesAnswer } from '../../../electron/core/api/BreachAlertClient.ts';
import { item, memoryDatabase } from '../helpers/fixtures.ts';

const A = 'a@example.com';

function change(id: number, overrides: Partial<CatalogChange> = {}): CatalogChange {
  return { id, at: '2026-03-01T12:00:00.000Z', email: A, from: 'demo', to: 'file', removedFromCatalog: ['Gone'], inventedRemoved: [], resolutionsKept: 0, resolutionsRemoved: 0, ...overrides };
}

describe('catalog changes in the app', () => {
  it('reads removedFromCatalogAt from the service (one-pass reader and schema alike) and keeps it per breach', () => {
    const served = [{ ...item({ id: 'Gone', accounts: { [A]: ['Passwords'] } }), removedFromCatalogAt: '2026-03-01T12:00:00.000Z' }, item({ id: 'Here', accounts: { [A]: [] } })];
    const read = readServerBreaches(JSON.parse(JSON.stringify(served)));
    expect(read.ok && read.items.map((entry) => entry.removedFromCatalogAt)).toEqual(['2026-03-01T12:00:00.000Z', undefined]);
    expect(readServerBreaches([{ ...served[1], removedFromCatalogAt: '' }]).ok).toBe(false);
    const db = memoryDatabase();
    applySnapshot(db, { items: read.ok ? read.items : [], etag: '"v1"' });
    expect(removedFromCatalog(db)).toEqual(new Map([['Gone', '2026-03-01T12:00:00.000Z']]));
    applySnapshot(db, { items: [item({ id: 'Here', accounts: { [A]: [] } })], etag: '"v2"' });
    expect(removedFromCatalog(db)).toEqual(new Map());
  });

  it('takes changes from before the first sync as seen, shows later ones until dismissed up to a change', () => {
    const db = memoryDatabase();
    recordCatalogChanges(db, [change(1), change(2)], true);
    expect(catalogNoticeOf(db)).toBeUndefined();
    recordCatalogChanges(db, [change(1), change(2), change(3), change(4, { removedFromCatalog: [], inventedRemoved: ['Adobe', 'Canva'], resolutionsRemoved: 2, to: 'hibp' })], false);
    expect(catalogNoticeOf(db)).toEqual({
      upTo: 4,
      lines: [
        'The service switched from the demo catalog to a catalog file: 1 breach of a@example.com was removed from the catalog; it stays in your list, marked “Removed from the catalog”, and your resolutions are kept.',
        'The service switched from the demo catalog to Have I Been Pwned’s catalog: 2 invented demo breaches of a@example.com were removed because the service now uses real breach data, with 2 resolutions made on them.',
      ],
    });
    // A change that arrived after the notice was drawn stays when it is dismissed.
    recordCatalogChanges(db, [change(3), change(4), change(5, { from: 'file' })], false);
    dismissCatalogChanges(db, 4);
    expect(catalogNoticeOf(db)?.lines).toEqual([
      'The service’s catalog changed: 1 breach of a@example.com was removed from the catalog; it stays in your list, marked “Removed from the catalog”, and your resolutions are kept.',
    ]);
    dismissCatalogChanges(db, 5);
    recordCatalogChanges(db, [change(3), change(4), change(5)], false);
    expect(catalogNoticeOf(db)).toBeUndefined();
  });

  it('words counts and kept resolutions', () => {
    expect(describeChange(change(1, { removedFromCatalog: ['A', 'B'], resolutionsKept: 1, from: null }))).toBe(
      'The service’s catalog changed: 2 breaches of a@example.com were removed from the catalog; they stay in your list, marked “Removed from the catalog”, and your resolutions are kept (1 resolved data class).',
    );
  });

  it('pulls the changes after a new snapshot; a server without them (404) or failing to answer leaves the snapshot applied', async () => {
    const list = { status: 200 as const, etag: '"v1"', items: [item({ id: 'Here', accounts: { [A]: [] } })], bytes: 1 };
    let answer: () => Promise<CatalogChangesAnswer | undefined> = async () => ({ changes: [change(7)] });
    let asked = 0;
    const db = memoryDatabase();
    const puller = new Puller({
      db,
      client: {
        listBreaches: async () => ({ ...list, etag: `"v${++asked}"` }),
        catalogChanges: () => answer(),
      },
    });
    await puller.pull();
    expect(catalogNoticeOf(db)).toBeUndefined(); // the first sync: seen
    answer = async () => ({ changes: [change(7), change(8)] });
    await puller.pull();
    expect(catalogNoticeOf(db)?.upTo).toBe(8);
    answer = async () => undefined; // a server without the endpoint
    expect((await puller.pull()).status).toBe('applied');
    expect(catalogNoticeOf(db)?.upTo).toBe(8);
    answer = () => Promise.reject(new ApiError('network', 'could not reach the service'));
    expect((await puller.pull()).status).toBe('applied');
  });
});
