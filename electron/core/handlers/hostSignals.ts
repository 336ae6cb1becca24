import type { HostSignal } from '../../../shared/ipc/index.ts';
import type { NotifierPolicy } from '../notifications/NotifierPolicy.ts';
import type { OnlineState } from '../sync/OnlineState.ts';
import type { SyncScheduler } from '../sync/SyncScheduler.ts';

export interface HostSignalTargets {
  /** The open account's scheduler; absent when nobody is signed in. */
  scheduler: Pick<SyncScheduler, 'notifyResume' | 'notifyOnline' | 'syncNow' | 'cancel'> | undefined;
  online: OnlineState;
  notifier: Pick<NotifierPolicy, 'setPaused'>;
}

/** What each signal from the host (power, network, the tray's menu) does. */
export function applyHostSignal(signal: HostSignal, { scheduler, online, notifier }: HostSignalTargets): void {
  switch (signal) {
    case 'resume':
      scheduler?.notifyResume();
      break;
    case 'online':
      online.signal(true);
      scheduler?.notifyOnline();
      break;
    case 'offline':
      online.signal(false);
      break;
    case 'sync-now':
      void scheduler?.syncNow('manual');
      break;
    case 'pause-notifications':
      notifier.setPaused(true);
      break;
    case 'resume-notifications':
      notifier.setPaused(false);
      break;
    case 'suspend':
      scheduler?.cancel();
      break;
  }
}
