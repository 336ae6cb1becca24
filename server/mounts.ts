import { createRemoteJWKSet } from 'jose';
import type { AsyncDisposable, AsyncDisposableStore } from '../shared/base/lifecycle.ts';
import type { BreachAlertService } from './api/BreachAlertService.ts';
import { createApiMount } from './api/mount.ts';
import type { PersonEmails } from './api/PersonEmails.ts';
import type { AccessTokenVerifier } from './auth/AccessTokenVerifier.ts';
import { createLogosMount } from './catalog/logosMount.ts';
import { demoDetailsFor } from './catalog/source.ts';
import type { ServiceConfig } from './config.ts';
import { createDevMount } from './dev/mount.ts';
import { createFirefoxMount } from './firefox/mount.ts';
import { createGraphMount } from './graph/mount.ts';
import type { Mount } from './http/mounts.ts';
import { DESKTOP_CLIENT_ID, type DevIdentityProvider } from './identity/index.ts';
import { createIdentityMount } from './identity/mount.ts';
import type { Logger } from './log.ts';
import { createOpenApiMount, createRootMount } from './openapi/mount.ts';
import type { ServiceStorage } from './openStorage.ts';
import { changedDetailIds, detailsPathOf } from './rtdb/detailsFeed.ts';
import type { LocationMirror } from './rtdb/mirror.ts';
import { createRtdbMount } from './rtdb/mount.ts';
import type { StreamStats } from './rtdb/streamSlots.ts';
import type { SearchService, SearchStorage } from './search/index.ts';
import { createSearchMount } from './search/mount.ts';

/** The graph endpoint's key under `--dev` when none is configured. */
export const DEV_GRAPH_KEY = 'dev-key';

/** What the features are mounted over: the parts openService opened before them. */
export interface ServiceMountDeps {
  config: ServiceConfig;
  logger: Logger;
  /** The Host names the service answers (the dev surface's Origin check uses them too). */
  hostNames: ReadonlySet<string>;
  issuer: string;
  jwksUrl: string;
  storage: ServiceStorage;
  searchStorage: SearchStorage;
  /** The details feed, mirrored from the realtime database. */
  details: LocationMirror;
  catalogVersion: () => string;
  /** The development identity provider, when no external issuer is configured. */
  identity: DevIdentityProvider | undefined;
  verifyToken: AccessTokenVerifier;
  service: BreachAlertService;
  emails: PersonEmails;
  /** Whether a logo names a breach of the catalog (or one the catalog's load left out). */
  logoExists(id: string): Promise<boolean>;
}

export interface ServiceMounts {
  /** The router's table, in the order it tries them. */
  mounts: readonly Mount[];
  search: SearchService;
  rtdbStreams: StreamStats;
}

/**
 * The service's mounts, in the order the router tries them, each made by its feature as
 * `Mount & AsyncDisposable` and kept in `opened` to close with the service. Each names who it
 * trusts (docs/security.md has a row per mount); the router runs each one's access decision
 * before its handler. A mount not enabled in this configuration is left out, so its paths are
 * 404 like any other unknown path.
 */
export async function openServiceMounts(deps: ServiceMountDeps, opened: AsyncDisposableStore): Promise<ServiceMounts> {
  const { config, logger, storage, identity } = deps;
  const { breaches: store, rtdb } = storage;
  const open = <T extends AsyncDisposable>(made: T): T => opened.add(made);
  const isAccountActive = async (sub: string) => (await store.getAccount(sub))?.deleted !== true;
  const graphKey = config.graphKey ?? (config.dev ? DEV_GRAPH_KEY : undefined);
  if (!graphKey) logger.warn('graph endpoint /v2/node is disabled (401 to every request): no --graph-key or GRAPH_API_KEY');

  const firefox = open(createFirefoxMount(deps));
  const search = open(
    createSearchMount({
      storage: deps.searchStorage,
      accountId: config.accountId,
      logger,
      onDetailsChanged: (listener) => deps.details.onDidChange((paths) => listener(changedDetailIds(paths))),
    }),
  );
  const rtdbMount = open(
    await createRtdbMount({
      store: rtdb,
      logger: logger.child({ component: 'rtdb' }),
      // ID tokens of the sign-in provider for its desktop client act as that person.
      idTokens: { issuer: deps.issuer, audience: DESKTOP_CLIENT_ID, keys: createRemoteJWKSet(new URL(deps.jwksUrl)) },
      isAccountActive,
      serviceAccounts: identity?.serviceAccounts,
      findLiveSecret: (secret) => rtdb.findLiveSecret(secret),
      // Revocations reach ID tokens of this service's own provider (an external one keeps its own).
      ...(identity ? { isGrantLive: identity.isGrantLive } : {}),
      streams: config,
    }),
  );
  const mounts: Mount[] = [
    firefox,
    open(createApiMount({ ...deps, catalogVersion: deps.catalogVersion })),
    search,
    rtdbMount,
    ...(identity ? [open(createIdentityMount(identity))] : []),
    open(createGraphMount({ store, catalogLog: storage.catalogLog, apiKey: graphKey })),
    ...(config.dev && identity
      ? [
          open(
            createDevMount({
              hostNames: deps.hostNames,
              store,
              mintAccessToken: (o) => identity.mintAccessToken(o),
              apiTokens: { store: search.search.tokens, accountId: config.accountId },
              mintIdToken: (o) => identity.mintIdToken(o),
              createServiceAccount: (scopes) => identity.serviceAccounts!.create(scopes),
              secrets: rtdb,
              faults: { 'firefox-v1': firefox.faults },
              putDetails: (breaches) => {
                const generated = demoDetailsFor(breaches);
                return rtdb.transaction((tx) => tx.write(breaches.map((breach) => ({ path: detailsPathOf(breach.id), value: generated[breach.id]! }))));
              },
            }),
          ),
        ]
      : []),
    open(createRootMount({ issuer: deps.issuer })),
    open(createLogosMount({ logoExists: deps.logoExists })),
    open(createOpenApiMount()),
  ];
  return { mounts, search: search.search, rtdbStreams: rtdbMount.streams };
}
