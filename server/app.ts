import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountDirectory } from './api/accounts.ts';
import { BreachAlertService } from './api/BreachAlertService.ts';
import { API_PREFIX, createApiRoutes } from './api/routes.ts';
import type { AccessTokenVerifier } from './auth/AccessTokenVerifier.ts';
import { cachingVerifier } from './auth/cachingVerifier.ts';
import { createJwtAccessTokenVerifier } from './auth/jwtVerifier.ts';
import { loadCatalog } from './breaches/loadCatalog.ts';
import { demoDetailsFor, type CatalogLoadReport } from './catalog/source.ts';
import { detailsFeedVersion } from './rtdb/detailsFeedVersion.ts';
import { changedDetailIds, DETAILS_PATH, detailsFeedWriter, detailsPathOf, detailsReader, fromFeedValue } from './rtdb/detailsFeed.ts';
import { feedKeyOf } from '../shared/catalog/index.ts';
import type { RtdbStore } from './rtdb/RtdbStore.ts';
import { createRtdbRoutes } from './rtdb/routes.ts';
import type { StreamStats } from './rtdb/streamSlots.ts';
import { IDENTITY_PREFIX, serviceMounts } from './mounts.ts';
import { routeThrough, type Mount } from './http/mounts.ts';
import { createRemoteJWKSet } from 'jose';
import { AsyncDisposableStore, toAsyncDisposable } from '../shared/base/lifecycle.ts';
import { breachDataSource, emailVerificationMode, extraEmailsOf, isLoopbackHost, parseServiceConfig, type ServiceConfig, type ServiceConfigInput } from './config.ts';
import { PersonEmails, type CodeRules } from './api/PersonEmails.ts';
import { createSmtpMailer } from './mail/verificationMailer.ts';
import type { Clock } from './hibp/clock.ts';
import { startBreachData, type BreachData } from './hibp/index.ts';
import { createDevRoutes } from './dev/routes.ts';

export { IDENTITY_PREFIX } from './mounts.ts';
import { createFirefoxMount } from './firefox/routes.ts';
import { createGraphRoutes, GRAPH_PATH } from './graph/routes.ts';
import { createLimitedServer } from './http/connections.ts';
import { serviceHostNames } from './http/hostGate.ts';
import { HttpProblem, sendProblem } from './http/problems.ts';
import { createDevIdentityProvider, DEMO_USERS, DESKTOP_CLIENT_ID, loadOrCreateOwnerSecret, type DemoUser, type DevIdentityProvider } from './identity/index.ts';
import { createLogger, type Logger } from './log.ts';
import { OPENAPI_PATH } from './openapi/document.ts';
import type { BreachStore } from './breaches/BreachStore.ts';
import { StoreUnavailableError } from './storage/errors.ts';
import { ensurePrivateDir } from './storage/privateFiles.ts';
import { openStorage } from './openStorage.ts';
import { answerClientError, createSearchService, parseDetailsRecord, type SearchService } from './search/index.ts';

/** The graph endpoint's key under `--dev` when none is configured. */
export const DEV_GRAPH_KEY = 'dev-key';
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

/** The start itself: each part it opens goes into `opened` before the next step can fail. */
async function openService(config: ServiceConfig, logger: Logger, options: ServiceOptions, opened: AsyncDisposableStore): Promise<RunningService> {
  const storage = await openStorage(config, logger);
  opened.add(toAsyncDisposable(() => storage.close()));
  const { breaches: store, rtdb } = storage;
  // One writer for every whole-feed write: a breach the feed cannot hold is logged once, not at each refresh.
  const writeDetails = detailsFeedWriter(
    (value) => rtdb.transaction((tx) => tx.write([{ path: DETAILS_PATH, value }])),
    (id, problem) => logger.warn({ breach: id.slice(0, 80) }, `the breach ${JSON.stringify(id.slice(0, 80))} is left out of the details feed: ${problem}`),
  );
  let catalogReport = await loadCatalog({
    store,
    writeDetails,
    catalogFile: config.catalogFile,
    demo: breachDataSource(config) === 'demo',
    logger,
    now: options.clock ? () => new Date(options.clock!.now()) : () => new Date(),
  });
  const details = opened.add(
    await detailsReader(
      rtdb,
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
  const hostNames = serviceHostNames(port, ownOrigins);

  let identity: DevIdentityProvider | undefined;
  // Demo users only with demo data (`--demo`, or `--dev` without a key, which implies it). On real
  // data (a key or none, with `--dev` or without) there are none: the sign-in page says how the
  // owner signs in instead (docs/auth.md "The owner of a loopback service").
  const demoData = breachDataSource(config) === 'demo';
  const demoUsers = demoData ? DEMO_USERS : [];
  let verifier: AccessTokenVerifier;
  let jwksUrl: string;
  if (config.issuer) {
    jwksUrl = config.jwksUrl ?? (await discoverJwksUri(config.issuer));
    verifier = createJwtAccessTokenVerifier({ issuer: config.issuer, audience: config.audience, jwksUrl, maxLifetimeSec: config.maxTokenLifetimeSec });
  } else {
    const provider = await createDevIdentityProvider({
      issuer: (config.identityOrigin ?? url) + IDENTITY_PREFIX,
      audience: config.audience,
      ...storage.identity,
      logger,
      users: demoUsers,
      ...(config.owner ? { ownerSecret: loadOrCreateOwnerSecret(config.dataDir) } : {}),
      isAccountActive: async (sub) => (await store.getAccount(sub))?.deleted !== true,
      serviceAccounts: rtdb,
    });
    identity = provider;
    opened.add(toAsyncDisposable(() => provider.close()));
    // This instance's own copy of the key set: instances sharing an issuer share the keys too.
    jwksUrl = config.jwksUrl ?? identity.jwksUri.replace(identity.issuer, url + IDENTITY_PREFIX);
    verifier = createJwtAccessTokenVerifier({ issuer: identity.issuer, audience: config.audience, jwksUrl, maxLifetimeSec: config.maxTokenLifetimeSec });
  }

  const breachData = await startBreachData({
    config,
    store,
    lookups: () => storage.lookups(),
    writeDetails,
    logger,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  opened.add(toAsyncDisposable(() => breachData.close()));
  if (breachData.catalogReport) catalogReport = breachData.catalogReport;
  const clock = options.clock;
  const accounts = new AccountDirectory(store, extraEmailsOf(config), config.maxEmails);
  const service = new BreachAlertService(store, accounts, clock ? () => new Date(clock.now()) : () => new Date(), breachData.source);
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
    now: clock ? () => clock.now() : () => Date.now(),
    ...(options.codeRules ? { rules: options.codeRules } : {}),
    logger: logger.child({ component: 'emails' }),
  });
  const verifyToken = cachingVerifier(verifier);
  const feedVersion = opened.add(detailsFeedVersion(details));
  const api = createApiRoutes(service, verifyToken, { logger, emails, catalogVersion: () => feedVersion.current() });
  const search = createSearchService({ storage: searchStorage, accountId: config.accountId, logger });
  // A change of the details feed alone (a title, a description) moves what search finds without
  // moving the catalog revision the index is keyed by.
  opened.add(
    details.onDidChange(
      (paths) => void search.index.rebuild(changedDetailIds(paths)).catch((error: unknown) => logger.warn({ err: error }, 'could not rebuild the search index after the details feed changed')),
    ),
  );

  const firefox = createFirefoxMount(service, verifyToken, logger.child({ component: 'firefox-v1' }));
  const devIdentity = identity;
  const issuer = config.issuer ?? identity?.issuer ?? url + IDENTITY_PREFIX;
  const handleDev =
    config.dev && devIdentity
      ? createDevRoutes({
          store,
          mintAccessToken: (o) => devIdentity.mintAccessToken(o),
          apiTokens: { store: search.tokens, accountId: config.accountId },
          mintIdToken: (o) => devIdentity.mintIdToken(o),
          createServiceAccount: (scopes) => devIdentity.serviceAccounts!.create(scopes),
          secrets: rtdb,
          faults: { 'firefox-v1': firefox.faults },
          putDetails: (breaches) => {
            const generated = demoDetailsFor(breaches);
            return rtdb.transaction((tx) => tx.write(breaches.map((breach) => ({ path: detailsPathOf(breach.id), value: generated[breach.id]! }))));
          },
        })
      : undefined;
  const rtdbMount = opened.add(
    await createRtdbRoutes({
      store: rtdb,
      logger: logger.child({ component: 'rtdb' }),
      // ID tokens of the sign-in provider for its desktop client act as that person.
      idTokens: { issuer, audience: DESKTOP_CLIENT_ID, keys: createRemoteJWKSet(new URL(jwksUrl)) },
      isAccountActive: async (sub) => (await store.getAccount(sub))?.deleted !== true,
      serviceAccounts: identity?.serviceAccounts,
      findLiveSecret: (secret) => rtdb.findLiveSecret(secret),
      // Revocations reach ID tokens of this service's own provider (an external one keeps its own).
      ...(identity ? { isGrantLive: identity.isGrantLive } : {}),
      streams: config,
    }),
  );
  const graphKey = config.graphKey ?? (config.dev ? DEV_GRAPH_KEY : undefined);
  const handleGraph = createGraphRoutes({ store, catalogLog: storage.catalogLog, apiKey: graphKey });
  opened.add(toAsyncDisposable(() => handleGraph.close()));
  if (!graphKey) logger.warn('graph endpoint /v2/node is disabled (401 to every request): no --graph-key or GRAPH_API_KEY');
  if (!isLoopbackHost(config.host)) {
    logger.warn(
      { host: config.host, exposed: [API_PREFIX, ...(graphKey ? [GRAPH_PATH] : []), OPENAPI_PATH] },
      `listening on ${config.host}: other machines can reach the breach API (tokens from ${config.issuer}), ${graphKey ? 'the graph endpoint /v2/node (with its key), ' : ''}and the OpenAPI document`,
    );
  }

  const mounts = serviceMounts({
    hostNames,
    issuer,
    firefox,
    api,
    search,
    rtdb: rtdbMount,
    identity,
    graph: handleGraph,
    dev: handleDev,
    logoExists: async (id) => (await store.getBreach(id)) !== undefined || catalogReport.skipped.some((s) => s.id === id),
    accountId: config.accountId,
  });
  const route = (req: IncomingMessage, res: ServerResponse) => routeThrough(mounts, hostNames, req, res);

  connections.serve((req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('x-content-type-options', 'nosniff');
    if (logger.isLevelEnabled('debug')) {
      const started = performance.now();
      res.on('finish', () => {
        logger.debug({ method: req.method, path: (req.url ?? '').split('?')[0], status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request');
      });
    }
    void route(req, res).catch((error: unknown) => {
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
  });

  logger.info({ url, issuer, dev: config.dev, breaches: await store.catalogSize(), database: config.databaseUrl ? 'postgresql' : 'sqlite' }, 'breach-alert service listening');
  return {
    url,
    apiBaseUrl: url + API_PREFIX,
    issuer,
    audience: config.audience,
    dataDir: config.dataDir,
    demoUsers: identity ? demoUsers : [],
    store,
    rtdb,
    rtdbStreams: rtdbMount.streams,
    catalogReport,
    search,
    breachData,
    accountId: config.accountId,
    identity,
    server,
    mounts,
    async close() {
      // Stop accepting, let requests in flight finish (bounded), then close the rest, last opened first.
      graceMs = config.shutdownGraceMs;
      await serving.dispose();
      await opened.dispose();
    },
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
