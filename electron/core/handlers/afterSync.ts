import { HIDE_SENSITIVE, isShown, type SensitivePolicy } from '../../../shared/api/index.ts';
import type { EventPayload } from '../../../shared/ipc/index.ts';
import type { NotifierPolicy } from '../notifications/NotifierPolicy.ts';
import type { Outbox } from '../outbox/Outbox.ts';
import type { DataChanges } from '../status/DataChanges.ts';
import type { NewBreachMarks } from '../views/NewBreachMarks.ts';
import type { WritableDB } from '../db/Interface.ts';
import type { OnlineState } from '../sync/OnlineState.ts';
import type { SyncReport } from '../sync/SyncScheduler.ts';
import type { SyncStatusModel } from '../sync/SyncStatusModel.ts';

export interface AfterSyncDeps {
  db: WritableDB;
  outbox: Pick<Outbox, 'items'>;
  syncStatus: SyncStatusModel;
  online: OnlineState;
  marks: NewBreachMarks;
  notifier: Pick<NotifierPolicy, 'newBreaches' | 'failedResolutions'>;
  changes: Pick<DataChanges, 'changed'>;
  announceNewBreaches(breaches: EventPayload<'breaches-new'>['breaches']): void;
  /** Re-publishes the sync line and the tray (when no data event does it). */
  publishStatus(): void;
  /** Where a person the service has no account for signs up (the sync line's notice). */
  signUpUrl?: string;
  /** The sensitive policy: a new sensitive breach is neither announced nor notified unless shown. */
  policy?: SensitivePolicy;
}

/**
 * What a finished sync means for the person: the sync line and "online" learn from it, new
 * breaches are marked, announced and notified, refused changes are notified, and one
 * `data-changed` says what moved — a new snapshot anything, a push only the breaches it sent.
 */
export function afterSync(report: SyncReport, deps: AfterSyncDeps): void {
  deps.syncStatus.observeReport(report, deps.signUpUrl);
  deps.online.observeReport(report);
  const marked = deps.marks.observeReport(deps.db, report);
  const sensitive = new Set((report.diff?.newBreaches ?? []).filter((breach) => !isShown(breach, deps.policy ?? HIDE_SENSITIVE)).map((breach) => breach.id));
  const fresh = marked.filter((breach) => !sensitive.has(breach.id));
  if (fresh.length > 0) {
    deps.announceNewBreaches(fresh);
    deps.notifier.newBreaches(fresh);
  }
  if (report.push && report.push.failed > 0) {
    const failures = deps.outbox.items('failed').map((item) => ({ breachId: item.breachId, reason: item.failure?.reason ?? 'refused by the service' }));
    deps.notifier.failedResolutions(failures.slice(-report.push.failed));
  }
  if (report.pull?.status === 'applied') deps.changes.changed('sync');
  else if (report.push?.breachIds?.length) deps.changes.changed('sync', report.push.breachIds);
  else deps.publishStatus();
}
