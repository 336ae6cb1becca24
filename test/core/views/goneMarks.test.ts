import { describe, expect, it } from 'vitest';
import { getSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import type { SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';
import { NewBreachMarks } from '../../../electron/core/views/NewBreachMarks.ts';
import { item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const synced = (diff: SyncReport['diff']): SyncReport => ({ trigger: 'manual', status: 'ok', push: undefined, pull: undefined, diff, startedAt: 0, finishedAt: 1 });

describe('NewBreachMarks and breaches the service removed', () => {
  it('drops the "New" mark of a breach that is gone, keeping the others', () => {
    const db = memoryDatabase();
    const marks = new NewBreachMarks();
    snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } })], '"v1"');
    marks.observeReport(db, synced(snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } }), item({ id: 'Gone', accounts: { [A]: [] } }), item({ id: 'Kept', accounts: { [A]: [] } })], '"v2"')));
    expect([...marks.ids].sort()).toEqual(['Gone', 'Kept']);
    expect(marks.observeReport(db, synced(snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } }), item({ id: 'Kept', accounts: { [A]: [] } })], '"v3"')))).toEqual([]);
    expect([...marks.ids]).toEqual(['Kept']);
    expect(JSON.parse(getSyncState(db, 'newBreachIds')!)).toEqual(['Kept']);
  });
});
