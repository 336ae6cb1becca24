import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { OwnerSignIn } from '../../shared/api/index.ts';
import { isLoopbackHost } from '../config.ts';
import type { Logger } from '../log.ts';

// The owner's sign-in (docs/auth.md "The owner of a loopback service"): the app starts the
// person's own service with `--owner`; the service keeps a random secret in a file of its data
// folder that only the person's OS user can read (0600); the app's core, running as that same user
// on the same machine, reads it and trades it at the token endpoint, through this grant, for the
// same access and refresh tokens the browser flow gives. No demo user, no invented password, no
// browser. Only over loopback, only for the desktop client, only with the secret.

/** The grant type (an absolute URI, as RFC 6749 §4.5 asks of extension grants). */
export const OWNER_GRANT_TYPE = OwnerSignIn.grantType;
/** The token request parameter that carries the secret. */
export const OWNER_SECRET_PARAMETER = OwnerSignIn.secretParameter;
/** The account the owner signs in as; it has no address of its own (they come from /user/emails). */
export const OWNER_SUB = OwnerSignIn.subject;
export const OWNER_NAME = 'Owner of this computer';
/** The secret's file in the service's data folder. */
export const OWNER_SECRET_FILE = OwnerSignIn.secretFile;

/** Scopes the owner may ask for: everything the desktop client may, no email (the owner has none). */
const OWNER_OIDC_SCOPES = ['openid', 'profile', 'offline_access'];

/**
 * The owner secret of `dataDir`: read from its file, or made and written there first (created
 * exclusively with mode 0600, so another OS user cannot read it and a racing start cannot replace
 * it). A file others can read is refused: the secret would no longer prove anything.
 */
export function loadOrCreateOwnerSecret(dataDir: string): string {
  const file = join(dataDir, OWNER_SECRET_FILE);
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, randomBytes(32).toString('base64url') + '\n');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const fd = openSync(file, 'r');
  try {
    if (process.platform !== 'win32' && (fstatSync(fd).mode & 0o077) !== 0) {
      throw new Error(`${file} can be read by other users of this computer: remove it (a new owner secret is made at the next start) or make it private with chmod 600`);
    }
  } finally {
    closeSync(fd);
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} does not hold an owner secret: remove it, and a new one is made at the next start`);
  return secret;
}

export interface OwnerGrantSettings {
  secret: string;
  audience: string;
  /** What the provider's resource indicator feature answers for `audience` (the access token's format, TTL, scopes). */
  resourceServerInfo: ConstructorParameters<typeof Provider.prototype.ResourceServer>[1];
  clientId: string;
  logger: Logger;
}

/**
 * Registers the owner grant on `provider`. Answers like the authorization-code exchange: a JWT
 * access token for the API, a refresh token (with `offline_access`) and an ID token, under a
 * grant of their own that signing out revokes.
 */
export function registerOwnerGrant(provider: Provider, settings: OwnerGrantSettings): void {
  const expected = digest(settings.secret);
  provider.registerGrantType(
    OWNER_GRANT_TYPE,
    async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      if (!client || client.clientId !== settings.clientId) throw new errors.UnauthorizedClient('only the desktop client may use the owner grant');
      const remote = ctx.req.socket.remoteAddress ?? '';
      if (!isLoopbackHost(remote)) {
        settings.logger.warn({ event: 'owner_refused', reason: 'not_loopback' }, 'owner sign-in refused');
        throw new errors.InvalidGrant('the owner signs in only from this computer (over loopback)');
      }
      const given = ctx.oidc.params?.[OWNER_SECRET_PARAMETER];
      if (typeof given !== 'string' || given === '') throw new errors.InvalidRequest(`missing required parameter '${OWNER_SECRET_PARAMETER}'`);
      if (!timingSafeEqual(digest(given), expected)) {
        settings.logger.info({ event: 'owner_refused', reason: 'wrong_secret' }, 'owner sign-in refused');
        throw new errors.InvalidGrant('the owner secret is not this service’s');
      }
      const requested = typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope.split(' ').filter(Boolean) : ['openid', 'offline_access'];
      const unknown = requested.filter((scope) => !OWNER_OIDC_SCOPES.includes(scope) && !settings.resourceServerInfo.scope.split(' ').includes(scope));
      if (unknown.length > 0) throw new errors.InvalidScope('requested scope is not allowed', unknown.join(' '));
      const scopes = new Set(requested);

      const grant = new provider.Grant({ accountId: OWNER_SUB, clientId: client.clientId });
      grant.addOIDCScope([...scopes].filter((scope) => OWNER_OIDC_SCOPES.includes(scope)).join(' '));
      grant.addResourceScope(settings.audience, [...scopes].join(' '));
      const grantId = await grant.save();

      const at = new provider.AccessToken({ accountId: OWNER_SUB, client, grantId, gty: OWNER_GRANT_TYPE });
      at.resourceServer = new provider.ResourceServer(settings.audience, settings.resourceServerInfo);
      at.scope = grant.getResourceScopeFiltered(settings.audience, [...scopes]);
      const accessToken = await at.save();

      let refreshToken: string | undefined;
      if (scopes.has('offline_access')) {
        const rt = new provider.RefreshToken({
          accountId: OWNER_SUB,
          client,
          grantId,
          gty: OWNER_GRANT_TYPE,
          rotations: 0,
          scope: [...scopes].join(' '),
          resource: settings.audience,
          authTime: Math.floor(Date.now() / 1000),
        });
        refreshToken = await rt.save();
      }
      let idToken: string | undefined;
      if (scopes.has('openid')) {
        const token = new provider.IdToken({ sub: OWNER_SUB, gid: grantId, ...(scopes.has('profile') ? { name: OWNER_NAME } : {}) }, { ctx });
        // The claims the ID token carries follow its scope (oidc-provider's IdToken reads `scope`, which its types leave out).
        Object.assign(token, { scope: [...scopes].filter((scope) => OWNER_OIDC_SCOPES.includes(scope)).join(' ') });
        idToken = String(await token.issue({ use: 'idtoken' }));
      }
      settings.logger.info({ event: 'owner_signed_in' }, 'the owner signed in');
      ctx.body = {
        access_token: accessToken,
        expires_in: at.expiration,
        token_type: 'Bearer',
        scope: at.scope,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        ...(idToken ? { id_token: idToken } : {}),
      };
    },
    [OWNER_SECRET_PARAMETER, 'scope'],
  );
}

/** Compared as digests: equal length whatever was sent, so the comparison takes the same time. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
