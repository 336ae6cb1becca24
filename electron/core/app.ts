import path from 'node:path';
import { sensitivePolicyOf } from '../../shared/api/index.ts';
import { DisposableStore } from '../../shared/base/lifecycle.ts';
import { DEFAULT_PWNED_PASSWORDS_URL, type HostSignal } from '../../shared/ipc/index.ts';
import { AuthService, chooseSecretStore, silentLogger, type AuthLogger, type ClientConfigInput } from './auth/index.ts';
import { baseClientConfig, clientConfigFor } from './auth/clientConfigFor.ts';
import { CurrentAuth } from './auth/CurrentAuth.ts';
import { hostEncryptedFile } from './auth/secrets/hostCipher.ts';
import { AddressBook } from './addresses/AddressBook.ts';
import { BreachAlertClient } from './api/BreachAlertClient.ts';
import { BreachSource } from './checks/BreachSource.ts';
import { ChecksPublisher } from './checks/ChecksPublisher.ts';
import { listPending, readChecksView } from './db/breachDataQueries.ts';
import { EventBus } from './events/EventBus.ts';
import { DetailsFeed } from './feed/DetailsFeed.ts';
import { DetailsStore } from './feed/DetailsStore.ts';
import { LocalPreferences } from './feed/LocalPreferences.ts';
import { LogoCache } from './feed/LogoCache.ts';
import { RemoteGraphEndpoints } from './graph/RemoteGraphEndpoints.ts';
import { createAddressHandlers } from './handlers/addressHandlers.ts';
import { createAuthHandlers } from './handlers/authHandlers.ts';
import { createBreachHandlers } from './handlers/breachHandlers.ts';
import { createChecksHandlers } from './handlers/checksHandlers.ts';
import { combineHandlers } from './handlers/combineHandlers.ts';
import { createFeedHandlers } from './handlers/feedHandlers.ts';
import { createGraphHandlers } from './handlers/graphHandlers.ts';
import { createLoginHandlers } from './handlers/loginHandlers.ts';
import { applyHostSignal } from './handlers/hostSignals.ts';
import { openAccountSession } from './handlers/openAccountSession.ts';
import { createPasswordHandlers } from './handlers/passwordHandlers.ts';
import { createReportHandlers } from './handlers/reportHandlers.ts';
import { createResolutionHandlers } from './handlers/resolutionHandlers.ts';
import { Router } from './handlers/Router.ts';
import { createSearchHandlers } from './handlers/searchHandlers.ts';
import { createSettingsHandlers } from './handlers/settingsHandlers.ts';
import { createSyncHandlers } from './handlers/syncHandlers.ts';
import type { HostBridge } from './host.ts';
import { MAX_EXPORT_BYTES, readLoginExport } from './logins/exports/readLoginExport.ts';
import { LOGIN_HASH_KEY } from './logins/LoginHashKey.ts';
import { Logins } from './logins/Logins.ts';
import { NotifierPolicy } from './notifications/NotifierPolicy.ts';
import { checkPwnedPasswords } from './passwords/pwnedPasswordPass.ts';
import { AccountSecrets } from './session/AccountSecrets.ts';
import { deleteAccountDatabase, type AccountSession } from './session/AccountSession.ts';
import { CurrentSession } from './session/CurrentSession.ts';
import { openSettingsStore } from './settings/openSettingsStore.ts';
import { showsDemoData, syncViewOf } from './status/accountStatus.ts';
import { DataChanges } from './status/DataChanges.ts';
import { StatusPublisher } from './status/StatusPublisher.ts';
import { OnlineState } from './sync/OnlineState.ts';
import { SyncStatusModel } from './sync/SyncStatusModel.ts';
import { NewBreachMarks } from './views/NewBreachMarks.ts';
import { unresolvedTotal } from './views/overview.ts';

export interface CoreOptions {
  /** The app's data folder: settings, the account record, one database per account. */
  dataDir: string;
  host: HostBridge;
  /** Sign-in configuration over the defaults and `BREACH_MONITOR_*` (tests, the browser host). */
  config?: ClientConfigInput;
  env?: Record<string, string | undefined>;
  /** `false` skips the OS keychain (a host that knows it has none). */
  keychain?: boolean;
  logger?: AuthLogger;
  fetch?: typeof fetch;
  /** Check handler results against the contract too (tests). */
  validateResults?: boolean;
}

export interface Core {
  router: Router;
  bus: EventBus;
  signal(signal: HostSignal): void;
  /**
   * Listeners still registered on each event source the core owns (the bus, the sign-in with
   * its service and tokens, the last account session's scheduler and outbox): after `close`
   * every one is 0, or a subscription outlived its owner.
   */
  listenerCounts(): Record<'bus' | 'auth' | 'scheduler' | 'outbox', number>;
  /** Whether the embedded search holds an account's index in memory: never once that account signed out. */
  searchIndexOpen(): boolean;
  close(): Promise<void>;
}

/**
 * The app: sign-in, the account's local store and sync, the outbox, notifications — composed
 * once here and offered to UIs through the router's channels. Runs in plain Node.
 */
export async function startCore(options: CoreOptions): Promise<Core> {
  const logger = options.logger ?? silentLogger;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const bus = new EventBus();
  // What the core subscribed for its whole life, and what it subscribed for the open account's: each disposed by its owner's end.
  const subscriptions = new DisposableStore();
  const sessionSubscriptions = new DisposableStore();
  // The last account session's event sources for `listenerCounts`, held weakly: nothing of a closed account stays in memory.
  let lastSync: WeakRef<AccountSession['sync']> | undefined;

  // Settings, the sign-in configuration they point at, and where secrets are kept.
  const base = baseClientConfig(options);
  const settings = openSettingsStore(options.dataDir, base, (problem) => logger.warn(problem));
  // The one sensitive policy (shared/api/sensitive.ts), read from the person's setting at each use.
  const policy = () => sensitivePolicyOf(settings.get());
  const clientConfig = (serviceUrl?: string, issuer?: string) => clientConfigFor(base, settings.get(), serviceUrl, issuer);
  const secrets = await chooseSecretStore({
    keychain: options.keychain === false ? false : undefined,
    encryptedFile: await hostEncryptedFile(options.host.cipher, options.dataDir),
    logger,
  });

  // Policy, each in a module named for it.
  const online = new OnlineState();
  const syncStatus = new SyncStatusModel();
  const marks = new NewBreachMarks();
  const notifier = new NotifierPolicy({
    show: (notification) => options.host.notify(notification),
    enabled: () => settings.get().notifications,
    // Shared between the person's devices (read from this machine's copy: no network when notifying).
    newBreachesEnabled: () => feed.knownPreferences()?.notifications.newBreaches ?? true,
    // Invented breaches are never announced by the OS as if they were real: the app shows them, labelled.
    demoData: () => showsDemoData(sessions.get()),
  });
  // Credentials a person adds (search token, feed key or secret, graph key) are that account's own.
  const accountSecrets = new AccountSecrets(secrets.store, () => sessions.get()?.account);
  const remotes = new RemoteGraphEndpoints({ dataDir: options.dataDir, secrets: accountSecrets, ...fetchOption });

  // Who is signed in, and the account session open for them (handlers/openAccountSession.ts).
  const sessions: CurrentSession = new CurrentSession({
    open: (account) => {
      sessionSubscriptions.clear();
      const session = openAccountSession(account, {
        dataDir: options.dataDir,
        settings,
        tokens: auth.tokens,
        feed,
        policy,
        logger,
        ...fetchOption,
        marks,
        syncStatus,
        online,
        notifier,
        changes,
        status,
        checks,
        addresses,
        logins,
        announceNewBreaches: (breaches) => bus.emit('breaches-new', { breaches }),
        subscriptions: sessionSubscriptions,
      });
      lastSync = new WeakRef(session.sync);
      return session;
    },
    onClosed: () => {
      sessionSubscriptions.clear();
      // Nothing of the account stays in memory: its search index goes with it.
      closeSearch();
      marks.clear();
      syncStatus.reset();
      changes.changed('sign-out');
      checks.publish();
      addresses.publish();
      // The account's logins leave the view, and the passwords a check held leave memory.
      logins.accountClosed();
    },
  });
  const auth = new CurrentAuth({
    remembered: secrets.store.persistent,
    secretsKeptIn: secrets.store.kind,
    logger,
    create: () =>
      new AuthService({
        config: clientConfig(),
        dataDir: path.join(options.dataDir, 'auth'),
        secrets: secrets.store,
        secretsWarning: secrets.warning,
        // The person's own loopback service signs them in as its owner, without a browser.
        ownerSecret: () => options.host.localService?.ownerSecret?.(clientConfig().issuer),
        deleteAccountData: async (account) => {
          await sessions.closeIf(account.accountId);
          deleteAccountDatabase(options.dataDir, account);
          // The key of the logins' hashes went with nothing to compare them with.
          await secrets.store.delete(AccountSecrets.keyFor(LOGIN_HASH_KEY, account));
        },
        logger,
        ...fetchOption,
      }),
  });

  // The breach details feed: public catalog details kept once for every account, synced after each breach sync.
  const detailsStore = new DetailsStore(path.join(options.dataDir, 'catalog-details.db'));
  const feed = new DetailsFeed({
    settings,
    secrets: accountSecrets,
    identity: auth.identity,
    store: detailsStore,
    logos: new LogoCache({ dir: path.join(options.dataDir, 'logos'), ...fetchOption }),
    localPreferences: new LocalPreferences(path.join(options.dataDir, 'preferences')),
    ...fetchOption,
  });

  // The person's accounts at sites, read from password-manager exports (logins/, docs/logins.md).
  const logins = new Logins({
    open: () => {
      const session = sessions.get();
      return session && { db: session.db, accountId: session.account.accountId };
    },
    secrets: accountSecrets,
    catalog: () => detailsStore.siteBreaches(),
    reader: { read: readLoginExport, maxBytes: MAX_EXPORT_BYTES },
    checkPasswords: (passwords, pass) => checkPwnedPasswords(passwords, { baseUrl: settings.get().pwnedPasswordsUrl ?? DEFAULT_PWNED_PASSWORDS_URL, ...fetchOption, ...pass }),
    emit: (view) => bus.emit('logins-changed', view),
    progress: (progress) => bus.emit('logins-import-progress', progress),
    notify: (breaches) => notifier.siteBreaches(breaches),
    warn: (message, fields) => logger.warn(message, fields),
  });

  // What the UIs are told: the sync line and the tray, the checks, one event per data change.
  const syncView = () => syncViewOf(sessions.get(), { online, syncStatus });
  const status = new StatusPublisher(
    {
      syncView,
      unresolved: () => {
        const session = sessions.get();
        return session ? unresolvedTotal(session.db, policy()) : 0;
      },
      signInNeeded: () => auth.status().state === 'sign-in-needed',
      notificationsPaused: () => notifier.paused,
      demoData: () => showsDemoData(sessions.get()),
    },
    { syncChanged: (view) => bus.emit('sync-changed', view), tray: (state) => options.host.setTrayState(state) },
  );
  const checks = new ChecksPublisher({
    read: () => {
      const session = sessions.get();
      return session ? readChecksView(session.db) : undefined;
    },
    emit: (view) => bus.emit('checks-changed', view),
    syncSoon: () => void sessions.get()?.sync.scheduler.syncNow('interval'),
    listPending: () => {
      const session = sessions.get();
      return session ? listPending(session.db) : undefined;
    },
  });
  // The person's addresses at their service (`/user/emails`, always under its /api/v1, whichever contract syncs).
  const addresses = new AddressBook({
    open: () => {
      const session = sessions.get();
      return session && { db: session.db, client: new BreachAlertClient({ baseUrl: settings.get().serviceUrl, tokens: auth.tokens, ...fetchOption }) };
    },
    emit: (view) => bus.emit('addresses-changed', view),
    onForgotten: () => {
      const session = sessions.get();
      if (session) marks.load(session.db);
      session?.rebuildGraph();
      changes.changed('sync');
      checks.publish();
    },
    syncSoon: () => void sessions.get()?.sync.scheduler.syncNow('manual'),
  });
  const changes = new DataChanges((change) => {
    status.dataChanged();
    bus.emit('data-changed', change);
    status.publish();
  });
  subscriptions.add(
    auth.onDidChangeStatus(async (next) => {
      bus.emit('auth-changed', auth.view(next));
      await sessions.apply(next);
      notifier.observeAuthState(next.state);
      status.publish();
    }),
  );

  // The channels: each feature's slice of the map (handlers/), merged and served by one router.
  const {
    close: closeSearch,
    indexOpen: searchIndexOpen,
    ...searchHandlers
  } = createSearchHandlers({
    sessions,
    settings,
    secrets: accountSecrets,
    policy,
    emit: (payload) => bus.emit('search-event', payload),
    details: { details: (ids) => feed.details(ids), version: () => JSON.stringify(detailsStore.state() ?? null) },
    ...fetchOption,
  });
  const settingsHandlers = createSettingsHandlers({
    settings,
    auth,
    sessions,
    host: options.host,
    checkService: (serviceUrl, issuer) => void clientConfig(serviceUrl, issuer),
    onSensitivePolicyChange: () => {
      sessions.get()?.rebuildGraph();
      // The list, counts, report, overview and tray all read through the policy: ask again.
      status.dataChanged();
      changes.changed('sync');
    },
  });
  const breachSource = new BreachSource({
    settings,
    applySettings: (change) => settingsHandlers['settings-set'](change),
    secrets: secrets.store,
    sessions,
    localService: options.host.localService,
    localEndpoints: { serviceUrl: base.apiBaseUrl, issuer: base.issuer },
    onDataCleared: () => {
      marks.clear();
      changes.changed('sync');
    },
  });
  const router = new Router(
    combineHandlers(
      createAuthHandlers({ auth, sessions, host: options.host, publishStatus: () => status.publish() }),
      createBreachHandlers({ sessions, marks, details: (ids) => feed.details(ids), flaggedIds: () => detailsStore.flaggedIds(), policy }),
      createResolutionHandlers({ sessions, marks, changes, details: (ids) => feed.details(ids) }),
      createSyncHandlers({ sessions, statusView: syncView }),
      createReportHandlers({ sessions, changes, accountEmail: () => auth.status().account?.email, host: options.host, policy }),
      createGraphHandlers({ sessions, remotes, settings }),
      searchHandlers,
      settingsHandlers,
      createChecksHandlers({ sessions, source: breachSource, publish: () => checks.publish() }),
      createPasswordHandlers({ settings, ...fetchOption }),
      createAddressHandlers({ addresses }),
      createLoginHandlers({ logins }),
      // The host's opener: the channel admits only http(s) addresses, and the main process checks again before shell.openExternal.
      createFeedHandlers({ feed, openExternal: (url) => options.host.openExternal(url) }) /* eng-disable OPEN_EXTERNAL_JS_CHECK */,
    ),
    {
      validateResults: options.validateResults ?? false,
      onInternalError: (channel, error) => logger.error(`channel ${channel} failed`, { error: error instanceof Error ? error.message : String(error) }),
    },
  );

  // Start: the previous sign-in comes back (its account's session opens and syncs), then the first status.
  await auth.service.restore().catch((error: unknown) => logger.warn('sign-in: could not restore the previous session', { error: String(error) }));
  await auth.settled();
  status.publish();

  return {
    router,
    bus,
    signal(signal) {
      applyHostSignal(signal, { scheduler: sessions.get()?.sync.scheduler, online, notifier });
      status.publish();
    },
    listenerCounts: () => ({
      bus: bus.listenerCount,
      auth: auth.listenerCount,
      scheduler: lastSync?.deref()?.scheduler.listenerCount ?? 0,
      outbox: lastSync?.deref()?.outbox.listenerCount ?? 0,
    }),
    searchIndexOpen,
    async close() {
      checks.stop();
      logins.accountClosed();
      await auth.close();
      await sessions.close();
      sessionSubscriptions.dispose();
      subscriptions.dispose();
      remotes.close();
      closeSearch();
      detailsStore.close();
      bus.dispose();
    },
  };
}
