import type { SyncStatus as SyncStatusView } from '../../../shared/ipc/index.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';

export interface SyncHandlerDeps {
  sessions: CurrentSession;
  /** The sync line as the header shows it. */
  statusView(): SyncStatusView;
}

/** "Sync now" and the sync line. */
export function createSyncHandlers({ sessions, statusView }: SyncHandlerDeps) {
  return {
    'sync-now': async () => {
      await sessions.get()?.sync.scheduler.syncNow('manual');
      return statusView();
    },
    'sync-status': () => statusView(),
  } satisfies HandlerSlice;
}
