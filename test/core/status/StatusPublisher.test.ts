import { describe, expect, it } from 'vitest';
import type { SyncStatus, TrayState } from '../../../shared/ipc/index.ts';
import { StatusPublisher } from '../../../electron/core/status/StatusPublisher.ts';

function publisher() {
  const state = { view: { online: true, phase: 'idle', pending: 0, failed: 0 } as SyncStatus, unresolved: 7, signInNeeded: false, paused: false };
  const counted: number[] = [];
  const views: SyncStatus[] = [];
  const trays: TrayState[] = [];
  const status = new StatusPublisher(
    {
      syncView: () => ({ ...state.view }),
      unresolved: () => (counted.push(state.unresolved), state.unresolved),
      signInNeeded: () => state.signInNeeded,
      notificationsPaused: () => state.paused,
    },
    { syncChanged: (view) => views.push(view), tray: (tray) => trays.push(tray) },
  );
  return { state, status, counted, views, trays };
}

describe('StatusPublisher', () => {
  it('publishes the sync line and the tray, then only what changed', () => {
    const { state, status, views, trays } = publisher();
    status.publish();
    status.publish();
    expect(views).toHaveLength(1);
    expect(trays).toEqual([{ unresolved: 7, signInNeeded: false, notificationsPaused: false, syncing: false }]);
    state.view = { ...state.view, phase: 'pulling' };
    status.publish();
    expect(views.at(-1)).toMatchObject({ phase: 'pulling' });
    expect(trays.at(-1)).toMatchObject({ syncing: true });
    state.paused = true;
    status.publish();
    expect(views).toHaveLength(2);
    expect(trays.at(-1)).toMatchObject({ notificationsPaused: true });
  });

  it('counts the unresolved pairs once per data change, not on every publish', () => {
    const { state, status, counted, trays } = publisher();
    status.publish();
    state.view = { ...state.view, phase: 'pushing' };
    status.publish();
    state.unresolved = 6;
    state.view = { ...state.view, phase: 'idle' };
    status.publish();
    expect(counted).toEqual([7]);
    expect(trays.at(-1)!.unresolved).toBe(7);
    status.dataChanged();
    status.publish();
    status.publish();
    expect(counted).toEqual([7, 6]);
    expect(trays.at(-1)!.unresolved).toBe(6);
  });

  it('carries the last sync time to the tray', () => {
    const { state, status, trays } = publisher();
    state.view = { ...state.view, lastSyncAt: '2026-01-01T00:00:00.000Z' };
    status.publish();
    expect(trays.at(-1)).toMatchObject({ lastSyncAt: '2026-01-01T00:00:00.000Z' });
  });
});
