import { useEffect, useState } from 'react';
import { ClippedText } from '../../components/ClippedText.tsx';
import { Icon } from '../../components/Icon.tsx';
import { inWords } from '../../lib/errorText.ts';
import { formatCount, formatDateTime, formatRelative, plural } from '../../lib/format.ts';
import { isSyncing, useSync } from '../../state/sync.ts';
import type { SyncStatus } from '../../../shared/ipc/views.ts';

const PHASE_WORDS: Record<SyncStatus['phase'], string> = {
  idle: 'Up to date',
  pushing: 'Sending your changes',
  pulling: 'Fetching breaches',
  applying: 'Saving',
};

/** Re-render relative times every half minute without any data changing. */
function useNow(intervalMs = 30_000): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
}

/**
 * One fixed-height line: every part has its own slot, so a sync starting or landing changes
 * words, never the layout below.
 */
export function StatusBar() {
  const { status, connected, requesting, error, syncNow } = useSync();
  useNow();
  // Read the clock at every render: a sync landing re-renders with a newer lastSyncAt.
  const now = Date.now();
  const syncing = isSyncing(status) || requesting;
  const online = connected && status?.online !== false;

  return (
    <header className="statusbar">
      <div className="statusbar-items">
        <span className={online ? 'pill pill-online' : 'pill pill-offline'}>
          <Icon name={online ? 'dot' : 'cloudOff'} size={online ? 10 : 14} />
          {!connected ? 'Disconnected' : online ? 'Online' : 'Offline'}
        </span>

        <span className="statusbar-sync" role="status">
          {syncing ? (
            <>
              {/* Pressed, before the core's first progress event: say so at once rather than show the old state. */}
              <span className="statusbar-phase">{status && isSyncing(status) ? PHASE_WORDS[status.phase] : 'Syncing…'}</span>
              {status?.progress && status.progress.total > 0 ? (
                <>
                  <progress className="progress" aria-label="Sync progress" value={status.progress.done} max={status.progress.total} />
                  <span className="muted tabular">
                    {formatCount(status.progress.done)} of {formatCount(status.progress.total)}
                  </span>
                </>
              ) : (
                <span className="progress-indeterminate progress-inline" role="progressbar" aria-label="Sync progress" />
              )}
            </>
          ) : status?.lastSyncAt ? (
            <span>
              Last synced{' '}
              <time dateTime={status.lastSyncAt} title={formatDateTime(status.lastSyncAt)}>
                {formatRelative(status.lastSyncAt, now)}
              </time>
            </span>
          ) : (
            <span className="muted">{status ? 'Not synced yet' : 'Checking…'}</span>
          )}
        </span>

        {status && status.pending > 0 ? (
          <span className="marker marker-pending">
            <Icon name="clock" size={14} />
            {plural(status.pending, 'change')} queued
          </span>
        ) : null}
        {status && status.failed > 0 ? (
          <span className="marker marker-failed">
            <Icon name="alert" size={14} />
            {plural(status.failed, 'change')} failed
          </span>
        ) : null}
        {status?.localOnly ? (
          <span className="marker marker-local" title="Changes the service cannot take (it resolves only passwords and email addresses, and never unresolves) are kept on this computer.">
            <Icon name="lock" size={14} />
            {plural(status.localOnly, 'change')} on this computer only
          </span>
        ) : null}
        {error || status?.lastError ? (
          <span className="statusbar-error">
            <Icon name="alert" size={14} />
            <ClippedText text={error ? `Sync now didn’t start: ${inWords(error)}` : `Last sync failed: ${inWords(status?.lastError ?? '')}`} />
          </span>
        ) : null}
      </div>
      <button type="button" className="button button-small" onClick={() => void syncNow()} disabled={syncing || !connected}>
        <Icon name="refresh" size={14} className={syncing ? 'spin' : undefined} />
        Sync now
      </button>
    </header>
  );
}
