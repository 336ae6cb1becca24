import Provider, { errors, type Account, type AdapterFactory, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { MONITOR_SCOPE } from '../../shared/api/index.ts';
import type { Logger } from '../log.ts';
import { INTERACTION_TTL_SEC, INTERACTIONS_FULL_RETRY_AFTER_SEC, SignInsFullError } from './interactionLimits.ts';
import type { IdentityKeys } from './keys.ts';
import { pageHeaders } from './http.ts';
import { renderLogoutPrompt, renderMessagePage, SIGNED_OUT_MESSAGE, type RenderedPage } from './pages.ts';
import type { UserDirectory } from './users.ts';
import { OWNER_GRANT_TYPE, OWNER_NAME, OWNER_SUB, registerOwnerGrant } from './owner.ts';

export const DESKTOP_CLIENT_ID = 'breach-monitor-desktop';
/** Native clients may use any port on these but 0 (RFC 8252 §7.3; refuseUnlistenableLoopbackPorts); oidc-provider ignores the port when matching. */
export const DESKTOP_REDIRECT_URIS = ['http://127.0.0.1/callback'];
/** The last one is the newer Monitor contract's scope (`/api/firefox/v1` requires it). */
export const SUPPORTED_SCOPES = ['openid', 'email', 'profile', 'offline_access', MONITOR_SCOPE];

export interface ProviderSettings {
  issuer: string;
  audience: string;
  /** Absolute path of the interaction pages, e.g. `/oidc/interaction`. */
  interactionsPath: string;
  keys: IdentityKeys;
  adapter: AdapterFactory;
  users: UserDirectory;
  accessTokenTtlSec: number;
  logger: Logger;
  /** The owner's sign-in (server/identity/owner.ts): its secret, and whether the owner account is still active. */
  owner?: { secret: string; isActive: () => Promise<boolean> } | undefined;
}

const DAY = 24 * 60 * 60;

export function buildProvider(settings: ProviderSettings): Provider {
  const { audience, users, accessTokenTtlSec, owner } = settings;
  const resourceServerInfo = {
    audience,
    scope: SUPPORTED_SCOPES.join(' '),
    accessTokenTTL: accessTokenTtlSec,
    accessTokenFormat: 'jwt' as const,
    jwt: { sign: { alg: 'RS256' as const } },
  };

  const configuration: Configuration = {
    adapter: settings.adapter,
    jwks: { keys: [settings.keys.signingKey] },
    clients: [
      {
        client_id: DESKTOP_CLIENT_ID,
        client_name: 'Breach Monitor',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        redirect_uris: DESKTOP_REDIRECT_URIS,
        post_logout_redirect_uris: DESKTOP_REDIRECT_URIS,
        grant_types: ['authorization_code', 'refresh_token', ...(owner ? [OWNER_GRANT_TYPE] : [])],
        response_types: ['code'],
      },
    ],
    scopes: SUPPORTED_SCOPES,
    claims: {
      // `gid`: the grant an ID token was issued under, so the realtime database can refuse the
      // ID tokens of a revoked sign-in (`isGrantLive`), not only wait for them to expire.
      openid: ['sub', 'gid'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    cookies: {
      keys: settings.keys.cookieKeys,
      // Plain http on loopback in development: a `secure` cookie would never come back.
      long: { httpOnly: true, sameSite: 'lax', secure: false },
      short: { httpOnly: true, sameSite: 'lax', secure: false },
    },
    // The desktop app talks to the token endpoint from its main process, never from a web origin.
    clientBasedCORS: () => false,
    // PKCE for every authorization request; oidc-provider 9 only implements S256, so `plain` is refused.
    pkce: { required: () => true },
    ttl: {
      AccessToken: accessTokenTtlSec,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: INTERACTION_TTL_SEC,
      Grant: 14 * DAY,
      RefreshToken: 14 * DAY,
      Session: 14 * DAY,
    },
    interactions: {
      url: (_ctx, interaction) => `${settings.interactionsPath}/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        // A public client may only revoke its own tokens; others are ignored silently (RFC 7009 §2.2).
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      // The API verifies JWTs locally; nothing needs introspection, so keep that surface closed.
      introspection: { enabled: false },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => respond(ctx, 200, renderLogoutPrompt(form)),
        postLogoutSuccessSource: (ctx) => respond(ctx, 200, renderMessagePage('Signed out', SIGNED_OUT_MESSAGE)),
      },
      resourceIndicators: {
        enabled: true,
        // Clients need not send `resource`: every access token is for the breach-alert API.
        defaultResource: (_ctx, _client, oneOf) => (oneOf ? (oneOf.includes(audience) ? audience : oneOf) : audience),
        // Without this, a code/refresh grant with `openid` and no `resource` yields a userinfo-only opaque token.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (indicator !== audience || client.clientId !== DESKTOP_CLIENT_ID) throw new errors.InvalidTarget();
          return resourceServerInfo;
        },
      },
    },
    findAccount: async (_ctx, sub, token): Promise<Account | undefined> => {
      if (owner && sub === OWNER_SUB) {
        if (!(await owner.isActive())) return undefined;
        // The owner has no address of its own: the addresses they monitor come from /user/emails.
        return { accountId: OWNER_SUB, claims: () => ({ sub: OWNER_SUB, name: OWNER_NAME, ...(token?.grantId ? { gid: token.grantId } : {}) }) };
      }
      const user = users.bySub(sub);
      // An account that is gone fails every grant that looks it up: refresh, code exchange, session reuse.
      if (!user || !(await users.isActive(sub))) return undefined;
      return {
        accountId: user.sub,
        // The token being exchanged (an authorization code, a refresh token) names the grant.
        claims: () => ({ sub: user.sub, email: user.email, email_verified: true, name: user.name, ...(token?.grantId ? { gid: token.grantId } : {}) }),
      };
    },
    extraTokenClaims: (_ctx, token) => {
      const user = 'accountId' in token && token.accountId ? users.bySub(token.accountId) : undefined;
      if (!user || !token.scope?.split(' ').includes('email')) return undefined;
      // The API seeds the monitored addresses from this claim, and only from a verified one.
      return { email: user.email, email_verified: true };
    },
    renderError: (ctx, out, error) => {
      if (error instanceof SignInsFullError) {
        ctx.set('Retry-After', String(INTERACTIONS_FULL_RETRY_AFTER_SEC));
        return respond(ctx, 429, renderMessagePage('Too many sign-ins', `Too many people are signing in right now, so this sign-in could not start. Try again in a minute.`));
      }
      if (!(error instanceof errors.OIDCProviderError)) {
        settings.logger.error({ err: error }, 'identity provider error');
      }
      const status = ctx.status >= 400 ? ctx.status : 400;
      const description = out.error_description ? `${out.error_description} (${out.error})` : out.error;
      respond(ctx, status, renderMessagePage('Sign-in failed', description));
    },
  };

  const provider = new Provider(settings.issuer, configuration);
  // Loopback only: never believe X-Forwarded-* here.
  provider.proxy = false;
  refuseUnlistenableLoopbackPorts(provider);
  provider.use(offlineAccessImpliesConsent);
  provider.use(endGrantsAtSignOut(provider, settings.logger));
  if (owner) registerOwnerGrant(provider, { secret: owner.secret, audience, resourceServerInfo, clientId: DESKTOP_CLIENT_ID, logger: settings.logger });

  provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => {
    settings.logger.error({ err: error }, 'identity provider server error');
  });
  const logRefusal = (event: string) => (_ctx: KoaContextWithOIDC, error: errors.OIDCProviderError) => {
    settings.logger.info({ event, error: error.error, description: error.error_description }, 'identity request refused');
  };
  provider.on('grant.error', logRefusal('grant.error'));
  provider.on('authorization.error', logRefusal('authorization.error'));
  provider.on('revocation.error', logRefusal('revocation.error'));
  return provider;
}

/**
 * RFC 8252 §7.3: a native client listens on a loopback port it opened and names that port in its
 * redirect URI; oidc-provider accepts any port for a registered loopback URI. Port 0 asks the
 * operating system for any free port when listening, so no client ever listens on it: the browser
 * would be sent nowhere, with the code in the address. The check wraps the provider's own (its
 * Client class is made per provider instance), so both redirect URIs and post-logout redirect
 * URIs are refused with oidc-provider's usual error.
 */
function refuseUnlistenableLoopbackPorts(provider: Provider): void {
  const client = provider.Client.prototype;
  const redirectUriAllowed = client.redirectUriAllowed;
  const postLogoutRedirectUriAllowed = client.postLogoutRedirectUriAllowed;
  client.redirectUriAllowed = function (this: typeof client, uri: string) {
    return !namesPortZero(uri) && redirectUriAllowed.call(this, uri);
  };
  client.postLogoutRedirectUriAllowed = function (this: typeof client, uri: string) {
    return !namesPortZero(uri) && postLogoutRedirectUriAllowed.call(this, uri);
  };
}

function namesPortZero(uri: string): boolean {
  // WHATWG URL parsing reads `:00` as port 0 too.
  return URL.canParse(uri) && new URL(uri).port === '0';
}

/**
 * OIDC Core §11 (and oidc-provider) drop `offline_access` unless the request says
 * `prompt=consent`. This native client is shown the consent page on every authorization
 * anyway, so asking for it explicitly changes nothing for the user, and spares the app from
 * silently getting no refresh token when it forgets the parameter.
 */
async function offlineAccessImpliesConsent(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  if (ctx.method === 'GET' && ctx.path === '/auth') {
    const { query } = ctx;
    const scopes = typeof query.scope === 'string' ? query.scope.split(' ') : [];
    if (query.client_id === DESKTOP_CLIENT_ID && query.prompt === undefined && scopes.includes('offline_access')) {
      ctx.query = { ...query, prompt: 'consent' };
    }
  }
  await next();
}

/**
 * Signing out at the provider ("Sign out", `logout=yes` on `/session/end/confirm`) ends every
 * sign-in made through that browser session: each grant the session holds loses its refresh
 * tokens and codes and is destroyed, so refreshing fails, ID tokens naming it are refused by the
 * realtime database and its open streams end with `auth_revoked` (docs/security.md, "Sign-out").
 * oidc-provider itself keeps a grant that carries `offline_access` (`persistsLogout`), which is
 * every grant of the desktop app. Runs after the provider checked the form's xsrf token and
 * destroyed the session (the 303), before that answer reaches the browser; "Stay signed in"
 * ends nothing.
 */
function endGrantsAtSignOut(provider: Provider, logger: Logger) {
  return async function (ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const { oidc } = ctx;
    if (oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || !oidc.params?.logout) return;
    const grantIds = Object.values(oidc.session?.authorizations ?? {}).flatMap(({ grantId }) => (grantId ? [grantId] : []));
    try {
      for (const grantId of grantIds) {
        await Promise.all([provider.RefreshToken, provider.AuthorizationCode, provider.AccessToken].map((model) => model.revokeByGrantId(grantId)));
        await provider.Grant.adapter.destroy(grantId);
      }
    } catch (error) {
      logger.error({ err: error }, 'signing out could not end the grants of the session');
      respond(ctx, 500, renderMessagePage('Sign-out incomplete', 'You are signed out here, but Breach Monitor could not be signed out: its storage failed. Sign out in the app to end its sign-in.'));
    }
  };
}

function respond(ctx: KoaContextWithOIDC, status: number, page: RenderedPage): void {
  ctx.status = status;
  ctx.set(pageHeaders(page));
  ctx.body = page.html;
}
