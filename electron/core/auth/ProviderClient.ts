import * as oidc from 'openid-client';
import { ApiError } from '../api/ApiError.ts';
import { isLoopbackHttp, type ClientConfig } from './config.ts';
import { RefreshRefusedError, SignInError } from './errors.ts';
import { scrubTokenShapes } from './redact.ts';
import { tokenSetFromResponse, type TokenSet } from './tokens.ts';

/** A refreshed token set; `subject` is set when the provider sent an ID token with it. */
export type RefreshedTokens = TokenSet & { subject?: string | undefined };

/** The one thing TokenManager needs from the provider. */
export interface TokenRefresher {
  /** Rejects with RefreshRefusedError when the grant is over, with a transient ApiError otherwise. */
  refresh(refreshToken: string): Promise<RefreshedTokens>;
}

export interface ProviderClientOptions {
  fetch?: typeof fetch | undefined;
  now?: (() => number) | undefined;
  /** Per request, in seconds (openid-client's default is 30). */
  timeoutSeconds?: number | undefined;
}

/**
 * The provider's endpoints other than the browser: discovery (once, retried after a failure),
 * refresh and revocation. Plain http is allowed only when the issuer is on loopback, and even
 * then every request is checked, so a discovery document cannot send a token off the machine
 * in clear.
 */
export class ProviderClient implements TokenRefresher {
  readonly config: ClientConfig;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #timeoutSeconds: number;
  #discovery: Promise<oidc.Configuration> | undefined;

  constructor(config: ClientConfig, options: ProviderClientOptions = {}) {
    this.config = config;
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
    this.#timeoutSeconds = options.timeoutSeconds ?? 30;
  }

  get issuer(): string {
    return this.config.issuer;
  }

  /** The discovered configuration. Rejects with a SignInError in words when discovery fails. */
  configuration(): Promise<oidc.Configuration> {
    this.#discovery ??= this.#discover().catch((error: unknown) => {
      this.#discovery = undefined;
      throw error;
    });
    return this.#discovery;
  }

  async refresh(refreshToken: string): Promise<RefreshedTokens> {
    let configuration: oidc.Configuration;
    try {
      configuration = await this.configuration();
    } catch (error) {
      throw new ApiError('network', error instanceof Error ? error.message : 'the sign-in provider cannot be reached');
    }
    try {
      const response = await oidc.refreshTokenGrant(configuration, refreshToken, { resource: this.config.audience });
      return { ...tokenSetFromResponse(response, this.#now()), subject: response.claims()?.sub };
    } catch (error) {
      throw refreshFailure(error);
    }
  }

  /** RFC 7009 revocation when the provider offers it; 'unsupported' otherwise. Failures reject (in words). */
  async revoke(token: string, hint: 'refresh_token' | 'access_token'): Promise<'revoked' | 'unsupported'> {
    const configuration = await this.configuration();
    if (!configuration.serverMetadata().revocation_endpoint) return 'unsupported';
    try {
      await oidc.tokenRevocation(configuration, token, { token_type_hint: hint });
      return 'revoked';
    } catch (error) {
      // eslint-disable-next-line preserve-caught-error -- the cause holds the provider's response; the message keeps what matters, without secrets
      throw new Error(`the sign-in provider did not revoke the token: ${describeProviderError(error)}`);
    }
  }

  async #discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.config.issuer);
    const loopback = isLoopbackHttp(issuer);
    if (issuer.protocol !== 'https:' && !loopback) {
      throw new SignInError('insecure', `The sign-in provider ${issuer.origin} does not use https://, so Breach Monitor will not send it your sign-in.`);
    }
    try {
      return await oidc.discovery(issuer, this.config.clientId, undefined, oidc.None(), {
        [oidc.customFetch]: this.#guardedFetch,
        timeout: this.#timeoutSeconds,
        ...(loopback ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
    } catch (thrown) {
      const error = unwrapSignInError(thrown);
      if (error instanceof SignInError) throw error;
      if (error instanceof oidc.ClientError && error.code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
        throw new SignInError('wrong-issuer', `The sign-in provider at ${issuer.href} describes itself as a different issuer, so Breach Monitor will not sign in with it. Check the issuer setting.`);
      }
      if (error instanceof oidc.ClientError) throw new SignInError('provider', notAProvider(issuer, error));
      throw new SignInError('network', unreachableProvider(issuer, describeProviderError(error)));
    }
  }

  // openid-client's insecure switch is all-or-nothing for a configuration; this keeps it to loopback.
  readonly #guardedFetch: oidc.CustomFetch = (url, options) => {
    const target = new URL(url);
    if (target.protocol !== 'https:' && !isLoopbackHttp(target)) {
      return Promise.reject(new SignInError('insecure', `The sign-in provider asked Breach Monitor to use ${target.origin} without https://; refused.`));
    }
    return this.#fetch(url, options as RequestInit);
  };
}

const SETTINGS_PLACE = 'Settings → Service';

/**
 * The issuer's address answered, but not as an OpenID provider (another program on its port,
 * a wrong path): which address, what it answered, and what to do about it.
 */
export function notAProvider(issuer: URL, error: unknown): string {
  const description = `${issuer.href.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const status = answeredStatus(error);
  const answered = status !== undefined ? `answered HTTP ${status}` : `answered something else (${describeProviderError(error)})`;
  const what = `The identity provider address ${issuer.href} is not an OpenID provider: its description ${description} ${answered}.`;
  if (!isLoopbackHttp(issuer)) return `${what} Check “Identity provider” under ${SETTINGS_PLACE}.`;
  return `${what} Another program is probably using port ${portOf(issuer)}: quit it, or start the breach-alert service on a free port (for example BREACH_SERVICE_PORT=${Number(portOf(issuer)) + 1} npm start) and enter its address under ${SETTINGS_PLACE}.`;
}

/** Nothing answered at the issuer's address: which, why, and what to do about it. */
export function unreachableProvider(issuer: URL, reason: string): string {
  const what = `Breach Monitor could not reach the identity provider at ${issuer.origin} (${reason}), so it cannot sign you in.`;
  if (!isLoopbackHttp(issuer)) return `${what} Check your connection, or “Identity provider” under ${SETTINGS_PLACE}.`;
  return `${what} Start the breach-alert service on port ${portOf(issuer)} (npm start does), or enter the address of a running one under ${SETTINGS_PLACE}.`;
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** The HTTP status of an answer openid-client refused as not conforming (it keeps the Response as a cause). */
export function answeredStatus(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof Response) return current.status;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Our own refusals (e.g. the http guard) come back from openid-client wrapped in a ClientError. */
export function unwrapSignInError(error: unknown): unknown {
  return error instanceof oidc.ClientError && error.cause instanceof SignInError ? error.cause : error;
}

function refreshFailure(thrown: unknown): Error {
  const error = unwrapSignInError(thrown);
  if (error instanceof SignInError) return new ApiError('protocol', error.message);
  if (error instanceof oidc.ResponseBodyError) {
    if (error.status >= 500 || error.status === 429)
      return new ApiError(error.status === 429 ? 'rate-limited' : 'server', `the sign-in provider failed to refresh the sign-in (${error.status})`, { status: error.status });
    return new RefreshRefusedError(error.error, `the sign-in provider ended this sign-in (${error.error}${error.error_description ? `: ${error.error_description}` : ''})`);
  }
  if (error instanceof oidc.ClientError) {
    if (error.code === 'OAUTH_TIMEOUT') return new ApiError('timeout', 'the sign-in provider did not answer in time');
    // A token response that fails validation (wrong issuer, audience, subject) is not to be trusted with this account.
    if (error.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || error.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')
      return new RefreshRefusedError('invalid_response', `the sign-in provider sent a token that does not belong to this sign-in (${error.code})`);
    return new ApiError('server', `the sign-in provider sent an answer Breach Monitor cannot use (${error.code ?? 'unknown'})`);
  }
  return new ApiError('network', `the sign-in provider cannot be reached: ${describeProviderError(error)}`);
}

/** A short, secret-free reason: the OAuth error code, a library code or a network cause. */
export function describeProviderError(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) return scrubTokenShapes(`${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
  if (error instanceof oidc.AuthorizationResponseError) return scrubTokenShapes(`${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
  if (error instanceof oidc.ClientError) return scrubTokenShapes(`${error.message}${error.code ? ` (${error.code})` : ''}`);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return scrubTokenShapes(error instanceof Error ? error.message : String(error));
}
