import { describe, expect, it } from 'vitest';
import { getSyncState, setSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import type { SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';
import { NewBreachMarks } from '../../../electron/core/views/NewBreachMarks.ts';
import { item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const B = 'b@example.com';

function synced(diff: SyncReport['diff']): SyncReport {
  return { trigger: 'manual', status: 'ok', push: undefined, pull: undefined, diff, startedAt: 0, finishedAt: 1 };
}

describe('NewBreachMarks', () => {
  it('marks nothing after the baseline sync of a new account', () => {
    const db = memoryDatabase();
    const marks = new NewBreachMarks();
    const diff = snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } })]);
    expect(diff.baseline).toBe(true);
    expect(marks.observeReport(db, synced(diff))).toEqual([]);
    expect(marks.has('Old')).toBe(false);
  });

  it('marks what a later sync brought, with the emails for the notice, and keeps it in the database', () => {
    const db = memoryDatabase();
    snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } })], '"v1"');
    const diff = snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } }), item({ id: 'Fresh', breachDate: '2026-03-01', dataClasses: ['Passwords'], accounts: { [B]: [], [A]: [] } })], '"v2"');
    const marks = new NewBreachMarks();
    expect(marks.observeReport(db, synced(diff))).toEqual([{ id: 'Fresh', breachDate: '2026-03-01', dataClasses: ['Passwords'], emails: [A, B] }]);
    expect([...marks.ids]).toEqual(['Fresh']);
    expect(JSON.parse(getSyncState(db, 'newBreachIds')!)).toEqual(['Fresh']);

    const reopened = new NewBreachMarks();
    reopened.load(db);
    expect(reopened.has('Fresh')).toBe(true);
  });

  it('keeps the marks through syncs that bring nothing new, and replaces them when one does', () => {
    const db = memoryDatabase();
    snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } })], '"v1"');
    const marks = new NewBreachMarks();
    marks.observeReport(db, synced(snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } }), item({ id: 'First', accounts: { [A]: [] } })], '"v2"')));
    expect(marks.observeReport(db, synced(undefined))).toEqual([]);
    expect(marks.has('First')).toBe(true);
    marks.observeReport(db, synced(snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } }), item({ id: 'First', accounts: { [A]: [] } }), item({ id: 'Second', accounts: { [A]: [] } })], '"v3"')));
    expect([...marks.ids]).toEqual(['Second']);
  });

  it('reads a damaged record as no marks, and clears on sign-out', () => {
    const db = memoryDatabase();
    const marks = new NewBreachMarks();
    setSyncState(db, 'newBreachIds', '{not json');
    marks.load(db);
    expect(marks.ids.size).toBe(0);
    setSyncState(db, 'newBreachIds', JSON.stringify(['X', 3, null]));
    marks.load(db);
    expect([...marks.ids]).toEqual(['X']);
    marks.clear();
    expect(marks.has('X')).toBe(false);
  });
});
