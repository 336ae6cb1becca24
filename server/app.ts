import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedKeyOf } from '../shared/catalog/index.ts';
import { AsyncDisposableStore, toAsyncDisposable } from '../shared/base/lifecycle.ts';
import { AccountDirectory } from './api/accounts.ts';
import { BreachAlertService } from './api/BreachAlertService.ts';
import { PersonEmails, type CodeRules } from './api/PersonEmails.ts';
import { API_PREFIX } from './api/routes.ts';
import type { AccessTokenVerifier } from './auth/AccessTokenVerifier.ts';
import { cachingVerifier } from './auth/cachingVerifier.ts';
import { createJwtAccessTokenVerifier } from './auth/jwtVerifier.ts';
import type { BreachStore } from './breaches/BreachStore.ts';
import { loadCatalog } from './breaches/loadCatalog.ts';
import type { CatalogLoadReport } from './catalog/source.ts';
import { breachDataSource, emailVerificationMode, extraEmailsOf, isLoopbackHost, parseServiceConfig, type ServiceConfig, type ServiceConfigInput } from './config.ts';
import { GRAPH_PATH } from './graph/routes.ts';
import type { Clock } from './hibp/clock.ts';
import { startBreachData, type BreachData } from './hibp/index.ts';
import { createLimitedServer } from './http/connections.ts';
import { serviceHostNames } from './http/hostGate.ts';
import { routeThrough, type Mount } from './http/mounts.ts';
import { HttpProblem, sendProblem } from './http/problems.ts';
import { createDevIdentityProvider, DEMO_USERS, loadOrCreateOwnerSecret, type DemoUser, type DevIdentityProvider } from './identity/index.ts';
import { IDENTITY_PREFIX } from './identity/mount.ts';
import { createLogger, type Logger } from './log.ts';
import { createSmtpMailer } from './mail/verificationMailer.ts';
import { DEV_GRAPH_KEY, openServiceMounts } from './mounts.ts';
import { OPENAPI_PATH } from './openapi/document.ts';
import { openStorage, type ServiceStorage } from './openStorage.ts';
import { DETAILS_PATH, detailsFeedWriter, detailsPathOf, detailsReader, fromFeedValue } from './rtdb/detailsFeed.ts';
import { detailsFeedVersion } from './rtdb/detailsFeedVersion.ts';
import type { RtdbStore } from './rtdb/RtdbStore.ts';
import type { StreamStats } from './rtdb/streamSlots.ts';
import { answerClientError, parseDetailsRecord, type SearchService } from './search/index.ts';
import { StoreUnavailableError } from './storage/errors.ts';
import { ensurePrivateDir } from './storage/privateFiles.ts';

export { IDENTITY_PREFIX } from './identity/mount.ts';
export { DEV_GRAPH_KEY } from './mounts.ts';

/** Seconds a client waits before retrying while the database is away. */
const DATABASE_RETRY_AFTER_SEC = 5;

export interface RunningService {
  /** Origin of the server, e.g. `http://127.0.0.1:6060`. */
  url: string;
  apiBaseUrl: string;
  issuer: string;
  audience: string;
  dataDir: string;
  demoUsers: readonly DemoUser[];
  store: BreachStore;
  /** The realtime database's storage (details feed, people's preferences, secrets). */
  rtdb: RtdbStore;
  /** The realtime database's open streaming reads: how many, and the bytes their readers left unread. */
  rtdbStreams: StreamStats;
  /** What loading the catalog at start changed and left out (also logged). */
  catalogReport: CatalogLoadReport;
  /** The search interface (`/client/v4/accounts/{accountId}/…`): its index and API tokens. */
  search: SearchService;
  /** Where exposures come from (`hibp`, `demo`, `none`), with the lookup queue when it is HIBP. */
  breachData: BreachData;
  accountId: string;
  /** Present when the development identity provider is mounted. */
  identity: DevIdentityProvider | undefined;
  server: Server;
  /** The router's table (server/http/mounts.ts): what the route walk and the Host-gate test walk. */
  mounts: readonly Mount[];
  close(): Promise<void>;
}

/**
 * Starts the reference breach-alert service: API, development identity provider and, with
 * `dev`, the development surface. Listens first so the issuer can carry the real port; until
 * everything is ready, requests are answered 503 with `Retry-After` (never left unanswered).
 */
export interface ServiceOptions {
  logger?: Logger;
  clock?: Clock;
  /** Shorter code limits than EmailRules' (tests of expiry and limits). */
  codeRules?: CodeRules;
}

export async function startService(input: ServiceConfigInput, options: ServiceOptions = {}): Promise<RunningService> {
  const config = parseServiceConfig(input);
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  ensurePrivateDir(config.dataDir);
  // Everything the service opens, kept as it opens and closed once in reverse order: at once
  // when the start fails part-way (no file, pool or port left behind), or by `close`.
  const opened = new AsyncDisposableStore({ onLateError: (error) => logger.warn({ err: error }, 'could not close a part that opened after the service closed') });
  try {
    return await openService(config, logger, options, opened);
  } catch (error) {
    await opened.dispose().catch((cleanupError: unknown) => logger.warn({ err: cleanupError }, 'a failed start could not close everything it had opened'));
    throw error;
  }
}

/**
 * The start itself, as a table of contents: each part it opens goes into `opened` before the
 * next step can fail. Storage and the catalog first, then the port (so the issuer can carry
 * it), sign-in, the breach data, the breach-alert service, and the features' mounts.
 */
async function openService(config: ServiceConfig, logger: Logger, options: ServiceOptions, opened: AsyncDisposableStore): Promise<RunningService> {
  const now = options.clock ? () => options.clock!.now() : () => Date.now();
  const storage = await openStorage(config, logger);
  opened.add(toAsyncDisposable(() => storage.close()));
  const { breaches: store, rtdb } = storage;
  const { writeDetails, details, searchStorage } = await openDetails(storage, logger, opened);
  let catalogReport = await loadCatalog({ store, writeDetails, catalogFile: config.catalogFile, demo: breachDataSource(config) === 'demo', logger, now: () => new Date(now()) });
  const listening = await listen(config, opened);
  const signIn = await openSignIn(config, storage, listening.url, logger, opened);
  const breachData = await startBreachData({ config, store, lookups: () => storage.lookups(), writeDetails, logger, ...(options.clock ? { clock: options.clock } : {}) });
  opened.add(toAsyncDisposable(() => breachData.close()));
  if (breachData.catalogReport) catalogReport = breachData.catalogReport;
  const { service, emails } = openBreachAlerts(config, storage, breachData, listening.url, now, options, logger, opened);

  const { mounts, search, rtdbStreams } = await openServiceMounts(
    {
      config,
      logger,
      hostNames: listening.hostNames,
      issuer: signIn.issuer,
      jwksUrl: signIn.jwksUrl,
      storage,
      searchStorage,
      details,
      catalogVersion: opened.add(detailsFeedVersion(details)).current,
      identity: signIn.identity,
      verifyToken: cachingVerifier(signIn.verifier),
      service,
      emails,
      logoExists: async (id) => (await store.getBreach(id)) !== undefined || catalogReport.skipped.some((s) => s.id === id),
    },
    opened,
  );
  warnIfReachable(config, logger);
  listening.connections.serve(requestHandler(mounts, listening.hostNames, logger));

  logger.info(
    { url: listening.url, issuer: signIn.issuer, dev: config.dev, breaches: await store.catalogSize(), database: config.databaseUrl ? 'postgresql' : 'sqlite' },
    'breach-alert service listening',
  );
  return {
    url: listening.url,
    apiBaseUrl: listening.url + API_PREFIX,
    issuer: signIn.issuer,
    audience: config.audience,
    dataDir: config.dataDir,
    demoUsers: signIn.identity ? signIn.demoUsers : [],
    store,
    rtdb,
    rtdbStreams,
    catalogReport,
    search,
    breachData,
    accountId: config.accountId,
    identity: signIn.identity,
    server: listening.server,
    mounts,
    async close() {
      // Stop accepting, let requests in flight finish (bounded), then close the rest, last opened first.
      await listening.drain(config.shutdownGraceMs);
      await opened.dispose();
    },
  };
}

/** The details feed the catalog writes and search reads, and search's storage beside the breach store. */
async function openDetails(storage: ServiceStorage, logger: Logger, opened: AsyncDisposableStore) {
  // One writer for every whole-feed write: a breach the feed cannot hold is logged once, not at each refresh.
  const writeDetails = detailsFeedWriter(
    (value) => storage.rtdb.transaction((tx) => tx.write([{ path: DETAILS_PATH, value }])),
    (id, problem) => logger.warn({ breach: id.slice(0, 80) }, `the breach ${JSON.stringify(id.slice(0, 80))} is left out of the details feed: ${problem}`),
  );
  const details = opened.add(
    await detailsReader(
      storage.rtdb,
      (error) => logger.warn({ err: error }, 'could not re-read the details feed another instance changed'),
      (error) => logger.error({ err: error }, 'a reader of the details feed failed'),
    ),
  );
  // The search interface's API tokens and index sit beside the breach store: SQLite or PostgreSQL.
  const searchStorage = await storage.search({
    // The feed is keyed by feed keys (`Foo%2EBar`); the index by breach ids (`Foo.Bar`).
    readDetails: () => parseDetailsRecord(fromFeedValue(details.get(DETAILS_PATH))),
    readDetailsOf: (id) => parseDetailsRecord(fromFeedValue({ [feedKeyOf(id)]: details.get(detailsPathOf(id)) }))[id],
  });
  // Closed with the storage too; first, so the index stops reading the details feed before it goes.
  opened.add(toAsyncDisposable(() => searchStorage.close()));
  return { writeDetails, details, searchStorage };
}

/** Listens before anything else is mounted: requests are answered 503 until `serve` is called. */
async function listen(config: ServiceConfig, opened: AsyncDisposableStore) {
  const connections = createLimitedServer(config, answerClientError);
  const { server } = connections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  // A failed start has no request in flight to wait for; `close` gives those it has their grace.
  let graceMs = 0;
  const serving = opened.add(toAsyncDisposable(() => connections.drain(graceMs)));
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // 0.0.0.0 and :: are not names a client can send; a specific address (or the public origin) is.
  const ownOrigins = [...(isUnspecifiedHost(config.host) ? [] : [url]), ...(config.publicOrigin ? [config.publicOrigin] : [])];
  return {
    connections,
    server,
    url,
    hostNames: serviceHostNames(port, ownOrigins),
    drain: (ms: number) => {
      graceMs = ms;
      return serving.dispose();
    },
  };
}

/** Who signs people in: the configured issuer, or the development identity provider mounted here. */
async function openSignIn(config: ServiceConfig, storage: ServiceStorage, url: string, logger: Logger, opened: AsyncDisposableStore) {
  // Demo users only with demo data (`--demo`, or `--dev` without a key, which implies it). On real
  // data (a key or none, with `--dev` or without) there are none: the sign-in page says how the
  // owner signs in instead (docs/auth.md "The owner of a loopback service").
  const demoUsers = breachDataSource(config) === 'demo' ? DEMO_USERS : [];
  if (config.issuer) {
    const jwksUrl = config.jwksUrl ?? (await discoverJwksUri(config.issuer));
    const verifier = createJwtAccessTokenVerifier({ issuer: config.issuer, audience: config.audience, jwksUrl, maxLifetimeSec: config.maxTokenLifetimeSec });
    return { identity: undefined, issuer: config.issuer, jwksUrl, verifier, demoUsers };
  }
  const identity = await createDevIdentityProvider({
    issuer: (config.identityOrigin ?? url) + IDENTITY_PREFIX,
    audience: config.audience,
    ...storage.identity,
    logger,
    users: demoUsers,
    ...(config.owner ? { ownerSecret: loadOrCreateOwnerSecret(config.dataDir) } : {}),
    isAccountActive: async (sub) => (await storage.breaches.getAccount(sub))?.deleted !== true,
    serviceAccounts: storage.rtdb,
  });
  opened.add(toAsyncDisposable(() => identity.close()));
  // This instance's own copy of the key set: instances sharing an issuer share the keys too.
  const jwksUrl = config.jwksUrl ?? identity.jwksUri.replace(identity.issuer, url + IDENTITY_PREFIX);
  const verifier: AccessTokenVerifier = createJwtAccessTokenVerifier({ issuer: identity.issuer, audience: config.audience, jwksUrl, maxLifetimeSec: config.maxTokenLifetimeSec });
  return { identity, issuer: identity.issuer, jwksUrl, verifier, demoUsers };
}

/** The breach-alert service over the store, and the person's addresses with their verification mail. */
function openBreachAlerts(
  config: ServiceConfig,
  storage: ServiceStorage,
  breachData: BreachData,
  url: string,
  now: () => number,
  options: ServiceOptions,
  logger: Logger,
  opened: AsyncDisposableStore,
) {
  const store = storage.breaches;
  const accounts = new AccountDirectory(store, extraEmailsOf(config), config.maxEmails);
  const service = new BreachAlertService(store, accounts, () => new Date(now()), breachData.source);
  const verificationMode = emailVerificationMode(config);
  const mailer = verificationMode === 'code' && config.smtpUrl ? createSmtpMailer({ url: config.smtpUrl, from: config.smtpFrom }) : undefined;
  if (mailer) opened.add(toAsyncDisposable(() => mailer.close()));
  const emails = new PersonEmails({
    store,
    accounts,
    service,
    mode: verificationMode,
    mailer,
    maxEmails: config.maxEmails,
    serviceName: config.publicOrigin ?? url,
    now,
    ...(options.codeRules ? { rules: options.codeRules } : {}),
    logger: logger.child({ component: 'emails' }),
  });
  return { service, emails };
}

function warnIfReachable(config: ServiceConfig, logger: Logger): void {
  if (isLoopbackHost(config.host)) return;
  const graphKey = config.graphKey ?? (config.dev ? DEV_GRAPH_KEY : undefined);
  logger.warn(
    { host: config.host, exposed: [API_PREFIX, ...(graphKey ? [GRAPH_PATH] : []), OPENAPI_PATH] },
    `listening on ${config.host}: other machines can reach the breach API (tokens from ${config.issuer}), ${graphKey ? 'the graph endpoint /v2/node (with its key), ' : ''}and the OpenAPI document`,
  );
}

/** Every request: through the router's table, its errors as problem documents (503 while the database is away). */
function requestHandler(mounts: readonly Mount[], hostNames: ReadonlySet<string>, logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('x-content-type-options', 'nosniff');
    if (logger.isLevelEnabled('debug')) {
      const started = performance.now();
      res.on('finish', () => {
        logger.debug({ method: req.method, path: (req.url ?? '').split('?')[0], status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request');
      });
    }
    void routeThrough(mounts, hostNames, req, res).catch((error: unknown) => {
      const unavailable = error instanceof StoreUnavailableError;
      if (unavailable) logger.warn({ database: error.database, path: (req.url ?? '').split('?')[0] }, 'database unavailable');
      else if (!(error instanceof HttpProblem)) logger.error({ err: error, path: (req.url ?? '').split('?')[0] }, 'request failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendProblem(
        res,
        error instanceof HttpProblem
          ? error
          : unavailable
            ? new HttpProblem(503, 'the database is unavailable; try again shortly', { headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SEC) } })
            : new HttpProblem(500, 'the service failed to answer; try again later'),
      );
    });
  };
}

function isUnspecifiedHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(issuer.replace(/\/$/, '') + '/.well-known/openid-configuration');
  if (!response.ok) throw new Error(`OpenID discovery at ${issuer} answered ${response.status}`);
  const document = (await response.json()) as { jwks_uri?: unknown };
  if (typeof document.jwks_uri !== 'string') throw new Error(`OpenID discovery at ${issuer} has no jwks_uri`);
  return document.jwks_uri;
}
