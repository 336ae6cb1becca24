import path from 'node:path';
import { DEFAULT_SYNC_INTERVAL_MINUTES, type HostSignal } from '../../shared/ipc/index.ts';
import { AuthService, chooseSecretStore, loadClientConfig, parseClientConfig, silentLogger, type AuthLogger, type ClientConfigInput, type SafeStorageLike } from './auth/index.ts';
import { createAuthHandlers } from './auth/authHandlers.ts';
import { CurrentAuth } from './auth/CurrentAuth.ts';
import { createGraphHandlers } from './graph/graphHandlers.ts';
import { createSearchHandlers } from './search/searchHandlers.ts';
import { RemoteGraphEndpoints } from './graph/RemoteGraphEndpoints.ts';
import type { HostBridge } from './host.ts';
import { combineHandlers } from './ipc/combineHandlers.ts';
import { EventBus } from './ipc/EventBus.ts';
import { Router } from './ipc/Router.ts';
import { NotifierPolicy } from './notifications/NotifierPolicy.ts';
import { createResolutionHandlers } from './outbox/resolutionHandlers.ts';
import { createReportHandlers } from './report/reportHandlers.ts';
import { AccountSession, deleteAccountDatabase, type AccountRef } from './session/AccountSession.ts';
import { CurrentSession } from './session/CurrentSession.ts';
import { AccountSecrets } from './session/AccountSecrets.ts';
import { createSettingsHandlers } from './settings/settingsHandlers.ts';
import { SettingsStore } from './settings/SettingsStore.ts';
import { DataChanges } from './status/DataChanges.ts';
import { StatusPublisher } from './status/StatusPublisher.ts';
import { applyHostSignal } from './status/hostSignals.ts';
import { afterSync } from './sync/afterSync.ts';
import { OnlineState } from './sync/OnlineState.ts';
import { createSyncHandlers } from './sync/syncHandlers.ts';
import { SyncStatusModel } from './sync/SyncStatusModel.ts';
import { createBreachHandlers } from './views/breachHandlers.ts';
import { DetailsFeed } from './feed/DetailsFeed.ts';
import { LocalPreferences } from './feed/LocalPreferences.ts';
import { DetailsStore } from './feed/DetailsStore.ts';
import { localOnlyCount } from './db/outboxQueries.ts';
import { apiBaseFor, contractOf, scopesFor, signUpUrlFor, syncIntervalFor } from './settings/contract.ts';
import { createFeedHandlers } from './feed/feedHandlers.ts';
import { LogoCache } from './feed/LogoCache.ts';
import { NewBreachMarks } from './views/NewBreachMarks.ts';
import { unresolvedTotal } from './views/overview.ts';
import { BreachSource } from './checks/BreachSource.ts';
import { ChecksPublisher } from './checks/ChecksPublisher.ts';
import { createChecksHandlers } from './checks/checksHandlers.ts';
import { listPending, readChecksView, storedSource } from './db/breachDataQueries.ts';
import { createPasswordHandlers } from './passwords/passwordHandlers.ts';
import { isShown, sensitivePolicyOf } from '../../shared/api/index.ts';

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
  close(): Promise<void>;
}

/**
 * The app: sign-in, the account's local store and sync, the outbox, notifications — composed
 * once here and offered to UIs through the router's channels. Runs in plain Node.
 */
export async function startCore(options: CoreOptions): Promise<Core> {
  const logger = options.logger ?? silentLogger;
  const bus = new EventBus();
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const base = options.config ? parseClientConfig({ ...loadClientConfig({ env: options.env ?? {} }), ...options.config }) : loadClientConfig({ env: options.env ?? process.env });
  const settings = new SettingsStore(options.dataDir, {
    serviceUrl: base.apiBaseUrl,
    issuer: base.issuer,
    syncIntervalMinutes: DEFAULT_SYNC_INTERVAL_MINUTES,
    notifications: true,
    startAtLogin: false,
    closeToTray: true,
    theme: 'system',
  });
  for (const problem of settings.problems) logger.warn(`settings: ${problem}`);
  // The one sensitive policy (shared/api/sensitive.ts), read from the person's setting at each use.
  const policy = () => sensitivePolicyOf(settings.get());
  const clientConfig = (serviceUrl = settings.get().serviceUrl, issuer = settings.get().issuer) => {
    const contract = contractOf(settings.get());
    return parseClientConfig({ ...base, apiBaseUrl: serviceUrl, issuer, apiContract: contract, scopes: scopesFor(base.scopes, contract) });
  };

  const cipher = options.host.cipher && (await options.host.cipher.isAvailable()) ? options.host.cipher : undefined;
  const secrets = await chooseSecretStore({
    keychain: options.keychain === false ? false : undefined,
    encryptedFile: cipher ? { dir: path.join(options.dataDir, 'secrets'), cipher: asSafeStorage(cipher) } : undefined,
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
    demoData: () => isDemo(),
  });
  const isDemo = () => {
    const session = sessions.get();
    return session ? storedSource(session.db) === 'demo' : false;
  };
  // Credentials a person adds (search token, feed key or secret, graph key) are that account's own.
  const accountSecrets = new AccountSecrets(secrets.store, () => sessions.get()?.account);
  const remotes = new RemoteGraphEndpoints({ dataDir: options.dataDir, secrets: accountSecrets, ...fetchOption });

  const sessions: CurrentSession = new CurrentSession({
    open: (account) => openSession(account),
    onClosed: () => {
      // Nothing of the account stays in memory: its search index goes with it.
      search.close();
      marks.clear();
      syncStatus.reset();
      changes.changed('sign-out');
      checks.publish();
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
        deleteAccountData: async (account) => {
          await sessions.closeIf(account.accountId);
          deleteAccountDatabase(options.dataDir, account);
        },
        logger,
        ...fetchOption,
      }),
  });

  // The breach details feed: public catalog details kept once for every account, synced after each breach sync.
  const detailsStore = new DetailsStore(path.join(options.dataDir, 'catalog-details.db'));
  const logos = new LogoCache({ dir: path.join(options.dataDir, 'logos'), ...fetchOption });
  const feed = new DetailsFeed({
    settings,
    secrets: accountSecrets,
    identity: auth.identity,
    store: detailsStore,
    logos,
    localPreferences: new LocalPreferences(path.join(options.dataDir, 'preferences')),
    ...fetchOption,
  });
  const syncDetails = () => {
    // A sync means the network is back: preferences changed offline are written back too.
    feed.writeBackPreferences().catch((error: unknown) => logger.warn('preferences: write-back failed', { error: String(error) }));
    return feed.sync().then(
      (report) => {
        if (report.status === 'updated') changes.changed('sync');
      },
      (error: unknown) => logger.warn('details feed: sync failed', { error: String(error) }),
    );
  };

  const syncView = () => {
    const session = sessions.get();
    return syncStatus.view({
      online: online.online,
      outbox: session?.sync.outbox.summary(),
      lastReport: session?.sync.scheduler.lastReport,
      db: session?.db,
      ...(session ? { localOnly: localOnlyCount(session.db) } : {}),
    });
  };
  const status = new StatusPublisher(
    {
      syncView,
      unresolved: () => {
        const session = sessions.get();
        return session ? unresolvedTotal(session.db, policy()) : 0;
      },
      signInNeeded: () => auth.status().state === 'sign-in-needed',
      notificationsPaused: () => notifier.paused,
      demoData: () => isDemo(),
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

  const changes = new DataChanges((change) => {
    status.dataChanged();
    bus.emit('data-changed', change);
    status.publish();
  });

  auth.onDidChangeStatus(async (next) => {
    bus.emit('auth-changed', auth.view(next));
    await sessions.apply(next);
    notifier.observeAuthState(next.state);
    status.publish();
  });

  function openSession(account: AccountRef): AccountSession {
    const session = AccountSession.open({
      dataDir: options.dataDir,
      account,
      apiBaseUrl: apiBaseFor(settings.get().serviceUrl, contractOf(settings.get())),
      contract: contractOf(settings.get()),
      // The newer contract's items carry only ids: details come from the feed, synced first when one is missing.
      details: { getMany: (ids) => feed.details(ids), refresh: async () => void (await feed.sync()) },
      tokens: auth.tokens,
      intervalMinutes: syncIntervalFor(settings.get().syncIntervalMinutes, contractOf(settings.get())),
      onGraphError: (error) => logger.warn('graph: rebuild failed', { error: String(error) }),
      graphShows: (breach) => isShown(breach, policy()),
      ...fetchOption,
    });
    const { scheduler, outbox } = session.sync;
    marks.load(session.db);
    syncStatus.reset();
    status.dataChanged();
    scheduler.onProgress((progress) => {
      syncStatus.observeProgress(progress);
      status.publish();
    });
    checks.publish();
    scheduler.onDidSync((report) => {
      void syncDetails();
      if (report.pull && report.pull.status !== 'stale' && report.pull.checks === 'failed') logger.warn('checks: could not be read', { error: report.pull.checksError ?? '' });
      checks.publish();
      afterSync(report, {
        policy: policy(),
        db: session.db,
        outbox,
        syncStatus,
        online,
        marks,
        notifier,
        changes,
        announceNewBreaches: (breaches) => bus.emit('breaches-new', { breaches }),
        publishStatus: () => status.publish(),
        signUpUrl: signUpUrlFor(settings.get()),
      });
    });
    // Counts only (pending, failed): the data events come from the toggles and the syncs.
    outbox.onDidChange(() => status.publish());
    void scheduler.start().catch((error: unknown) => logger.warn('sync: first sync failed', { error: String(error) }));
    return session;
  }

  const search = createSearchHandlers({
    sessions,
    settings,
    secrets: accountSecrets,
    policy,
    emit: (payload) => bus.emit('search-event', payload),
    details: { details: (ids) => feed.details(ids), version: () => JSON.stringify(detailsStore.state() ?? null) },
    ...fetchOption,
  });
  const { close: closeSearch, ...searchHandlers } = search;
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
      // The host's opener: the channel admits only http(s) addresses, and the main process checks again before shell.openExternal.
      createFeedHandlers({ feed, openExternal: (url) => options.host.openExternal(url) }) /* eng-disable OPEN_EXTERNAL_JS_CHECK */,
    ),
    {
      validateResults: options.validateResults ?? false,
      onInternalError: (channel, error) => logger.error(`channel ${channel} failed`, { error: error instanceof Error ? error.message : String(error) }),
    },
  );

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
    async close() {
      checks.stop();
      await auth.close();
      await sessions.close();
      remotes.close();
      closeSearch();
      detailsStore.close();
    },
  };
}

/** The host's asynchronous cipher in the shape the encrypted-file store takes (availability is known up front). */
function asSafeStorage(cipher: NonNullable<HostBridge['cipher']>): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    encryptString: async (plaintext) => Buffer.from(await cipher.encrypt(plaintext)),
    decryptString: (ciphertext) => cipher.decrypt(ciphertext),
  };
}
