import { Emitter, type Event } from '../../../shared/base/Emitter.ts';
import { SignInRequiredError, type AccessTokenSource } from '../api/AccessTokenSource.ts';
import { RefreshRefusedError } from './errors.ts';
import { describeError, silentLogger, type AuthLogger } from './log.ts';
import type { TokenRefresher } from './ProviderClient.ts';
import type { Redactor } from './redact.ts';
import type { SecretKey, SecretStore } from './secrets/SecretStore.ts';
import { parseStoredTokens, serializeTokens, type TokenSet } from './tokens.ts';

export type TokenManagerState = 'active' | 'sign-in-needed' | 'closed';

export interface TokenManagerOptions {
  key: SecretKey;
  store: SecretStore;
  refresher: TokenRefresher;
  now?: (() => number) | undefined;
  /** Refresh this long before the access token expires. */
  skewMs?: number | undefined;
  logger?: AuthLogger | undefined;
  redactor?: Redactor | undefined;
}

/** Revokes at the provider; resolves false when the provider offers no revocation. */
export type Revoke = (token: string, hint: 'refresh_token' | 'access_token') => Promise<boolean>;

export const REFRESH_SKEW_MS = 60_000;
// Windows Credential Manager holds at most 2560 bytes per entry; an access token can be
// fetched again, the refresh token cannot, so a large access token is left out.
const MAX_STORED_CHARS = 2000;

/**
 * The tokens of one signed-in account. Hands out an access token valid now, refreshing ahead
 * of expiry and once after a 401, with every concurrent caller sharing one refresh. When the
 * provider refuses a refresh the account needs a new sign-in: callers get SignInRequiredError,
 * queued work stays where it is. A network failure is not that: it surfaces as a transient
 * ApiError and the account stays signed in.
 */
export class TokenManager implements AccessTokenSource {
  readonly key: SecretKey;
  readonly #store: SecretStore;
  readonly #refresher: TokenRefresher;
  readonly #now: () => number;
  readonly #skewMs: number;
  readonly #logger: AuthLogger;
  readonly #redactor: Redactor | undefined;
  readonly #stateChanges = new Emitter<{ state: TokenManagerState; reason: string | undefined }>();
  readonly #persistFailures = new Emitter<string>();

  #state: TokenManagerState = 'active';
  #access: { token: string; expiresAt: number | undefined } | undefined;
  #refreshToken: string | undefined;
  #idToken: string | undefined;
  #scope: string | undefined;
  #refreshing: Promise<string> | undefined;
  #persisted = true;

  private constructor(options: TokenManagerOptions, tokens: Partial<TokenSet>) {
    this.key = options.key;
    this.#store = options.store;
    this.#refresher = options.refresher;
    this.#now = options.now ?? Date.now;
    this.#skewMs = options.skewMs ?? REFRESH_SKEW_MS;
    this.#logger = options.logger ?? silentLogger;
    this.#redactor = options.redactor;
    this.#access = tokens.accessToken ? { token: tokens.accessToken, expiresAt: tokens.expiresAt } : undefined;
    this.#refreshToken = tokens.refreshToken;
    this.#idToken = tokens.idToken;
    this.#scope = tokens.scope;
    this.#redactor?.add(tokens.accessToken, tokens.refreshToken, tokens.idToken);
  }

  /** After a sign-in: keeps the tokens in memory and saves them to the store. */
  static async start(options: TokenManagerOptions, tokens: TokenSet): Promise<TokenManager> {
    const manager = new TokenManager(options, tokens);
    await manager.#persist();
    return manager;
  }

  /** At start-up: the account's tokens from the store, or undefined when there are none (or they are unreadable). */
  static async restore(options: TokenManagerOptions): Promise<TokenManager | undefined> {
    const text = await options.store.get(options.key);
    const tokens = text === undefined ? undefined : parseStoredTokens(text);
    return tokens ? new TokenManager(options, tokens) : undefined;
  }

  get state(): TokenManagerState {
    return this.#state;
  }

  /** False after a save to the store failed: this sign-in will not outlive the process. */
  get persisted(): boolean {
    return this.#persisted;
  }

  readonly onDidChangeState: Event<{ state: TokenManagerState; reason: string | undefined }> = this.#stateChanges.event;

  /** Carries the message to show: this sign-in will not outlive the process. */
  readonly onDidFailToPersist: Event<string> = this.#persistFailures.event;

  /** Listeners still registered (tests check that owners disposed theirs). */
  get listenerCount(): number {
    return this.#stateChanges.listenerCount + this.#persistFailures.listenerCount;
  }

  async getAccessToken(): Promise<string> {
    this.#assertActive();
    if (this.#access && this.#isFresh(this.#access.expiresAt)) return this.#access.token;
    try {
      return await this.#refresh();
    } catch (error) {
      // Refreshing early failed for a passing reason (network, provider down): the token still works for a while.
      const current = this.#access;
      if (!(error instanceof SignInRequiredError) && current?.expiresAt !== undefined && current.expiresAt > this.#now()) return current.token;
      throw error;
    }
  }

  /**
   * An ID token of this sign-in valid for at least the refresh margin: the one from the last
   * sign-in or refresh, else a refresh is made for a new one. Rejects with SignInRequiredError
   * when the sign-in has ended, and with an Error when the provider gives no ID token.
   */
  async getIdToken(): Promise<string> {
    this.#assertActive();
    if (this.#idToken && this.#isFresh(idTokenExpiry(this.#idToken))) return this.#idToken;
    await this.#refresh();
    if (this.#idToken && this.#isFresh(idTokenExpiry(this.#idToken))) return this.#idToken;
    throw new Error('the sign-in provider gives no fresh ID token on refresh');
  }

  /**
   * A new ID token after `rejected` was refused (the grant it names was revoked, or the database
   * clock disagrees): the current one if another caller already replaced it, else a refresh
   * (shared with one already in flight). Rejects as {@link getIdToken} does.
   */
  async idTokenAfterUnauthorized(rejected: string): Promise<string> {
    this.#assertActive();
    if (this.#idToken && this.#idToken !== rejected && this.#isFresh(idTokenExpiry(this.#idToken))) return this.#idToken;
    await (this.#refreshing ?? this.#refresh());
    if (this.#idToken && this.#idToken !== rejected) return this.#idToken;
    throw new Error('the sign-in provider gives no new ID token on refresh');
  }

  async refreshAfterUnauthorized(rejected: string): Promise<string> {
    this.#assertActive();
    if (this.#refreshing) return this.#refreshing;
    // Another caller already replaced the rejected token.
    if (this.#access && this.#access.token !== rejected && this.#isFresh(this.#access.expiresAt)) return this.#access.token;
    return this.#refresh();
  }

  /**
   * Sign-out: stops handing out tokens, deletes the store entry, then revokes at the provider
   * (the newest refresh token, else the access token). Local deletion happens even when the
   * provider cannot be reached.
   */
  async signOut(revoke?: Revoke): Promise<{ revoked: boolean }> {
    const pending = this.#refreshing;
    this.#setState('closed', 'signed out');
    // A refresh in flight may rotate the refresh token; revoke the one the provider knows.
    await pending?.catch(() => {});
    await this.#deleteStored();
    const refreshToken = this.#refreshToken;
    const accessToken = this.#access?.token;
    this.#access = undefined;
    this.#refreshToken = undefined;
    if (!revoke || (!refreshToken && !accessToken)) return { revoked: false };
    try {
      return { revoked: await (refreshToken ? revoke(refreshToken, 'refresh_token') : revoke(accessToken!, 'access_token')) };
    } catch (error) {
      this.#logger.warn('tokens: revocation at the provider failed; local tokens are deleted anyway', describeError(error));
      return { revoked: false };
    }
  }

  /** Stops handing out tokens without touching the store (another account took over, or the app quits). */
  close(): void {
    this.#access = undefined;
    this.#refreshToken = undefined;
    this.#setState('closed', 'closed');
  }

  #isFresh(expiresAt: number | undefined): boolean {
    return expiresAt === undefined || expiresAt - this.#skewMs > this.#now();
  }

  #assertActive(): void {
    if (this.#state === 'sign-in-needed') throw new SignInRequiredError('Sign in again to continue: the sign-in has ended.');
    if (this.#state === 'closed') throw new SignInRequiredError('Signed out of this account.');
  }

  #refresh(): Promise<string> {
    this.#refreshing ??= this.#doRefresh().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #doRefresh(): Promise<string> {
    const refreshToken = this.#refreshToken;
    if (!refreshToken) {
      await this.#needSignIn('the access token expired and the provider gave no refresh token');
      throw new SignInRequiredError('Sign in again to continue: the sign-in has expired.');
    }
    let refreshed;
    try {
      refreshed = await this.#refresher.refresh(refreshToken);
    } catch (error) {
      if (error instanceof RefreshRefusedError) {
        if (this.#state === 'active') await this.#needSignIn(error.message, error.oauthError);
        throw new SignInRequiredError('Sign in again to continue: the sign-in provider ended this sign-in.', { cause: error });
      }
      this.#logger.warn('tokens: refresh failed, will retry later', describeError(error));
      throw error;
    }
    this.#redactor?.add(refreshed.accessToken, refreshed.refreshToken, refreshed.idToken);
    if (refreshed.idToken) this.#idToken = refreshed.idToken;
    const rotated = refreshed.refreshToken !== undefined && refreshed.refreshToken !== refreshToken;
    if (rotated) this.#refreshToken = refreshed.refreshToken;
    if (this.#state !== 'active') throw new SignInRequiredError('Signed out of this account.');
    if (refreshed.subject !== undefined && refreshed.subject !== this.key.subject) {
      await this.#needSignIn('the provider answered for a different account', 'subject_mismatch');
      throw new SignInRequiredError('Sign in again to continue: the sign-in provider answered for a different account.');
    }
    this.#access = { token: refreshed.accessToken, expiresAt: refreshed.expiresAt };
    this.#scope = refreshed.scope ?? this.#scope;
    await this.#persist();
    this.#logger.info('tokens: refreshed', { rotated, expiresInSeconds: refreshed.expiresAt === undefined ? undefined : Math.round((refreshed.expiresAt - this.#now()) / 1000) });
    return refreshed.accessToken;
  }

  async #needSignIn(reason: string, oauthError?: string): Promise<void> {
    this.#logger.warn('tokens: sign-in needed', { reason, oauthError });
    this.#access = undefined;
    this.#refreshToken = undefined;
    this.#setState('sign-in-needed', reason);
    // The refused tokens are worthless; leaving them would only keep a secret around.
    await this.#deleteStored();
  }

  async #persist(): Promise<void> {
    const tokens: TokenSet = { accessToken: this.#access?.token ?? '', expiresAt: this.#access?.expiresAt, refreshToken: this.#refreshToken, scope: this.#scope };
    let text = serializeTokens(tokens);
    if (text.length > MAX_STORED_CHARS && tokens.refreshToken) text = serializeTokens({ ...tokens, accessToken: '', expiresAt: undefined });
    try {
      await this.#store.set(this.key, text);
      this.#persisted = true;
    } catch (error) {
      this.#persisted = false;
      this.#logger.warn('tokens: could not save the sign-in to the secret store', describeError(error));
      const message = 'Breach Monitor could not save your sign-in to the keychain; you will need to sign in again next time.';
      this.#persistFailures.fire(message);
    }
  }

  async #deleteStored(): Promise<void> {
    try {
      await this.#store.delete(this.key);
    } catch (error) {
      this.#logger.warn('tokens: could not delete the sign-in from the secret store', describeError(error));
    }
  }

  #setState(state: TokenManagerState, reason: string | undefined): void {
    if (this.#state === state || this.#state === 'closed') return;
    this.#state = state;
    this.#stateChanges.fire({ state, reason });
  }
}

/** `exp` of a JWT in epoch milliseconds, read without verifying (the feed's server verifies). */
function idTokenExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}
