import type { SensitivePolicy } from '../../../shared/api/index.ts';
import { isShown } from '../../../shared/api/index.ts';
import type { DisposableStore } from '../../../shared/base/lifecycle.ts';
import type { EventPayload } from '../../../shared/ipc/index.ts';
import type { AccessTokenSource } from '../api/AccessTokenSource.ts';
import type { AuthLogger } from '../auth/log.ts';
import type { AddressBook } from '../addresses/AddressBook.ts';
import type { ChecksPublisher } from '../checks/ChecksPublisher.ts';
import type { DetailsFeed } from '../feed/DetailsFeed.ts';
import { syncAfterBreachSync } from '../feed/syncAfterBreachSync.ts';
import type { Logins } from '../logins/Logins.ts';
import type { NotifierPolicy } from '../notifications/NotifierPolicy.ts';
import { AccountSession, type AccountRef } from '../session/AccountSession.ts';
import { apiBaseFor, contractOf, signUpUrlFor, syncIntervalFor } from '../settings/contract.ts';
import type { SettingsStore } from '../settings/SettingsStore.ts';
import type { DataChanges } from '../status/DataChanges.ts';
import type { StatusPublisher } from '../status/StatusPublisher.ts';
import type { OnlineState } from '../sync/OnlineState.ts';
import { ServiceWatch } from '../sync/ServiceWatch.ts';
import type { SyncReport } from '../sync/SyncScheduler.ts';
import type { SyncStatusModel } from '../sync/SyncStatusModel.ts';
import type { NewBreachMarks } from '../views/NewBreachMarks.ts';
import { afterSync } from './afterSync.ts';

/** What an opened account session is connected to: the app's shared state, policy and publishers. */
export interface AccountSessionWiring {
  dataDir: string;
  settings: SettingsStore;
  tokens: AccessTokenSource;
  feed: Pick<DetailsFeed, 'details' | 'sync' | 'syncUnlessRead' | 'writeBackPreferences'>;
  policy(): SensitivePolicy;
  logger: AuthLogger;
  fetch?: typeof fetch;
  marks: NewBreachMarks;
  syncStatus: SyncStatusModel;
  online: OnlineState;
  notifier: NotifierPolicy;
  changes: DataChanges;
  status: Pick<StatusPublisher, 'dataChanged' | 'publish'>;
  checks: Pick<ChecksPublisher, 'publish'>;
  /** The person's addresses: listed again after a sync that can have moved them ({@link addressesMayHaveMoved}). */
  addresses?: Pick<AddressBook, 'refreshAfterSync' | 'publish'>;
  /** The person's logins: their view published when the account opens, their sites matched again when a sync can have brought breaches. */
  logins?: Pick<Logins, 'publish' | 'catalogChanged'>;
  announceNewBreaches(breaches: EventPayload<'breaches-new'>['breaches']): void;
  /** Where the session's subscriptions are kept: its owner disposes them when the session closes. */
  subscriptions: DisposableStore;
}

/**
 * Whether a sync can have moved what the addresses list (`GET /user/emails`) shows: each
 * address's state is what the checks say, and an address added, verified or removed elsewhere
 * changes the monitored addresses, which the checks list (their version moves) and the breach
 * list may name. So: a new list applied, or the checks asked (their version moved, a lookup
 * still waits, or the service names no versions: then every sync). An idle sync (a 304 naming
 * the recorded checks) is not one; the person's own address actions list again themselves.
 */
export function addressesMayHaveMoved(report: SyncReport): boolean {
  const pull = report.pull;
  return pull !== undefined && pull.status !== 'stale' && (pull.status === 'applied' || pull.checks !== undefined);
}

/**
 * Opens an account's session under the person's current settings and connects it: its marks
 * and sync line start fresh, its progress and finished syncs reach the sync line, the checks,
 * the details feed and `afterSync`, its outbox's counts reach the status, and it starts syncing.
 */
export function openAccountSession(account: AccountRef, wiring: AccountSessionWiring): AccountSession {
  const { settings, feed, logger, marks, syncStatus, status, checks, subscriptions } = wiring;
  const apiBaseUrl = apiBaseFor(settings.get().serviceUrl, contractOf(settings.get()));
  const session = AccountSession.open({
    dataDir: wiring.dataDir,
    account,
    apiBaseUrl,
    contract: contractOf(settings.get()),
    // The newer contract's items carry only ids: details come from the feed, synced first when one is missing.
    details: { getMany: (ids) => feed.details(ids), refresh: async () => void (await feed.sync()) },
    tokens: wiring.tokens,
    intervalMinutes: syncIntervalFor(settings.get().syncIntervalMinutes, contractOf(settings.get())),
    onGraphError: (error) => logger.warn('graph: rebuild failed', { error: String(error) }),
    graphShows: (breach) => isShown(breach, wiring.policy()),
    ...(wiring.fetch ? { fetch: wiring.fetch } : {}),
  });
  const { scheduler, outbox } = session.sync;
  marks.load(session.db);
  syncStatus.reset();
  status.dataChanged();
  subscriptions.add(
    scheduler.onProgress((progress) => {
      syncStatus.observeProgress(progress);
      status.publish();
    }),
  );
  checks.publish();
  wiring.addresses?.publish();
  wiring.logins?.publish();
  subscriptions.add(
    scheduler.onDidSync((report) => {
      // Listed again when the sync can have moved them; a failure is kept in the view.
      void wiring.addresses?.refreshAfterSync(addressesMayHaveMoved(report)).catch((error: unknown) => logger.warn('addresses: could not be listed', { error: String(error) }));
      const catalogVersion = report.pull && report.pull.status !== 'stale' ? report.pull.catalogVersion : undefined;
      // A new catalog (the details feed) or a new list of the account's breaches can name a site of its logins.
      const catalogChanged = () => {
        try {
          wiring.logins?.catalogChanged();
        } catch (error) {
          logger.warn('logins: could not be matched to the new breaches', { error: String(error) });
        }
      };
      void syncAfterBreachSync(feed, {
        catalogVersion,
        onUpdated: () => {
          wiring.changes.changed('sync');
          catalogChanged();
        },
        logger,
      });
      if (report.pull?.status === 'applied') catalogChanged();
      if (report.pull && report.pull.status !== 'stale' && report.pull.checks === 'failed') logger.warn('checks: could not be read', { error: report.pull.checksError ?? '' });
      checks.publish();
      afterSync(report, {
        policy: wiring.policy(),
        db: session.db,
        outbox,
        syncStatus,
        online: wiring.online,
        marks,
        notifier: wiring.notifier,
        changes: wiring.changes,
        announceNewBreaches: wiring.announceNewBreaches,
        publishStatus: () => status.publish(),
        signUpUrl: signUpUrlFor(settings.get()),
      });
    }),
  );
  // Counts only (pending, failed): the data events come from the toggles and the syncs.
  subscriptions.add(outbox.onDidChange(() => status.publish()));
  // Offline is told within seconds while the person is idle, and Online again as soon as the
  // service answers, which also ends the wait the outage caused and syncs (docs/sync.md, "Online").
  // An injected fetch stands for the network in tests: there is no real address to knock on.
  if (!wiring.fetch) {
    const watch = subscriptions.add(
      new ServiceWatch({
        url: apiBaseUrl,
        onChange: (answering, before) => {
          wiring.online.signal(answering);
          status.publish();
          if (answering && before === false) scheduler.notifyOnline();
        },
      }),
    );
    watch.start();
  }
  void scheduler.start().catch((error: unknown) => logger.warn('sync: first sync failed', { error: String(error) }));
  return session;
}
