import { currentAccount, onAccountChange } from '../lib/accountScope.ts';
import { listen, onConnection } from '../lib/core.ts';
import { useAuth } from './auth.ts';
import { useBreaches } from './breaches.ts';
import { onDataChanged } from './dataEvents.ts';
import { useDetail } from './detail.ts';
import { useNotices } from './notices.ts';
import { useOverview } from './overview.ts';
import { useReport } from './report.ts';
import { useRoute } from './route.ts';
import { useSettings } from './settings.ts';
import { useSync } from './sync.ts';
import { useChecks } from './checks.ts';

/** Re-ask everything this window shows: after sign-in, a sync landing, or a reconnect. */
export async function refreshData(): Promise<void> {
  const tasks: Promise<void>[] = [useBreaches.getState().reload(), useBreaches.getState().loadOptions(), useDetail.getState().reload()];
  if (useOverview.getState().overview || useOverview.getState().error) tasks.push(useOverview.getState().load());
  if (useReport.getState().report || useReport.getState().error) tasks.push(useReport.getState().load());
  await Promise.all(tasks);
}

export async function loadInitial(): Promise<void> {
  await Promise.all([useAuth.getState().load(), useSync.getState().load(), useSettings.getState().load(), useChecks.getState().load()]);
}

/** Subscribes the stores to the core's events; returns the cleanup. */
export function connectEvents(): () => void {
  let wasDisconnected = false;
  let connectedBefore = false;
  const stops = [
    // A new account's stores were just emptied: ask for its data, whichever answer brought the
    // change (the sign-in's own answer can arrive before or after its event, and events of the
    // first sync can arrive before either).
    onAccountChange(() =>
      queueMicrotask(() => {
        if (currentAccount() !== undefined) void Promise.all([refreshData(), useSync.getState().load(), useChecks.getState().load()]);
      }),
    ),
    listen('auth-changed', (status) => {
      const before = useAuth.getState().status?.state;
      // A change of account resets every store as the status is applied (lib/accountScope.ts).
      useAuth.getState().apply(status);
      if (before !== 'signed-in' && status.state === 'signed-in') {
        void Promise.all([refreshData(), useSync.getState().load()]);
      }
    }),
    listen('sync-changed', (status) => useSync.getState().apply(status)),
    listen('checks-changed', (view) => useChecks.getState().apply(view)),
    listen('data-changed', (change) => {
      onDataChanged(change);
      if (change.reason === 'sync' && useNotices.getState().newBreaches.length > 0) void useNotices.getState().forgetGone();
    }),
    listen('breaches-new', ({ breaches }) => useNotices.getState().addNewBreaches(breaches.map((b) => b.id))),
    listen('open-breach', ({ id }) => useRoute.getState().openBreach(id)),
    onConnection((connected) => {
      useSync.getState().setConnected(connected);
      if (!connected) wasDisconnected = true;
      else if (wasDisconnected) {
        // Events sent while the stream was down are lost: ask again for everything.
        wasDisconnected = false;
        connectedBefore = true;
        void loadInitial().then(refreshData);
      } else if (!connectedBefore) {
        // The first answers were asked before the stream was open (lib/early.ts): a change in
        // between (a sync ending) came as an event nobody heard. Open now, nothing more is
        // missed, so those answers are asked once more.
        connectedBefore = true;
        void loadInitial();
      }
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
