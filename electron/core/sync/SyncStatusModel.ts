import type { SyncStatus as SyncStatusView } from '../../../shared/ipc/index.ts';
import { nextViewSeq } from '../../../shared/ipc/viewOrder.ts';
import type { ReadableDB } from '../db/Interface.ts';
import { getSyncState } from '../db/syncStateQueries.ts';
import type { OutboxSummary } from '../outbox/types.ts';
import type { SyncProgress, SyncReport } from './SyncScheduler.ts';

/** What the status view is computed from, besides what the model remembers itself. */
export interface SyncStatusInputs {
  online: boolean;
  /** The open account's outbox; absent when nobody is signed in. */
  outbox: OutboxSummary | undefined;
  /** The scheduler's latest report. */
  lastReport: SyncReport | undefined;
  /** The account's database, for the last successful sync of an earlier run. */
  db: ReadableDB | undefined;
  /** Changes kept on this machine only. */
  localOnly?: number;
}

/**
 * The header's sync line: which phase is running, when the last sync succeeded, why the last
 * one failed. It remembers only what the scheduler reports as it goes (progress, the last
 * error); everything else is read when the view is asked for, so it cannot drift.
 */
export class SyncStatusModel {
  #progress: SyncProgress | undefined;
  #lastError: string | undefined;
  #notice: SyncStatusView['notice'];

  observeProgress(progress: SyncProgress): void {
    this.#progress = progress.phase === 'done' ? undefined : progress;
  }

  /** `signUpUrl`: where to send a person the service has no account for. */
  observeReport(report: SyncReport, signUpUrl?: string): void {
    this.#lastError = report.status === 'ok' || report.status === 'cancelled' ? undefined : report.error;
    this.#notice = noticeOf(report, signUpUrl);
  }

  /** Another account, or none: what the previous one went through says nothing now. */
  reset(): void {
    this.#progress = undefined;
    this.#lastError = undefined;
    this.#notice = undefined;
  }

  view(inputs: SyncStatusInputs): SyncStatusView {
    const progress = this.#progress;
    const lastOk = inputs.lastReport?.status === 'ok' ? inputs.lastReport.finishedAt : undefined;
    const at = lastOk ?? (inputs.db ? storedLastSyncAt(inputs.db) : undefined);
    return {
      online: inputs.online,
      phase: !progress ? 'idle' : progress.phase === 'push' ? 'pushing' : progress.phase === 'pull' ? 'pulling' : 'applying',
      ...(at !== undefined ? { lastSyncAt: new Date(at).toISOString() } : {}),
      ...(this.#lastError ? { lastError: this.#lastError } : {}),
      ...(this.#notice ? { notice: this.#notice } : {}),
      ...(inputs.localOnly ? { localOnly: inputs.localOnly } : {}),
      pending: inputs.outbox ? inputs.outbox.pending + inputs.outbox.sending : 0,
      failed: inputs.outbox?.failed ?? 0,
      ...(progress?.phase === 'push' && progress.push ? { progress: { done: progress.push.requests, total: progress.push.plannedRequests } } : {}),
      seq: nextViewSeq(),
    };
  }
}

/** The last successful sync as recorded in the account's database (epoch ms or ISO text). */
export function storedLastSyncAt(db: ReadableDB): number | undefined {
  const value = getSyncState(db, 'lastSyncAt');
  if (value === undefined) return undefined;
  const parsed = Number.isNaN(Number(value)) ? Date.parse(value) : Number(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * What the person is told beside the list when a sync kept what was there: the service is
 * unavailable (5xx, 503 = keep what you hold), asked us to wait (429), or has no account for them.
 */
function noticeOf(report: SyncReport, signUpUrl: string | undefined): SyncStatusView['notice'] {
  if (report.status === 'ok' || report.status === 'cancelled') return undefined;
  const retryAt = report.retryAt !== undefined ? { retryAt: new Date(report.retryAt).toISOString() } : {};
  if (report.errorKind === 'no-account') return { kind: 'no-account', ...(signUpUrl ? { signUpUrl } : {}) };
  if (report.errorKind === 'rate-limited') return { kind: 'rate-limited', ...retryAt };
  if (report.errorKind === 'server') return { kind: 'unavailable', ...retryAt };
  return undefined;
}
