import type { SyncStatus as SyncStatusView } from '../../../shared/ipc/index.ts';
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
}

/**
 * The header's sync line: which phase is running, when the last sync succeeded, why the last
 * one failed. It remembers only what the scheduler reports as it goes (progress, the last
 * error); everything else is read when the view is asked for, so it cannot drift.
 */
export class SyncStatusModel {
  #progress: SyncProgress | undefined;
  #lastError: string | undefined;

  observeProgress(progress: SyncProgress): void {
    this.#progress = progress.phase === 'done' ? undefined : progress;
  }

  observeReport(report: SyncReport): void {
    this.#lastError = report.status === 'ok' || report.status === 'cancelled' ? undefined : report.error;
  }

  /** Another account, or none: what the previous one went through says nothing now. */
  reset(): void {
    this.#progress = undefined;
    this.#lastError = undefined;
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
      pending: inputs.outbox ? inputs.outbox.pending + inputs.outbox.sending : 0,
      failed: inputs.outbox?.failed ?? 0,
      ...(progress?.phase === 'push' && progress.push ? { progress: { done: progress.push.requests, total: progress.push.plannedRequests } } : {}),
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
