import type { AccessTokenVerifier } from '../auth/AccessTokenVerifier.ts';
import { createJwtAccessTokenVerifier } from '../auth/jwtVerifier.ts';
import { breachDataSource, type ServiceConfig } from '../config.ts';
import { createDevIdentityProvider, DEMO_USERS, loadOrCreateOwnerSecret } from '../identity/index.ts';
import { IDENTITY_PREFIX } from '../identity/mount.ts';
import type { Logger } from '../log.ts';
import type { ServiceStorage } from '../openStorage.ts';

/** Who signs people in: the configured issuer, or the development identity provider mounted here. */
export async function openSignIn(config: ServiceConfig, storage: ServiceStorage, url: string, logger: Logger) {
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
  // This instance's own copy of the key set: instances sharing an issuer share the keys too.
  const jwksUrl = config.jwksUrl ?? identity.jwksUri.replace(identity.issuer, url + IDENTITY_PREFIX);
  const verifier: AccessTokenVerifier = createJwtAccessTokenVerifier({ issuer: identity.issuer, audience: config.audience, jwksUrl, maxLifetimeSec: config.maxTokenLifetimeSec });
  return { identity, issuer: identity.issuer, jwksUrl, verifier, demoUsers };
}

export type SignIn = Awaited<ReturnType<typeof openSignIn>>;

async function discoverJwksUri(issuer: string): Promise<string> {
  const response = await fetch(issuer.replace(/\/$/, '') + '/.well-known/openid-configuration');
  if (!response.ok) throw new Error(`OpenID discovery at ${issuer} answered ${response.status}`);
  const document = (await response.json()) as { jwks_uri?: unknown };
  if (typeof document.jwks_uri !== 'string') throw new Error(`OpenID discovery at ${issuer} has no jwks_uri`);
  return document.jwks_uri;
}
