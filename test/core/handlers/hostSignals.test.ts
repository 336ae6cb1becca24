import { describe, expect, it } from 'vitest';
import type { HostSignal } from '../../../shared/ipc/index.ts';
import { NotifierPolicy } from '../../../electron/core/notifications/NotifierPolicy.ts';
import { applyHostSignal } from '../../../electron/core/handlers/hostSignals.ts';
import { OnlineState } from '../../../electron/core/sync/OnlineState.ts';

function targets() {
  const calls: string[] = [];
  const scheduler = {
    notifyResume: () => void calls.push('resume'),
    notifyOnline: () => void calls.push('online'),
    syncNow: (trigger?: string) => (calls.push(`sync:${trigger}`), Promise.resolve({} as never)),
    cancel: () => void calls.push('cancel'),
  };
  return { calls, scheduler, online: new OnlineState(), notifier: new NotifierPolicy({ show: () => {}, enabled: () => true }) };
}

describe('applyHostSignal', () => {
  it.each<[HostSignal, string[]]>([
    ['resume', ['resume']],
    ['online', ['online']],
    ['sync-now', ['sync:manual']],
    ['suspend', ['cancel']],
    ['offline', []],
  ])('%s reaches the scheduler as %j', (signal, expected) => {
    const t = targets();
    applyHostSignal(signal, t);
    expect(t.calls).toEqual(expected);
  });

  it('tracks the network and the tray’s pause', () => {
    const t = targets();
    applyHostSignal('offline', t);
    expect(t.online.online).toBe(false);
    applyHostSignal('online', t);
    expect(t.online.online).toBe(true);
    applyHostSignal('pause-notifications', t);
    expect(t.notifier.paused).toBe(true);
    applyHostSignal('resume-notifications', t);
    expect(t.notifier.paused).toBe(false);
  });

  it('needs no account for any signal', () => {
    const t = targets();
    for (const signal of HOST_SIGNALS) expect(() => applyHostSignal(signal, { ...t, scheduler: undefined })).not.toThrow();
  });
});

const HOST_SIGNALS: HostSignal[] = ['resume', 'suspend', 'online', 'offline', 'sync-now', 'pause-notifications', 'resume-notifications'];
