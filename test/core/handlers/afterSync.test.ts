import { describe, expect, it } from 'vitest';
import type { CoreNotification, DataChange } from '../../../shared/ipc/index.ts';
import { NotifierPolicy } from '../../../electron/core/notifications/NotifierPolicy.ts';
import { DataChanges } from '../../../electron/core/status/DataChanges.ts';
import { afterSync } from '../../../electron/core/handlers/afterSync.ts';
import { OnlineState } from '../../../electron/core/sync/OnlineState.ts';
import type { SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';
import { SyncStatusModel } from '../../../electron/core/sync/SyncStatusModel.ts';
import { NewBreachMarks } from '../../../electron/core/views/NewBreachMarks.ts';
import type { OutboxItem } from '../../../electron/core/outbox/types.ts';
import { item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';

function setup(failed: Pick<OutboxItem, 'breachId' | 'failure'>[] = []) {
  const db = memoryDatabase();
  const shown: CoreNotification[] = [];
  const announced: string[][] = [];
  const changes: DataChange[] = [];
  const published: number[] = [];
  const deps = {
    db,
    outbox: { items: () => failed as OutboxItem[] },
    syncStatus: new SyncStatusModel(),
    online: new OnlineState(),
    marks: new NewBreachMarks(),
    notifier: new NotifierPolicy({ show: (n) => shown.push(n), enabled: () => true }),
    changes: new DataChanges((change) => changes.push(change)),
    announceNewBreaches: (breaches: { id: string }[]) => void announced.push(breaches.map((b) => b.id)),
    publishStatus: () => void published.push(1),
  };
  return { db, deps, shown, announced, changes, published };
}

const report = (extra: Partial<SyncReport>): SyncReport => ({ trigger: 'manual', status: 'ok', push: undefined, pull: undefined, diff: undefined, startedAt: 0, finishedAt: 1, ...extra });
const flushed = (extra: Partial<NonNullable<SyncReport['push']>>): NonNullable<SyncReport['push']> => ({ status: 'done', requests: 1, delivered: 1, failed: 0, ...extra });

describe('afterSync', () => {
  it('a new snapshot with new breaches: marked, announced, notified, one data-changed for anything', () => {
    const { db, deps, shown, announced, changes } = setup();
    snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } })], '"v1"');
    const diff = snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } }), item({ id: 'Fresh', accounts: { [A]: [] } })], '"v2"');
    afterSync(report({ pull: { status: 'applied', diff, breaches: 2, bytes: 1 }, diff }), deps);
    expect(deps.marks.has('Fresh')).toBe(true);
    expect(announced).toEqual([['Fresh']]);
    expect(shown.map((n) => n.kind)).toEqual(['new-breach']);
    expect(changes).toEqual([{ reason: 'sync', revision: 1 }]);
  });

  it('a new sensitive breach reaches neither the banner nor the OS notification unless sensitive breaches are shown (issue 35, finding 9)', () => {
    const fresh = () => {
      const { db, deps, shown, announced } = setup();
      snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } })], '"v1"');
      const diff = snapshot(db, [item({ id: 'Old', accounts: { [A]: [] } }), item({ id: 'Loud', accounts: { [A]: [] } }), item({ id: 'Quiet', isSensitive: true, accounts: { [A]: [] } })], '"v2"');
      return { deps, shown, announced, report: report({ pull: { status: 'applied', diff, breaches: 3, bytes: 1 }, diff }) };
    };
    const hidden = fresh();
    afterSync(hidden.report, hidden.deps);
    expect(hidden.announced).toEqual([['Loud']]);
    // The notification outlives the window and shows on a locked screen: it names one breach, the loud one.
    expect(hidden.shown).toMatchObject([{ kind: 'new-breach', title: 'New breach: Loud' }]);
    expect(JSON.stringify(hidden.shown)).not.toContain('Quiet');

    const showing = fresh();
    afterSync(showing.report, { ...showing.deps, policy: { showSensitive: true } });
    expect(showing.announced).toEqual([['Loud', 'Quiet']]);
    expect(showing.shown).toMatchObject([{ kind: 'new-breach', title: '2 new breaches' }]);
  });

  it('a push: one data-changed naming the breaches it sent; refused changes notified', () => {
    const { deps, shown, changes } = setup([{ breachId: 'Adobe', failure: { status: 400, reason: 'unknown data class' } }]);
    afterSync(report({ trigger: 'push', push: flushed({ failed: 1, breachIds: ['Adobe', 'Canva'] }) }), deps);
    expect(changes).toEqual([{ reason: 'sync', breachIds: ['Adobe', 'Canva'], revision: 1 }]);
    expect(shown).toMatchObject([{ kind: 'resolution-failed', body: 'Adobe: unknown data class' }]);
  });

  it('nothing moved: no data event, only the sync line; a failure is remembered, and "offline" learned from its kind', () => {
    const { deps, changes, published } = setup();
    afterSync(report({ status: 'backoff', push: flushed({ status: 'backoff', requests: 0, delivered: 0, breachIds: [] }), error: 'could not reach the service', errorKind: 'offline' }), deps);
    expect(changes).toEqual([]);
    expect(published).toEqual([1]);
    expect(deps.online.online).toBe(false);
    expect(deps.syncStatus.view({ online: false, outbox: undefined, lastReport: undefined, db: undefined }).lastError).toBe('could not reach the service');
  });
});
