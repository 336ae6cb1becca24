import type { SyncStatus as SyncStatusView } from '../../../shared/ipc/index.ts';
import { storedSource } from '../db/breachDataQueries.ts';
import { localOnlyCount } from '../db/outboxQueries.ts';
import type { AccountSession } from '../session/AccountSession.ts';
import type { OnlineState } from '../sync/OnlineState.ts';
import type { SyncStatusModel } from '../sync/SyncStatusModel.ts';

/** The header's sync line now: the model's phase and errors, with the open account's outbox, last report and changes kept on this computer. */
export function syncViewOf(session: AccountSession | undefined, { online, syncStatus }: { online: OnlineState; syncStatus: SyncStatusModel }): SyncStatusView {
  return syncStatus.view({
    online: online.online,
    outbox: session?.sync.outbox.summary(),
    lastReport: session?.sync.scheduler.lastReport,
    db: session?.db,
    ...(session ? { localOnly: localOnlyCount(session.db) } : {}),
  });
}

/** Whether the open account shows the invented demo data (labelled in the app, never announced by the OS). */
export function showsDemoData(session: AccountSession | undefined): boolean {
  return session ? storedSource(session.db) === 'demo' : false;
}
