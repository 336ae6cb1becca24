import { timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { SignInError } from './errors.ts';
import { describeError, silentLogger, type AuthLogger } from './log.ts';
import { openLoopbackRedirect } from './loopback.ts';
import { answeredStatus, describeProviderError, unreachableProvider, unwrapSignInError, type ProviderClient } from './ProviderClient.ts';
import type { Redactor } from './redact.ts';
import { tokenSetFromResponse, type TokenSet } from './tokens.ts';

/**
 * Opens the system browser at a URL. The Electron shell passes `shell.openExternal`, the
 * browser host its own; it should resolve once the browser has been asked, not when the person
 * has finished, and reject when it could not be (`xdg-open` exiting non-zero on a machine with
 * no desktop). Resolving with 'page' says the app's own page opens the URL (the browser host:
 * the sign-in opens in the browser the app already runs in).
 */
export type BrowserOpener = (url: string) => Promise<BrowserOpened | void> | BrowserOpened | void;

/**
 * How the authorization page reaches the person: 'opening' while the opener runs, 'opened' by
 * the system browser, 'page' by the app's page itself, 'failed' when no browser could be
 * opened. In every case the sign-in keeps waiting and the URL is offered to open by hand
 * (RFC 8252 §8.12 allows a native app to show it; the loopback redirect still completes it).
 */
export type BrowserOutcome = 'opening' | 'opened' | 'page' | 'failed';
export type BrowserOpened = 'opened' | 'page';

/** What the UI may show of a sign-in that waits for the browser. Never a secret that completes it. */
export interface PendingSignIn {
  /** The authorization URL: holds state, nonce and the PKCE challenge, none of which completes a sign-in without the verifier. */
  url: string;
  browser: BrowserOutcome;
}

export interface SignInFlowRequest {
  opener: BrowserOpener;
  /** Aborting cancels the sign-in and closes the listener. */
  signal?: AbortSignal | undefined;
  /** Pre-fills the provider's login page, e.g. when the same account must sign in again. */
  loginHint?: string | undefined;
  /**
   * Ask the provider to offer an account choice instead of reusing its session (after a
   * sign-out the person may want another account): `prompt=select_account` where the provider
   * lists it, else `login`.
   */
  chooseAccount?: boolean | undefined;
  /**
   * Runs after the code exchange and before the browser is answered, so the page the person
   * sees reflects the whole sign-in (e.g. `POST /user` refusing the account). A SignInError's
   * message is shown there.
   */
  finish?: ((result: SignInFlowResult) => Promise<void>) | undefined;
  /** Told the authorization URL and, as it changes, whether a browser opened it. */
  onPending?: ((pending: PendingSignIn) => void) | undefined;
}

export interface SignInFlowResult {
  tokens: TokenSet;
  /** From the validated ID token. */
  identity: { issuer: string; subject: string; email: string | undefined };
}

export interface SignInFlowOptions {
  logger?: AuthLogger | undefined;
  now?: (() => number) | undefined;
  /** Learns every secret the flow handles, so logs and messages can be scrubbed of them. */
  redactor?: Redactor | undefined;
}

interface Checks {
  verifier: string;
  state: string;
  nonce: string;
}

/**
 * One interactive sign-in: authorization code with PKCE S256, `state`, `nonce` and the API's
 * resource indicator, through the system browser and a loopback redirect.
 */
export class SignInFlow {
  readonly #provider: ProviderClient;
  readonly #logger: AuthLogger;
  readonly #now: () => number;
  readonly #redactor: Redactor | undefined;

  constructor(provider: ProviderClient, options: SignInFlowOptions = {}) {
    this.#provider = provider;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#redactor = options.redactor;
  }

  async run(request: SignInFlowRequest): Promise<SignInFlowResult> {
    const { config } = this.#provider;
    if (request.signal?.aborted) throw new SignInError('cancelled', 'The sign-in was cancelled.');
    const configuration = await this.#provider.configuration();
    const metadata = configuration.serverMetadata();
    if (metadata.code_challenge_methods_supported && !metadata.supportsPKCE('S256')) {
      throw new SignInError('provider', 'The sign-in provider does not support PKCE with S256, which Breach Monitor requires to sign in safely.');
    }

    const checks: Checks = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
    this.#redactor?.add(checks.verifier, checks.state, checks.nonce);
    const listener = await openLoopbackRedirect({
      port: config.redirect.mode === 'fixed' ? config.redirect.port : 0,
      path: config.redirect.path,
      timeoutMs: config.signInTimeoutSeconds * 1000,
      signal: request.signal,
      complete: async (callbackUrl) => {
        const result = await this.#complete(configuration, callbackUrl, checks);
        await request.finish?.(result);
        return result;
      },
    });
    try {
      const url = oidc.buildAuthorizationUrl(configuration, {
        ...config.authorizationParams,
        redirect_uri: listener.redirectUri,
        scope: config.scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
        resource: config.audience,
        ...(request.loginHint ? { login_hint: request.loginHint } : {}),
        ...promptFor(request, config.scopes, config.authorizationParams, metadata.prompt_values_supported),
      });
      this.#logger.info('sign-in: waiting for the browser', { issuer: config.issuer, port: listener.port });
      request.onPending?.({ url: url.href, browser: 'opening' });
      // A browser that cannot be opened does not end the sign-in: the person can open the link.
      void Promise.resolve()
        .then(() => request.opener(url.href))
        .then(
          (opened) => {
            if (!request.signal?.aborted) request.onPending?.({ url: url.href, browser: opened === 'page' ? 'page' : 'opened' });
          },
          (error: unknown) => {
            this.#logger.warn('sign-in: the browser could not be opened; the link is offered instead', describeError(error));
            if (!request.signal?.aborted) request.onPending?.({ url: url.href, browser: 'failed' });
          },
        );
      return await listener.result;
    } finally {
      await listener.close();
    }
  }

  async #complete(configuration: oidc.Configuration, callbackUrl: URL, checks: Checks): Promise<SignInFlowResult> {
    const params = callbackUrl.searchParams;
    this.#redactor?.add(params.get('code') ?? undefined);
    // Checked before anything else: a forged callback never reaches the token endpoint.
    if (!sameSecret(params.get('state'), checks.state)) {
      this.#logger.warn('sign-in: callback refused, state does not match');
      throw new SignInError('state-mismatch', 'This sign-in answer does not belong to the sign-in Breach Monitor started, so it was refused.');
    }
    const error = params.get('error');
    if (error === 'access_denied') throw new SignInError('denied', 'You did not allow Breach Monitor to access your account, so you are not signed in.');
    if (error) throw new SignInError('provider', `The sign-in provider did not sign you in (${describeAuthorizationError(params)}).`);

    try {
      const response = await oidc.authorizationCodeGrant(
        configuration,
        callbackUrl,
        { pkceCodeVerifier: checks.verifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true },
        { resource: this.#provider.config.audience },
      );
      this.#redactor?.add(response.access_token, response.refresh_token, response.id_token);
      const claims = response.claims();
      if (!claims) throw new SignInError('provider', 'The sign-in provider did not say who signed in (no ID token).');
      const tokens = tokenSetFromResponse(response, this.#now());
      this.#logger.info('sign-in: code exchanged', { refreshToken: tokens.refreshToken ? 'present' : 'absent' });
      return { tokens, identity: { issuer: claims.iss, subject: claims.sub, email: typeof claims.email === 'string' ? claims.email : undefined } };
    } catch (thrown) {
      const error = exchangeFailure(thrown, new URL(this.#provider.config.issuer));
      this.#logger.warn("sign-in: the provider's answer was refused", { ...describeError(unwrapSignInError(thrown)), code: error.code });
      throw error;
    }
  }
}

function sameSecret(received: string | null, expected: string): boolean {
  if (received === null) return false;
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function describeAuthorizationError(params: URLSearchParams): string {
  const error = params.get('error') ?? 'error';
  const description = params.get('error_description');
  return description ? `${error}: ${description.slice(0, 300)}` : error;
}

function exchangeFailure(thrown: unknown, issuer: URL): SignInError {
  const error = unwrapSignInError(thrown);
  if (error instanceof SignInError) return error;
  if (error instanceof oidc.ClientError) {
    const detail = error.cause as { message?: unknown; cause?: { claim?: unknown } } | undefined;
    const aboutIssuer = detail?.cause?.claim === 'iss' || (typeof detail?.message === 'string' && detail.message.includes('"iss"'));
    if (aboutIssuer) {
      return new SignInError('wrong-issuer', 'The sign-in answer names a different provider than the one Breach Monitor asked, so it was refused. Nothing was saved.');
    }
    if (error.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' || error.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
      return new SignInError('provider', `The sign-in provider's answer did not match this sign-in (${describeProviderError(error)}), so it was refused.`);
    }
    if (error.code === 'OAUTH_TIMEOUT') return new SignInError('network', `The identity provider at ${issuer.origin} did not answer in time. Try again.`);
    const status = answeredStatus(error);
    if (status !== undefined)
      return new SignInError(
        'provider',
        `The identity provider at ${issuer.origin} answered HTTP ${status} when asked to complete the sign-in, so you are not signed in. Start again from the app; if it happens again, check “Identity provider” under Settings → Service.`,
      );
    return new SignInError(
      'provider',
      `The identity provider at ${issuer.origin} sent an answer Breach Monitor cannot use (${describeProviderError(error)}), so you are not signed in. Start again from the app.`,
    );
  }
  if (error instanceof oidc.ResponseBodyError) {
    return new SignInError(
      error.status >= 500 ? 'network' : 'provider',
      `The identity provider at ${issuer.origin} refused to complete the sign-in (${describeProviderError(error)}). Start again from the app.`,
    );
  }
  return new SignInError('network', unreachableProvider(issuer, describeProviderError(error)));
}

/**
 * The `prompt` of an authorization that should offer another account. Any `prompt` the
 * configuration sets wins. `offline_access` is only granted with `prompt=consent` (OIDC Core
 * §11), so that value rides along whenever the scopes ask for a refresh token; without an
 * account choice the parameter is left to the provider (the reference provider adds consent).
 */
export function promptFor(request: Pick<SignInFlowRequest, 'chooseAccount'>, scopes: string, configured: Record<string, string>, supported: unknown): { prompt?: string } {
  if (!request.chooseAccount || configured.prompt !== undefined) return {};
  const listed = Array.isArray(supported) ? supported.filter((value): value is string => typeof value === 'string') : undefined;
  // `login` and `consent` are OIDC Core's own values; `select_account` only where the provider lists it.
  const account = listed?.includes('select_account') ? 'select_account' : 'login';
  const values = [account];
  if (scopes.split(' ').includes('offline_access') && (listed === undefined || listed.includes('consent'))) values.push('consent');
  return { prompt: values.join(' ') };
}
