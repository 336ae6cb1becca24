import { DisposableStore, toDisposable } from '../../shared/base/lifecycle.ts';
import { unnumbered } from '../../shared/ipc/viewOrder.ts';
import { accountTicket, currentAccount, onAccountChange } from '../lib/accountScope.ts';
import { listen, missedSinceFirstAnswers, onConnection } from '../lib/core.ts';
import { useAuth } from './auth.ts';
import { onDataChanged, onDidChangeElsewhere } from './dataEvents.ts';
import { useNotices } from './notices.ts';
import { EVERYTHING, refreshFor } from './refresh.ts';
import { useRoute } from './route.ts';
import { useSettings } from './settings.ts';
import { useSync } from './sync.ts';
import { useChecks } from './checks.ts';
import { useAddresses } from './addresses.ts';
import { useLogins } from './logins.ts';

export async function loadInitial(): Promise<void> {
  await Promise.all([useAuth.getState().load(), useSync.getState().load(), useSettings.getState().load(), useChecks.getState().load()]);
}

/**
 * The core numbers its views per process (shared/ipc/viewOrder.ts). While the connection is down
 * the core may restart and count from 1 again: what this window holds keeps its content but not
 * its number, so the first views of the core that answers next replace it.
 */
function forgetViewNumbers(): void {
  useAuth.setState((state) => ({ status: unnumbered(state.status) }));
  useSync.setState((state) => ({ status: unnumbered(state.status) }));
  useChecks.setState((state) => ({ view: unnumbered(state.view) }));
  useAddresses.setState((state) => ({ view: unnumbered(state.view) }));
  useLogins.setState((state) => ({ view: unnumbered(state.view) }));
}

/** Subscribes the stores to the core's events; returns the cleanup. */
export function connectEvents(): () => void {
  let wasDisconnected = false;
  let connectedBefore = false;
  const subscriptions = new DisposableStore();
  // A change another window or a sync made: re-ask what it touched (this window's own are skipped).
  subscriptions.add(onDidChangeElsewhere((change) => void refreshFor(change)));
  const stops = [
    // A new account's stores were just emptied: ask for its data, whichever answer brought the
    // change (the sign-in's own answer can arrive before or after its event, and events of the
    // first sync can arrive before either).
    onAccountChange(() =>
      queueMicrotask(() => {
        if (currentAccount() !== undefined) void Promise.all([refreshFor(EVERYTHING), useSync.getState().load(), useChecks.getState().load(), useAddresses.getState().load()]);
      }),
    ),
    listen('auth-changed', (status) => {
      const before = useAuth.getState().status?.state;
      const account = accountTicket();
      // A change of account resets every store as the status is applied (lib/accountScope.ts),
      // and the hook above asks for the new account's data; asked here only when the account
      // stayed (signed in again after its session ended), so a sign-in asks once, not twice.
      useAuth.getState().apply(status);
      if (before !== 'signed-in' && status.state === 'signed-in' && account.current()) {
        void Promise.all([refreshFor(EVERYTHING), useSync.getState().load()]);
      }
    }),
    listen('sync-changed', (status) => useSync.getState().apply(status)),
    listen('checks-changed', (view) => useChecks.getState().apply(view)),
    listen('addresses-changed', (view) => useAddresses.getState().apply(view)),
    listen('logins-changed', (view) => useLogins.getState().apply(view)),
    listen('logins-import-progress', (progress) => useLogins.getState().progress(progress)),
    listen('data-changed', (change) => {
      onDataChanged(change);
      if (change.reason === 'sync' && useNotices.getState().newBreaches.length > 0) void useNotices.getState().forgetGone();
    }),
    listen('breaches-new', ({ breaches }) => useNotices.getState().addNewBreaches(breaches.map((b) => b.id))),
    listen('open-breach', ({ id }) => useRoute.getState().openBreach(id)),
    onConnection((connected) => {
      useSync.getState().setConnected(connected);
      if (!connected) {
        wasDisconnected = true;
        forgetViewNumbers();
      } else if (wasDisconnected) {
        // Events sent while the stream was down are lost: ask again for everything.
        wasDisconnected = false;
        connectedBefore = true;
        void loadInitial().then(() => refreshFor(EVERYTHING));
      } else if (!connectedBefore) {
        // The first answers were asked before the stream was open (lib/early.ts): a change in
        // between (a sync ending) came as an event nobody heard. The transport says whether any
        // event was sent between those answers and the stream's start; if one may have been,
        // everything shown is asked again, as after a reconnect. Otherwise what the window
        // holds is current, and asking it again would only load the core and the page while
        // the person starts using it.
        connectedBefore = true;
        if (missedSinceFirstAnswers()) void loadInitial().then(() => refreshFor(EVERYTHING));
      }
    }),
  ];
  for (const stop of stops) subscriptions.add(toDisposable(stop));
  return () => subscriptions.dispose();
}
