import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import { createInteractionHandler } from './interactions.ts';
import { loadOrCreateIdentityKeys } from './keys.ts';
import { createAccessTokenMinter, type MintAccessTokenOptions } from './mintAccessToken.ts';
import { buildProvider, DESKTOP_CLIENT_ID } from './provider.ts';
import { loadOrCreateIdentityKeysIn, openOidcPostgresStore } from './postgresState.ts';
import { openOidcSqliteStore } from './sqliteAdapter.ts';
import { INTERACTION_LIMIT_DEFAULTS, withRequestingClient, type InteractionLimits } from './interactionLimits.ts';
import { createUserDirectory, DEMO_USERS, type DemoUser } from './users.ts';
import { OWNER_SUB } from './owner.ts';
import { createIdTokenMinter, type MintIdTokenOptions } from './mintIdToken.ts';
import { createServiceAccounts, SERVICE_ACCOUNT_TOKEN_PATH, type ServiceAccountDirectory, type ServiceAccounts } from './serviceAccounts.ts';

export { DEMO_USERS, type DemoUser } from './users.ts';
export { DESKTOP_CLIENT_ID, DESKTOP_REDIRECT_URIS } from './provider.ts';
export { loadOrCreateOwnerSecret, OWNER_GRANT_TYPE, OWNER_SECRET_FILE, OWNER_SECRET_PARAMETER, OWNER_SUB } from './owner.ts';
export type { MintAccessTokenOptions } from './mintAccessToken.ts';

export const DEFAULT_API_AUDIENCE = 'urn:breach-monitor:api';

export interface DevIdentityProviderOptions {
  /** Full issuer URL including the mount path, e.g. `http://127.0.0.1:6060/oidc`; known only after listening. */
  issuer: string;
  /** Resource indicator of the breach-alert API; the `aud` of every access token. */
  audience: string;
  dataDir: string;
  logger: Logger;
  users?: DemoUser[];
  /** Returning false makes the account "no longer exist": no sign-in, no refresh. */
  isAccountActive?: (sub: string) => boolean | Promise<boolean>;
  accessTokenTtlSec?: number;
  /**
   * The instance's one pool on PostgreSQL (server/openStorage.ts; the database already migrated),
   * for keys, grants and sessions instead of files in `dataDir`: every instance on it signs with
   * the same key and knows every session. Left open on close.
   */
  databasePool?: pg.Pool | undefined;
  /** Where service accounts are kept; without it the JWT-bearer token endpoint is not mounted. */
  serviceAccounts?: ServiceAccountDirectory;
  /** The owner secret (`--owner`, server/identity/owner.ts): the desktop client may trade it for the owner's tokens over loopback. */
  ownerSecret?: string | undefined;
  /** Caps on sign-ins under way (interactionLimits.ts); tests make them small. */
  interactionLimits?: InteractionLimits | undefined;
}

export interface DevIdentityProvider {
  issuer: string;
  jwksUri: string;
  audience: string;
  clientId: string;
  /** Path prefix the provider answers under (`/oidc`); route every request below it to `handle`. */
  mountPath: string;
  /** True when `handle` is responsible for this request URL. */
  owns(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** A JWT exactly like the flow's access tokens, for the `/__dev/token` surface and tests. */
  mintAccessToken(options: MintAccessTokenOptions): Promise<string>;
  /** An ID token exactly like the flow's (issuer, `aud` = the desktop client), for `/__dev/id-token`. */
  mintIdToken(options: MintIdTokenOptions): Promise<string>;
  /** Service accounts and their JWT-bearer token endpoint, when a directory was given. */
  serviceAccounts: ServiceAccounts | undefined;
  /**
   * False once the grant an ID token names (`gid`) is revoked (its refresh token at the
   * revocation endpoint, signing out, refresh-token reuse) or has expired.
   */
  isGrantLive(grantId: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Express-style fields oidc-provider reads to rebuild absolute URLs under a mount path. */
type MountedRequest = IncomingMessage & { originalUrl?: string; baseUrl?: string };

export async function createDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  const issuer = options.issuer.replace(/\/+$/, '');
  const mountPath = new URL(issuer).pathname.replace(/\/+$/, '');
  const interactionsPath = `${mountPath}/interaction`;
  const logger = options.logger.child({ component: 'identity' });
  const users = createUserDirectory(options.users ?? DEMO_USERS, options.isAccountActive);
  const isAccountActive = options.isAccountActive ?? (() => true);
  const ownerSecret = options.ownerSecret;

  const dir = join(options.dataDir, 'identity');
  const pool = options.databasePool;
  const keys = pool ? await loadOrCreateIdentityKeysIn(pool) : await loadOrCreateIdentityKeys(dir);
  const interactionLimits = options.interactionLimits ?? INTERACTION_LIMIT_DEFAULTS;
  const store = pool ? openOidcPostgresStore(pool, interactionLimits) : openOidcSqliteStore(join(dir, 'provider.db'), interactionLimits);

  const provider = buildProvider({
    issuer,
    audience: options.audience,
    interactionsPath,
    keys,
    adapter: store.adapterFactory,
    users,
    accessTokenTtlSec: options.accessTokenTtlSec ?? 15 * 60,
    logger,
    ...(ownerSecret ? { owner: { secret: ownerSecret, isActive: async () => isAccountActive(OWNER_SUB) } } : {}),
  });
  const providerCallback = provider.callback();
  const interactions = createInteractionHandler({ provider, basePath: interactionsPath, users, logger });
  const mintAccessToken = await createAccessTokenMinter({ issuer, audience: options.audience, clientId: DESKTOP_CLIENT_ID, keys });

  const mintIdToken = await createIdTokenMinter({ issuer, clientId: DESKTOP_CLIENT_ID, keys });
  const serviceAccounts = options.serviceAccounts ? await createServiceAccounts({ issuer, keys, directory: options.serviceAccounts }) : undefined;
  const tokenPath = mountPath + SERVICE_ACCOUNT_TOKEN_PATH;

  const isUnder = (pathname: string, prefix: string) => prefix === '' || pathname === prefix || pathname.startsWith(`${prefix}/`);
  const pathnameOf = (url: string) => url.split('?', 1)[0] ?? '';

  return {
    issuer,
    jwksUri: provider.urlFor('jwks'),
    audience: options.audience,
    clientId: DESKTOP_CLIENT_ID,
    mountPath,
    owns: (url) => isUnder(pathnameOf(url), mountPath),
    handle(req, res) {
      const url = req.url ?? '/';
      const pathname = pathnameOf(url);
      if (serviceAccounts && pathname === tokenPath) {
        serviceAccounts.handleToken(req, res).catch((error: unknown) => {
          logger.error({ err: error }, 'service-account token request failed');
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"server_error"}');
        });
        return;
      }
      if (isUnder(pathname, interactionsPath)) {
        void interactions(req, res);
        return;
      }
      if (!isUnder(pathname, mountPath)) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      // oidc-provider routes on the path without the prefix, and derives the prefix back from
      // `originalUrl` when it builds absolute URLs (redirects, cookie paths, discovery).
      const mounted = req as MountedRequest;
      mounted.originalUrl = url;
      mounted.baseUrl = mountPath;
      const rest = url.slice(mountPath.length);
      mounted.url = rest.startsWith('/') ? rest : `/${rest}`;
      // The store counts a new sign-in under way against the caps of its client's address;
      // `/auth/:uid` resumes one (interactionLimits.ts, `continuing`).
      void withRequestingClient(req.socket.remoteAddress, /^\/auth\/[^/?]+(?:\?|$)/.test(mounted.url), () => providerCallback(req, res));
    },
    mintAccessToken,
    mintIdToken,
    serviceAccounts,
    isGrantLive: async (grantId) => (await provider.Grant.find(grantId)) !== undefined,
    async close() {
      store.close();
    },
  };
}
