import type { AuthState } from '../../../shared/ipc/index.ts';
import { Emitter, type Event } from '../../../shared/base/Emitter.ts';
import { DisposableStore, type Disposable } from '../../../shared/base/lifecycle.ts';
import { mkdirSync } from 'node:fs';
import { accountId } from '../accounts/accountId.ts';
import { ApiError } from '../api/ApiError.ts';
import { BreachAlertClient } from '../api/BreachAlertClient.ts';
import { deleteAccountRecord, readAccountRecord, writeAccountRecord, type AccountRecord } from './accountRecord.ts';
import type { ClientConfig } from './config.ts';
import { NOT_AUTHORIZED_MESSAGE, SignInError } from './errors.ts';
import { describeError, redactingLogger, silentLogger, type AuthLogger } from './log.ts';
import { ProviderClient } from './ProviderClient.ts';
import { Redactor } from './redact.ts';
import type { SecretKey, SecretStore } from './secrets/SecretStore.ts';
import { signInAsOwner } from './OwnerSignIn.ts';
import { SignInFlow, type BrowserOpener, type PendingSignIn, type SignInFlowResult } from './SignInFlow.ts';
import { TokenManager, type TokenManagerOptions } from './TokenManager.ts';

export type { AuthState };

export interface SignedInAccount {
  /** Hash of issuer + subject: names the account's database file. */
  accountId: string;
  issuer: string;
  subject: string;
  email: string | undefined;
}

/** Everything the UI may know about the sign-in. Never a token: this crosses to the renderer. */
export interface AuthStatus {
  state: AuthState;
  /** Present when signed in, and when an account needs to sign in again. */
  account: SignedInAccount | undefined;
  /** To show while this is true: the sign-in will not be remembered after the app quits. */
  warning: string | undefined;
  /** Why the last sign-in or refresh ended, in words. */
  error: string | undefined;
  /** While signing in: the authorization link and whether a browser opened it. */
  signIn?: PendingSignIn | undefined;
  /**
   * True when signing in needs no browser: the configured service is the person's own, started
   * by the app (`--owner`), so the app signs them in as its owner (the UI offers "Continue").
   */
  ownerSignIn?: boolean | undefined;
}

export interface AuthServiceOptions {
  config: ClientConfig;
  /** The app's data folder: the account record lives here (identifiers only). */
  dataDir: string;
  /** From chooseSecretStore. */
  secrets: SecretStore;
  /** chooseSecretStore's warning, when the store does not outlive the process. */
  secretsWarning?: string | undefined;
  /** Deletes an account's local database; called by signOut({ deleteLocalData: true }). */
  deleteAccountData?: ((account: SignedInAccount) => Promise<void> | void) | undefined;
  logger?: AuthLogger | undefined;
  /** For the provider and the API alike. */
  fetch?: typeof fetch | undefined;
  now?: (() => number) | undefined;
  /**
   * The owner secret of the configured service when it is the person's own loopback service the
   * app started with `--owner` (read from its data folder); undefined otherwise. With it, signing
   * in trades the secret for tokens instead of opening a browser (docs/auth.md).
   */
  ownerSecret?: (() => string | undefined) | undefined;
}

export interface SignInRequest {
  opener: BrowserOpener;
  signal?: AbortSignal | undefined;
}

interface Session {
  account: SignedInAccount;
  tokens: TokenManager;
  api: BreachAlertClient;
  registered: boolean;
  /** What this service heard from the session's tokens: dropped with the session. */
  subscriptions: DisposableStore;
}

/**
 * Signs a person in and out and keeps one account's tokens working: sign-in through the
 * system browser, `POST /user`, restore at start-up from the secret store, refresh, sign-out
 * with revocation. The state it reports is what the UI shows.
 */
export class AuthService implements Disposable {
  readonly #config: ClientConfig;
  readonly #dataDir: string;
  readonly #store: SecretStore;
  readonly #secretsWarning: string | undefined;
  readonly #deleteAccountData: AuthServiceOptions['deleteAccountData'];
  readonly #logger: AuthLogger;
  readonly #redactor = new Redactor();
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #provider: ProviderClient;
  readonly #flow: SignInFlow;
  readonly #statusChanges = new Emitter<AuthStatus>();
  readonly #ownerSecret: () => string | undefined;

  #state: AuthState = 'signed-out';
  #account: SignedInAccount | undefined;
  #session: Session | undefined;
  #error: string | undefined;
  #persistWarning: string | undefined;
  #signingIn: { controller: AbortController; done: Promise<unknown> } | undefined;
  #pending: PendingSignIn | undefined;

  constructor(options: AuthServiceOptions) {
    this.#config = options.config;
    this.#dataDir = options.dataDir;
    this.#store = options.secrets;
    this.#secretsWarning = options.secretsWarning ?? (options.secrets.persistent ? undefined : 'You will need to sign in again next time: no keychain is available.');
    this.#deleteAccountData = options.deleteAccountData;
    this.#logger = redactingLogger(options.logger ?? silentLogger, this.#redactor);
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
    this.#provider = new ProviderClient(this.#config, { fetch: this.#fetch, now: this.#now });
    this.#flow = new SignInFlow(this.#provider, { logger: this.#logger, now: this.#now, redactor: this.#redactor });
    this.#ownerSecret = options.ownerSecret ?? (() => undefined);
  }

  status(): AuthStatus {
    return {
      state: this.#state,
      account: this.#account ? { ...this.#account } : undefined,
      warning: this.#secretsWarning ?? this.#persistWarning,
      error: this.#error,
      ...(this.#state === 'signing-in' && this.#pending ? { signIn: { ...this.#pending } } : {}),
      ...(this.#state !== 'signed-in' && this.#ownerSecretNow() !== undefined ? { ownerSignIn: true } : {}),
    };
  }

  /** The owner secret, or undefined when there is none (or it cannot be read: then the browser it is). */
  #ownerSecretNow(): string | undefined {
    try {
      return this.#ownerSecret();
    } catch (error) {
      this.#logger.warn('auth: the owner secret could not be read', describeError(error));
      return undefined;
    }
  }

  readonly onDidChangeStatus: Event<AuthStatus> = this.#statusChanges.event;

  /** Listeners still registered (tests check that owners disposed theirs). */
  get listenerCount(): number {
    return this.#statusChanges.listenerCount;
  }

  /** Stops hearing the session's tokens and telling anyone of status changes (the app is closing or this sign-in was replaced). */
  dispose(): void {
    this.#session?.subscriptions.dispose();
    this.#statusChanges.dispose();
  }

  /**
   * The signed-in account's token source. It stays bound to that account: once another
   * account signs in or this one signs out, it only answers SignInRequiredError, so work
   * queued for one account can never be sent with another's token.
   */
  get tokens(): TokenManager | undefined {
    return this.#session?.tokens;
  }

  /** The breach-alert API as the signed-in account (same binding as `tokens`). */
  get api(): BreachAlertClient | undefined {
    return this.#session?.api;
  }

  /** At start-up: the last account and its tokens from the secret store. Never opens a browser. */
  async restore(): Promise<AuthStatus> {
    const record = readAccountRecord(this.#dataDir);
    if (!record || trimSlashes(record.issuer) !== trimSlashes(this.#config.issuer)) {
      if (record) this.#logger.info('auth: the remembered account belongs to another issuer; not restored');
      this.#setState('signed-out', undefined);
      return this.status();
    }
    const account = toAccount(record.issuer, record.subject, record.email);
    let tokens: TokenManager | undefined;
    try {
      tokens = await TokenManager.restore(this.#tokenOptions(account));
    } catch (error) {
      this.#logger.warn('auth: could not read the secret store', describeError(error));
    }
    if (!tokens) {
      this.#account = account;
      this.#setState('sign-in-needed', 'Sign in again to continue.');
      return this.status();
    }
    this.#adopt(account, tokens, record.registered);
    this.#setState('signed-in', undefined);
    this.#logger.info('auth: restored the signed-in account', { accountId: account.accountId });
    return this.status();
  }

  /**
   * Signs in through the system browser, then `POST /user`. Starting a sign-in while another
   * is waiting cancels the first. Rejects with SignInError (its message is for the person).
   */
  async signIn(request: SignInRequest): Promise<SignedInAccount> {
    if (this.#state === 'signed-in') throw new SignInError('already-signed-in', 'You are already signed in. Sign out first to use another account.');
    if (this.#signingIn) {
      this.#signingIn.controller.abort();
      await this.#signingIn.done.catch(() => {});
    }
    const controller = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, controller.signal]) : controller.signal;
    const done = this.#signIn(request.opener, signal);
    this.#signingIn = { controller, done };
    try {
      return await done;
    } finally {
      if (this.#signingIn?.done === done) this.#signingIn = undefined;
    }
  }

  /** Cancels a sign-in waiting for the browser (the UI's Cancel button); its signIn() rejects with code 'cancelled'. */
  cancelSignIn(): void {
    this.#signingIn?.controller.abort();
  }

  /** `POST /user` for the signed-in account if it has not answered 201/202 yet (a network failure at sign-in). */
  async ensureRegistered(signal?: AbortSignal): Promise<void> {
    const session = this.#session;
    if (!session || session.registered || this.#config.apiContract === 'firefox-v1') return;
    try {
      await session.api.createUser(signal);
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'forbidden') throw new SignInError('not-authorized', NOT_AUTHORIZED_MESSAGE);
      throw error;
    }
    session.registered = true;
    this.#writeRecord(session.account, true);
  }

  /**
   * Revokes at the provider when it supports revocation, deletes the secret-store entry and
   * the account record, and with `deleteLocalData` the account's database. Local deletion
   * happens even when the provider cannot be reached; `revoked` says whether it was told.
   */
  async signOut(options: { deleteLocalData?: boolean } = {}): Promise<{ revoked: boolean }> {
    if (this.#signingIn) {
      this.#signingIn.controller.abort();
      await this.#signingIn.done.catch(() => {});
    }
    const account = this.#account;
    const session = this.#session;
    this.#session = undefined;
    session?.subscriptions.dispose();
    let revoked = false;
    if (session) {
      ({ revoked } = await session.tokens.signOut((token, hint) => this.#revoke(token, hint)));
    } else if (account) {
      await this.#store.delete(keyOf(account)).catch((error: unknown) => this.#logger.warn('auth: could not delete the secret-store entry', describeError(error)));
    }
    deleteAccountRecord(this.#dataDir);
    if (account && options.deleteLocalData) await this.#deleteAccountData?.(account);
    this.#account = undefined;
    this.#persistWarning = undefined;
    this.#setState('signed-out', undefined);
    this.#logger.info('auth: signed out', { revoked, deletedLocalData: Boolean(account && options.deleteLocalData) });
    return { revoked };
  }

  async #signIn(opener: BrowserOpener, signal: AbortSignal): Promise<SignedInAccount> {
    const previous = { state: this.#state, account: this.#account };
    this.#setState('signing-in', undefined);
    let tokens: TokenManager | undefined;
    let registered = false;
    try {
      const secret = this.#ownerSecretNow();
      if (secret !== undefined) this.#redactor.add(secret);
      const finish = async ({ identity, tokens: issued }: SignInFlowResult) => {
        const account = toAccount(identity.issuer, identity.subject, identity.email);
        tokens = await TokenManager.start(this.#tokenOptions(account), issued);
        registered = await this.#register(tokens, signal);
      };
      // The person's own loopback service: signed in as its owner, without a browser.
      const result =
        secret !== undefined
          ? await signInAsOwner(this.#provider, secret, this.#now).then(async (owner) => {
              if (signal.aborted) throw new SignInError('cancelled', 'The sign-in was cancelled.');
              await finish(owner);
              return owner;
            })
          : await this.#flow.run({
              opener,
              signal,
              onPending: (pending) => {
                if (signal.aborted || this.#state !== 'signing-in') return;
                this.#pending = pending;
                this.#emit();
              },
              loginHint: previous.account?.email,
              // Signed out, the person may want another account than the provider's session holds.
              chooseAccount: previous.account === undefined,
              finish,
            });
      const account = toAccount(result.identity.issuer, result.identity.subject, result.identity.email);
      if (!tokens) throw new Error('the sign-in finished without tokens');
      if (previous.account && previous.account.accountId !== account.accountId) {
        // The account that needed a new sign-in is replaced; its queued work stays in its own database.
        await this.#store.delete(keyOf(previous.account)).catch(() => {});
      }
      this.#adopt(account, tokens as TokenManager, registered);
      this.#writeRecord(account, registered);
      this.#setState('signed-in', undefined);
      this.#logger.info('auth: signed in', { accountId: account.accountId, registered });
      return account;
    } catch (thrown) {
      const issued = tokens as TokenManager | undefined;
      if (issued && this.#session?.tokens !== issued) await issued.signOut((token, hint) => this.#revoke(token, hint)).catch(() => {});
      const error = thrown instanceof SignInError ? thrown : new SignInError('provider', 'The sign-in could not be completed.');
      if (!(thrown instanceof SignInError)) this.#logger.error('auth: sign-in failed unexpectedly', describeError(thrown));
      else this.#logger.info('auth: sign-in did not complete', { code: error.code });
      this.#account = previous.account;
      this.#setState(previous.state === 'signing-in' ? 'signed-out' : previous.state, error.code === 'cancelled' ? undefined : error.message);
      throw error;
    }
  }

  /** `POST /user`: 201 and 202 both mean ready; 403 ends the sign-in; a passing failure is retried later. */
  async #register(tokens: TokenManager, signal: AbortSignal): Promise<boolean> {
    // The newer Monitor contract creates no accounts: a person without one is told at the first
    // sync (`no-monitor-account`) where to sign up. Registering through the older mount would
    // sign them up behind their back.
    if (this.#config.apiContract === 'firefox-v1') return true;
    const api = this.#apiFor(tokens);
    try {
      await api.createUser(signal);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'forbidden') throw new SignInError('not-authorized', NOT_AUTHORIZED_MESSAGE);
      if (error instanceof ApiError && error.transient) {
        this.#logger.warn('auth: POST /user failed for now; will retry before the first sync', describeError(error));
        return false;
      }
      if (error instanceof ApiError) throw new SignInError('provider', `The breach-alert service did not accept this sign-in: ${error.detail}`);
      throw error;
    }
  }

  #adopt(account: SignedInAccount, tokens: TokenManager, registered: boolean): void {
    this.#session?.tokens.close();
    this.#session?.subscriptions.dispose();
    const subscriptions = new DisposableStore();
    subscriptions.add(
      tokens.onDidChangeState(({ state, reason }) => {
        if (state === 'sign-in-needed' && this.#session?.tokens === tokens) {
          this.#setState('sign-in-needed', 'Sign in again to continue: your sign-in has ended.');
          this.#logger.info('auth: sign-in needed', { reason });
        }
      }),
    );
    subscriptions.add(
      tokens.onDidFailToPersist((message) => {
        this.#persistWarning = message;
        this.#emit();
      }),
    );
    this.#persistWarning = tokens.persisted ? undefined : 'Breach Monitor could not save your sign-in to the keychain; you will need to sign in again next time.';
    this.#account = account;
    this.#session = { account, tokens, api: this.#apiFor(tokens), registered, subscriptions };
  }

  #apiFor(tokens: TokenManager): BreachAlertClient {
    return new BreachAlertClient({ baseUrl: this.#config.apiBaseUrl, tokens, fetch: this.#fetch });
  }

  #tokenOptions(account: SignedInAccount): TokenManagerOptions {
    return { key: keyOf(account), store: this.#store, refresher: this.#provider, now: this.#now, logger: this.#logger, redactor: this.#redactor };
  }

  async #revoke(token: string, hint: 'refresh_token' | 'access_token'): Promise<boolean> {
    return (await this.#provider.revoke(token, hint)) === 'revoked';
  }

  #writeRecord(account: SignedInAccount, registered: boolean): void {
    const record: AccountRecord = { v: 1, issuer: account.issuer, subject: account.subject, ...(account.email ? { email: account.email } : {}), registered };
    mkdirSync(this.#dataDir, { recursive: true, mode: 0o700 });
    writeAccountRecord(this.#dataDir, record);
  }

  #setState(state: AuthState, error: string | undefined): void {
    this.#state = state;
    this.#pending = undefined;
    this.#error = error;
    if (state === 'signed-out') this.#account = undefined;
    this.#emit();
  }

  #emit(): void {
    this.#statusChanges.fire(this.status());
  }
}

function toAccount(issuer: string, subject: string, email: string | undefined): SignedInAccount {
  return { accountId: accountId(issuer, subject), issuer: trimSlashes(issuer), subject, email };
}

function keyOf(account: SignedInAccount): SecretKey {
  return { issuer: account.issuer, subject: account.subject };
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}
