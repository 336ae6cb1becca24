import { SyncStatus } from '../../../shared/ipc/views.ts';
import { isOlderView } from '../../../shared/ipc/viewOrder.ts';
import { describe, expect, it } from 'vitest';
import { setSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { OnlineState } from '../../../electron/core/sync/OnlineState.ts';
import type { SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';
import { storedLastSyncAt, SyncStatusModel } from '../../../electron/core/sync/SyncStatusModel.ts';
import { memoryDatabase } from '../helpers/fixtures.ts';

function report(extra: Partial<SyncReport>): SyncReport {
  return { trigger: 'manual', status: 'ok', push: undefined, pull: undefined, diff: undefined, startedAt: 1_000, finishedAt: 2_000, ...extra };
}

const NONE = { online: true, outbox: undefined, lastReport: undefined, db: undefined };

describe('SyncStatusModel', () => {
  it('is idle with nothing to say before anything happened', () => {
    expect(new SyncStatusModel().view(NONE)).toEqual({ online: true, phase: 'idle', pending: 0, failed: 0, seq: expect.any(Number) });
  });

  it('follows the phases of a run, with the push’s progress', () => {
    const model = new SyncStatusModel();
    model.observeProgress({ phase: 'push', trigger: 'manual', push: { phase: 'push', requests: 1, plannedRequests: 3, delivered: 10, failed: 0, remaining: 20 } });
    expect(model.view(NONE)).toMatchObject({ phase: 'pushing', progress: { done: 1, total: 3 } });
    model.observeProgress({ phase: 'pull', trigger: 'manual' });
    expect(model.view(NONE)).toMatchObject({ phase: 'pulling' });
    expect(model.view(NONE).progress).toBeUndefined();
    model.observeProgress({ phase: 'apply', trigger: 'manual', breaches: 5 });
    expect(model.view(NONE).phase).toBe('applying');
    model.observeProgress({ phase: 'done', trigger: 'manual', status: 'ok' });
    expect(model.view(NONE).phase).toBe('idle');
  });

  it('keeps the last failure until a sync succeeds; a cancelled one clears it too', () => {
    const model = new SyncStatusModel();
    model.observeReport(report({ status: 'backoff', error: 'could not reach the service', errorKind: 'offline' }));
    expect(model.view(NONE).lastError).toBe('could not reach the service');
    model.observeReport(report({ status: 'ok' }));
    expect(model.view(NONE).lastError).toBeUndefined();
    model.observeReport(report({ status: 'sign-in-needed', error: 'Sign in to sync.', errorKind: 'auth-needed' }));
    model.observeReport(report({ status: 'cancelled', error: 'cancelled', errorKind: 'cancelled' }));
    expect(model.view(NONE).lastError).toBeUndefined();
  });

  it('forgets a previous account on reset', () => {
    const model = new SyncStatusModel();
    model.observeReport(report({ status: 'error', error: 'disk full', errorKind: 'internal' }));
    model.observeProgress({ phase: 'pull', trigger: 'manual' });
    model.reset();
    expect(model.view(NONE)).toEqual({ online: true, phase: 'idle', pending: 0, failed: 0, seq: expect.any(Number) });
  });

  it('counts the outbox and dates the last success from the report, else from the database', () => {
    const db = memoryDatabase();
    const model = new SyncStatusModel();
    expect(model.view({ ...NONE, db }).lastSyncAt).toBeUndefined();
    setSyncState(db, 'lastSyncAt', '2026-01-02T03:04:05.000Z');
    expect(model.view({ ...NONE, db, outbox: { pending: 2, sending: 1, failed: 4 } })).toMatchObject({ lastSyncAt: '2026-01-02T03:04:05.000Z', pending: 3, failed: 4 });
    expect(model.view({ ...NONE, db, lastReport: report({ finishedAt: Date.parse('2026-05-01T00:00:00Z') }) }).lastSyncAt).toBe('2026-05-01T00:00:00.000Z');
    expect(model.view({ ...NONE, db, lastReport: report({ status: 'backoff' }) }).lastSyncAt).toBe('2026-01-02T03:04:05.000Z');
  });

  it('reads a stored time as epoch milliseconds or ISO text, and ignores garbage', () => {
    const db = memoryDatabase();
    setSyncState(db, 'lastSyncAt', '1767323045000');
    expect(storedLastSyncAt(db)).toBe(1767323045000);
    setSyncState(db, 'lastSyncAt', 'yesterday-ish');
    expect(storedLastSyncAt(db)).toBeUndefined();
  });
});

describe('OnlineState', () => {
  it('believes the host’s signals', () => {
    const online = new OnlineState();
    expect(online.online).toBe(true);
    online.signal(false);
    expect(online.online).toBe(false);
    online.signal(true);
    expect(online.online).toBe(true);
  });

  it('learns from syncs: a success proves online, an unreachable or silent service proves offline', () => {
    const online = new OnlineState();
    online.observeReport(report({ status: 'backoff', error: 'whatever words', errorKind: 'offline' }));
    expect(online.online).toBe(false);
    online.observeReport(report({ status: 'ok' }));
    expect(online.online).toBe(true);
    online.observeReport(report({ status: 'backoff', error: 'did not answer', errorKind: 'timeout' }));
    expect(online.online).toBe(false);
  });

  it('does not call a service that answered "offline" because of what it said', () => {
    const online = new OnlineState();
    online.observeReport(report({ status: 'backoff', error: 'could not reach the database (503)', errorKind: 'server' }));
    online.observeReport(report({ status: 'sign-in-needed', error: 'Sign in to sync.', errorKind: 'auth-needed' }));
    expect(online.online).toBe(true);
  });
});

describe('sync status views are numbered in the order they are computed', () => {
  it('each view has a higher seq than the one before, across models (one count per process)', () => {
    const a = new SyncStatusModel();
    const b = new SyncStatusModel();
    const inputs = { online: true, outbox: undefined, lastReport: undefined, db: undefined };
    const first = SyncStatus.parse(a.view(inputs));
    const second = SyncStatus.parse(b.view(inputs));
    const third = SyncStatus.parse(a.view(inputs));
    expect(first.seq).toBeLessThan(second.seq!);
    expect(second.seq).toBeLessThan(third.seq!);
    expect(isOlderView(first, third)).toBe(true);
    expect(isOlderView(third, first)).toBe(false);
  });

  it('a view without seq (an older core) is never taken for older', () => {
    const plain: SyncStatus = { online: true, phase: 'idle', pending: 0, failed: 0 };
    expect(isOlderView(plain, { ...plain, seq: 9 })).toBe(false);
    expect(isOlderView({ ...plain, seq: 1 }, plain)).toBe(false);
    expect(isOlderView({ ...plain, seq: 1 }, undefined)).toBe(false);
  });
});
