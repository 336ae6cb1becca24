import path from 'node:path';
import { ZodError } from 'zod';
import {
  CoreError,
  failedResolutionsNotification,
  newBreachesNotification,
  signInNeededNotification,
  type AuthStatus as AuthStatusView,
  type HostSignal,
  type Settings,
  type SyncStatus as SyncStatusView,
} from '../../shared/ipc/index.ts';
import { SignInRequiredError, type AccessTokenSource } from './api/AccessTokenSource.ts';
import { AuthService, chooseSecretStore, loadClientConfig, parseClientConfig, SignInError, silentLogger, type AuthLogger, type AuthStatus, type ClientConfigInput, type SafeStorageLike } from './auth/index.ts';
import { accountEmailsOf } from './db/breachQueries.ts';
import { getSyncState, setSyncState } from './db/syncStateQueries.ts';
import type { HostBridge } from './host.ts';
import { EventBus } from './ipc/EventBus.ts';
import { GraphQueryError, NodeQueryClient, NodeQueryError, openGraphDatabase, QueryCache, queryEmbedded } from './graph/index.ts';
import { Router, type Handlers } from './ipc/Router.ts';
import { UnknownTargetError } from './outbox/errors.ts';
import { countBreaches, getLocalBreach, queryBreaches } from './queries/localQueries.ts';
import { AccountSession, deleteAccountDatabase } from './session/AccountSession.ts';
import { SettingsStore } from './settings/SettingsStore.ts';
import type { SyncProgress, SyncReport } from './sync/SyncScheduler.ts';
import { toBreachDetail, toBreachList } from './views/breachViews.ts';
import { knownDataClasses, knownDomains, overviewOf, unresolvedTotal } from './views/overview.ts';

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
  const base = options.config ? parseClientConfig({ ...loadClientConfig({ env: options.env ?? {} }), ...options.config }) : loadClientConfig({ env: options.env ?? process.env });
  const settings = new SettingsStore(options.dataDir, {
    serviceUrl: base.apiBaseUrl,
    issuer: base.issuer,
    syncIntervalMinutes: 30,
    notifications: true,
    startAtLogin: false,
    closeToTray: true,
    theme: 'system',
  });
  for (const problem of settings.problems) logger.warn(`settings: ${problem}`);
  const clientConfig = () => parseClientConfig({ ...base, apiBaseUrl: settings.get().serviceUrl, issuer: settings.get().issuer });

  const cipher = options.host.cipher && (await options.host.cipher.isAvailable()) ? options.host.cipher : undefined;
  const secrets = await chooseSecretStore({
    keychain: options.keychain === false ? false : undefined,
    encryptedFile: cipher ? { dir: path.join(options.dataDir, 'secrets'), cipher: asSafeStorage(cipher) } : undefined,
    logger,
  });

  let session: AccountSession | undefined;
  let auth: AuthService = createAuth();
  let online = true;
  let notificationsPaused = false;
  let progress: SyncProgress | undefined;
  let lastError: string | undefined;
  let newIds = new Set<string>();
  let signingIn: Promise<unknown> | undefined;
  let authChanges: Promise<void> = Promise.resolve();

  function createAuth(): AuthService {
    const service = new AuthService({
      config: clientConfig(),
      dataDir: path.join(options.dataDir, 'auth'),
      secrets: secrets.store,
      secretsWarning: secrets.warning,
      deleteAccountData: async (account) => {
        if (session?.account.accountId === account.accountId) await closeSession();
        deleteAccountDatabase(options.dataDir, account);
      },
      logger,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    // One change at a time: opening and closing an account's session must not interleave.
    service.onDidChangeStatus((status) => {
      authChanges = authChanges.then(() => onAuthChanged(status)).catch((error: unknown) => logger.error('sign-in: could not apply a status change', { error: String(error) }));
    });
    return service;
  }

  /** API calls always go through whichever sign-in is current, so a re-sign-in needs no rewiring. */
  const tokens: AccessTokenSource = {
    getAccessToken: () => (auth.tokens ? auth.tokens.getAccessToken() : Promise.reject(new SignInRequiredError('sign in to sync'))),
    refreshAfterUnauthorized: (rejected) => (auth.tokens ? auth.tokens.refreshAfterUnauthorized(rejected) : Promise.reject(new SignInRequiredError('sign in to sync'))),
  };

  let previousState: AuthStatus['state'] | undefined;
  async function onAuthChanged(status: AuthStatus): Promise<void> {
    bus.emit('auth-changed', authView(status));
    if (status.account && (status.state === 'signed-in' || status.state === 'sign-in-needed')) {
      if (session && session.account.accountId !== status.account.accountId) await closeSession();
      if (!session) openSession(status.account);
      else if (status.state === 'signed-in' && previousState === 'sign-in-needed') void session.sync.scheduler.syncNow('manual');
    } else if (status.state === 'signed-out') {
      await closeSession();
    }
    if (status.state === 'sign-in-needed' && previousState !== 'sign-in-needed') notify(signInNeededNotification());
    previousState = status.state;
    publishStatus();
  }

  function openSession(account: { accountId: string; issuer: string; subject: string }): void {
    session = AccountSession.open({
      dataDir: options.dataDir,
      account,
      apiBaseUrl: settings.get().serviceUrl,
      tokens,
      onGraphError: (error) => logger.warn('graph: rebuild failed', { error: String(error) }),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const { scheduler, outbox } = session.sync;
    newIds = readNewIds(session);
    scheduler.setIntervalMinutes(settings.get().syncIntervalMinutes);
    scheduler.onProgress((next) => {
      progress = next.phase === 'done' ? undefined : next;
      publishStatus();
    });
    scheduler.onDidSync((report) => onSynced(report));
    outbox.onDidChange(() => {
      bus.emit('data-changed', { reason: 'outbox' });
      publishStatus();
    });
    void scheduler.start().catch((error: unknown) => logger.warn('sync: first sync failed', { error: String(error) }));
  }

  async function closeSession(): Promise<void> {
    const closing = session;
    session = undefined;
    newIds = new Set();
    if (closing) {
      await closing.close();
      bus.emit('data-changed', { reason: 'sign-out' });
    }
  }

  function onSynced(report: SyncReport): void {
    lastError = report.status === 'ok' || report.status === 'cancelled' ? undefined : report.error;
    if (report.status === 'ok') online = true;
    if (report.error && /could not reach|did not answer/.test(report.error)) online = false;
    const db = session?.db;
    if (report.diff && !report.diff.baseline && db) {
      const fresh = report.diff.newBreaches;
      if (fresh.length > 0) {
        newIds = new Set(fresh.map((breach) => breach.id));
        setSyncState(db, 'newBreachIds', JSON.stringify([...newIds]));
        const notices = fresh.map((breach) => ({ id: breach.id, breachDate: breach.breachDate, dataClasses: breach.dataClasses, emails: accountEmailsOf(db, breach.id) }));
        bus.emit('breaches-new', { breaches: notices });
        notify(newBreachesNotification(notices));
      }
    }
    if (report.push && report.push.failed > 0 && session) {
      const failures = session.sync.outbox.items('failed').map((item) => ({ breachId: item.breachId, reason: item.failure?.reason ?? 'refused by the service' }));
      notify(failedResolutionsNotification(failures.slice(-report.push.failed)));
    }
    if (report.pull?.status !== undefined || report.push) bus.emit('data-changed', { reason: 'sync' });
    publishStatus();
  }

  function notify(notification: ReturnType<typeof signInNeededNotification> | undefined): void {
    if (!notification || !settings.get().notifications || notificationsPaused) return;
    options.host.notify(notification);
  }

  function syncView(): SyncStatusView {
    const summary = session?.sync.outbox.summary();
    const report = session?.sync.scheduler.lastReport;
    const lastOk = report?.status === 'ok' ? report.finishedAt : undefined;
    const stored = session ? lastSyncAt(session) : undefined;
    const at = lastOk ?? stored;
    return {
      online,
      phase: !progress ? 'idle' : progress.phase === 'push' ? 'pushing' : progress.phase === 'pull' ? 'pulling' : 'applying',
      ...(at !== undefined ? { lastSyncAt: new Date(at).toISOString() } : {}),
      ...(lastError ? { lastError } : {}),
      pending: summary ? summary.pending + summary.sending : 0,
      failed: summary?.failed ?? 0,
      ...(progress?.phase === 'push' && progress.push ? { progress: { done: progress.push.requests, total: progress.push.plannedRequests } } : {}),
    };
  }

  function publishStatus(): void {
    const view = syncView();
    bus.emit('sync-changed', view);
    options.host.setTrayState({
      unresolved: session ? unresolvedTotal(session.db) : 0,
      ...(view.lastSyncAt ? { lastSyncAt: view.lastSyncAt } : {}),
      signInNeeded: auth.status().state === 'sign-in-needed',
      notificationsPaused,
      syncing: view.phase !== 'idle',
    });
  }

  function authView(status: AuthStatus = auth.status()): AuthStatusView {
    return {
      state: status.state,
      ...(status.account ? { account: { accountId: status.account.accountId, issuer: status.account.issuer, ...(status.account.email ? { email: status.account.email } : {}) } } : {}),
      remembered: secrets.store.persistent,
      ...(status.warning ? { warning: status.warning } : {}),
      ...(status.error ? { error: status.error } : {}),
      ...(status.signIn ? { signIn: status.signIn } : {}),
    };
  }

  /** A client per remote endpoint; its key lives in the secret store, its answers in a cache for offline use. */
  const remoteClients = new Map<string, NodeQueryClient>();
  let graphCacheDb: ReturnType<typeof openGraphDatabase> | undefined;
  let graphCache: QueryCache | undefined;
  function remoteGraph(url: string): NodeQueryClient {
    let client = remoteClients.get(url);
    if (!client) {
      graphCacheDb ??= openGraphDatabase(path.join(options.dataDir, 'graph-cache.db'));
      graphCache ??= new QueryCache(graphCacheDb);
      client = new NodeQueryClient({ baseUrl: url, secrets: secrets.store, cache: graphCache, ...(options.fetch ? { fetch: options.fetch } : {}) });
      remoteClients.set(url, client);
    }
    return client;
  }

  async function graphRemoteView(): Promise<{ url?: string; hasKey: boolean }> {
    const url = settings.get().graphRemoteUrl;
    return url ? { url, hasKey: await remoteGraph(url).hasApiKey() } : { hasKey: false };
  }

  function requireSession(): AccountSession {
    if (!session) throw new CoreError('sign-in-required', 'Sign in to see your breaches.');
    return session;
  }

  const handlers: Handlers = {
    'auth-status': () => authView(),
    'auth-sign-in': async () => {
      // The host's opener, not Electron's shell: the main process validates the URL (http(s) only) before it calls shell.openExternal.
      const attempt = auth.signIn({ opener: (url) => options.host.openExternal(url) }); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
      signingIn = attempt;
      try {
        await attempt;
      } catch (error) {
        if (error instanceof SignInError) throw new CoreError(error.code === 'cancelled' ? 'cancelled' : error.code === 'network' ? 'unavailable' : 'sign-in-required', error.message);
        throw error;
      } finally {
        if (signingIn === attempt) signingIn = undefined;
      }
      return authView();
    },
    'auth-cancel': () => {
      auth.cancelSignIn();
      return {};
    },
    'auth-sign-out': async ({ deleteLocalData }) => {
      await auth.signOut({ deleteLocalData });
      await closeSession();
      publishStatus();
      return authView();
    },
    'breaches-list': (query) => {
      if (!session) return { rows: [], total: 0, unresolvedByDataClass: {} };
      const { offset, limit, ...filters } = query;
      const page = queryBreaches(session.db, { ...filters, offset, limit });
      return toBreachList(page.items, page.total, countBreaches(session.db, filters), newIds);
    },
    'breach-get': ({ id }) => {
      const item = getLocalBreach(requireSession().db, id);
      if (!item) throw new CoreError('not-found', `There is no breach "${id}" in this account.`);
      return toBreachDetail(item, newIds.has(id));
    },
    'breaches-domains': () => (session ? knownDomains(session.db) : []),
    'breaches-data-classes': () => (session ? knownDataClasses(session.db) : []),
    'resolutions-set': ({ breachId, dataClasses, emails, resolved }) => {
      try {
        requireSession().sync.outbox.record([{ breachId, dataClasses, resolved, ...(emails ? { emails } : {}) }]);
      } catch (error) {
        if (error instanceof UnknownTargetError) throw new CoreError('not-found', error.message);
        throw error;
      }
      return {};
    },
    'outbox-retry': ({ breachId }) => {
      const { outbox, scheduler } = requireSession().sync;
      const ids = outbox.items('failed').filter((item) => breachId === undefined || item.breachId === breachId).map((item) => item.id);
      if (outbox.retry(ids) > 0) void scheduler.syncNow('push');
      return {};
    },
    'outbox-discard': ({ breachId }) => {
      const { outbox } = requireSession().sync;
      outbox.discard(outbox.items('failed').filter((item) => breachId === undefined || item.breachId === breachId).map((item) => item.id));
      return {};
    },
    'sync-now': async () => {
      if (session) await session.sync.scheduler.syncNow('manual');
      return syncView();
    },
    'sync-status': () => syncView(),
    'overview-get': () => (session ? overviewOf(session.db) : { breaches: 0, unresolvedByDataClass: [], unresolvedByEmail: [], breachesByYear: [] }),
    'graph-query': async ({ endpoint, maxPages, ...request }) => {
      try {
        if (endpoint === 'embedded') return await queryEmbedded(requireSession().graph, request, { maxPages });
        const url = settings.get().graphRemoteUrl;
        if (!url) throw new CoreError('invalid-arguments', 'Add a remote graph endpoint in the graph pane first.');
        return await remoteGraph(url).query(request, { maxPages });
      } catch (error) {
        if (error instanceof GraphQueryError) throw new CoreError('invalid-arguments', error.message, [{ path: error.field, message: error.message }]);
        if (error instanceof NodeQueryError) throw new CoreError(error.kind === 'rejected' ? 'invalid-arguments' : 'unavailable', error.message);
        throw error;
      }
    },
    'graph-remote-get': async () => graphRemoteView(),
    'graph-remote-set': async ({ url, apiKey }) => {
      settings.update({ graphRemoteUrl: url });
      if (apiKey !== undefined) await remoteGraph(url).setApiKey(apiKey);
      return graphRemoteView();
    },
    'settings-get': () => settings.get(),
    'settings-set': async (change) => {
      const current = settings.get();
      const switching = (change.serviceUrl !== undefined && change.serviceUrl !== current.serviceUrl) || (change.issuer !== undefined && change.issuer !== current.issuer);
      if (switching && auth.status().state !== 'signed-out') throw new CoreError('conflict', 'Sign out before switching to another service.');
      let next: Settings;
      try {
        if (switching) parseClientConfig({ ...base, apiBaseUrl: change.serviceUrl ?? current.serviceUrl, issuer: change.issuer ?? current.issuer });
        next = settings.update(change);
      } catch (error) {
        if (error instanceof ZodError || error instanceof Error) throw new CoreError('invalid-arguments', error.message);
        throw error;
      }
      if (switching) auth = createAuth();
      session?.sync.scheduler.setIntervalMinutes(next.syncIntervalMinutes);
      options.host.applyShellSettings?.({ startAtLogin: next.startAtLogin, closeToTray: next.closeToTray });
      return next;
    },
  };

  const router = new Router(handlers, {
    validateResults: options.validateResults ?? false,
    onInternalError: (channel, error) => logger.error(`channel ${channel} failed`, { error: error instanceof Error ? error.message : String(error) }),
  });

  await auth.restore().catch((error: unknown) => logger.warn('sign-in: could not restore the previous session', { error: String(error) }));
  publishStatus();

  return {
    router,
    bus,
    signal(signal) {
      const scheduler = session?.sync.scheduler;
      switch (signal) {
        case 'resume':
          scheduler?.notifyResume();
          break;
        case 'online':
          online = true;
          scheduler?.notifyOnline();
          break;
        case 'offline':
          online = false;
          break;
        case 'sync-now':
          void scheduler?.syncNow('manual');
          break;
        case 'pause-notifications':
          notificationsPaused = true;
          break;
        case 'resume-notifications':
          notificationsPaused = false;
          break;
        case 'suspend':
          scheduler?.cancel();
          break;
      }
      publishStatus();
    },
    async close() {
      auth.cancelSignIn();
      await signingIn?.catch(() => undefined);
      await authChanges;
      await closeSession();
      graphCacheDb?.close();
    },
  };
}

/** The "New" marks survive a restart: they last until a later sync brings other new breaches. */
function readNewIds(session: AccountSession): Set<string> {
  try {
    const ids: unknown = JSON.parse(getSyncState(session.db, 'newBreachIds') ?? '[]');
    return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

function lastSyncAt(session: AccountSession): number | undefined {
  const value = getSyncState(session.db, 'lastSyncAt');
  if (value === undefined) return undefined;
  const parsed = Number.isNaN(Number(value)) ? Date.parse(value) : Number(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** The host's asynchronous cipher in the shape the encrypted-file store takes (availability is known up front). */
function asSafeStorage(cipher: NonNullable<HostBridge['cipher']>): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    encryptString: async (plaintext) => Buffer.from(await cipher.encrypt(plaintext)),
    decryptString: (ciphertext) => cipher.decrypt(ciphertext),
  };
}
