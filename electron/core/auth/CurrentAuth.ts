import type { AuthStatus as AuthStatusView } from '../../../shared/ipc/index.ts';
import { nextViewSeq } from '../../../shared/ipc/viewOrder.ts';
import { SignInRequiredError, type AccessTokenSource } from '../api/AccessTokenSource.ts';
import { Emitter } from '../../../shared/base/Emitter.ts';
import type { Disposable } from '../../../shared/base/lifecycle.ts';
import type { AuthService, AuthStatus } from './AuthService.ts';
import { silentLogger, type AuthLogger } from './log.ts';
import { isLoopbackHttp } from './config.ts';
import { OwnerSignIn } from '../../../shared/api/localService.ts';
import type { SignedInAccount } from './AuthService.ts';
import type { BrowserOpener } from './SignInFlow.ts';

/** Why a sync could not run without a session: what happened and what to do (the sign-in banner has the button). */
export const SIGN_IN_TO_SYNC = 'Your sign-in has ended; sign in again to sync.';

export interface CurrentAuthOptions {
  /** A sign-in service for the current settings (issuer, service). */
  create(): AuthService;
  /** Whether the secret store outlives the app (the UI's "remembered"). */
  remembered: boolean;
  /** Which secret store the core chose (the UI says where a saved token is). */
  secretsKeptIn?: AuthStatusView['secretsKeptIn'];
  logger?: AuthLogger;
}

export type AuthStatusListener = (status: AuthStatus) => Promise<void> | void;

/**
 * The sign-in the app uses right now. Switching to another service replaces the AuthService;
 * everything else holds this instead, so a switch needs no rewiring: API calls take their
 * token from whichever sign-in is current, and status listeners hear the new one. Listeners
 * run one change at a time, in order, so opening and closing an account never interleave.
 */
export interface IdTokenSource {
  /** The signed-in subject (`auth.uid` in the database's rules), or undefined when signed out. */
  subject(): string | undefined;
  getIdToken(): Promise<string>;
  /** A new ID token once `rejected` was refused (401); rejects when the sign-in has ended. */
  idTokenAfterUnauthorized(rejected: string): Promise<string>;
}

export class CurrentAuth {
  readonly #options: CurrentAuthOptions;
  readonly #logger: AuthLogger;
  readonly #statusChanges: Emitter<AuthStatus>;
  #service: AuthService;
  /** This object's hold on the current service: its status subscription, and the service itself. */
  #serviceHold: Disposable;
  #changes: Promise<void> = Promise.resolve();
  #signingIn: Promise<unknown> | undefined;

  /** API calls go through whichever sign-in is current; without one they need a sign-in. */
  readonly tokens: AccessTokenSource = {
    getAccessToken: () => this.#service.tokens?.getAccessToken() ?? Promise.reject(new SignInRequiredError(SIGN_IN_TO_SYNC)),
    refreshAfterUnauthorized: (rejected) => this.#service.tokens?.refreshAfterUnauthorized(rejected) ?? Promise.reject(new SignInRequiredError(SIGN_IN_TO_SYNC)),
  };

  /** The current sign-in's ID token and subject, for the details feed's `?auth=` (never shown to a UI). */
  readonly identity: IdTokenSource = {
    subject: () => this.#service.tokens?.key.subject,
    getIdToken: () => this.#service.tokens?.getIdToken() ?? Promise.reject(new SignInRequiredError('Sign in to use this.')),
    idTokenAfterUnauthorized: (rejected) => this.#service.tokens?.idTokenAfterUnauthorized(rejected) ?? Promise.reject(new SignInRequiredError('Sign in to use this.')),
  };

  constructor(options: CurrentAuthOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    // A listener that fails is logged; the ones after it still hear the change.
    this.#statusChanges = new Emitter({ onListenerError: (error) => this.#logger.error('sign-in: could not apply a status change', { error: String(error) }) });
    [this.#service, this.#serviceHold] = this.#create();
  }

  get service(): AuthService {
    return this.#service;
  }

  status(): AuthStatus {
    return this.#service.status();
  }

  /**
   * The status as a UI may see it (never a token), numbered in the order computed
   * (`AuthStatus.seq`): a window keeps the later of an answer and an event that crossed.
   */
  view(status: AuthStatus = this.#service.status()): AuthStatusView {
    return { ...toAuthView(status, this.#options.remembered, this.#options.secretsKeptIn), seq: nextViewSeq() };
  }

  /** After the service or issuer changed (only while signed out). */
  replace(): void {
    this.#serviceHold.dispose();
    [this.#service, this.#serviceHold] = this.#create();
  }

  /** Signs in through the person's browser; close() waits for an attempt in progress. */
  async signIn(opener: BrowserOpener): Promise<void> {
    const attempt = this.#service.signIn({ opener });
    this.#signingIn = attempt;
    try {
      await attempt;
    } finally {
      if (this.#signingIn === attempt) this.#signingIn = undefined;
    }
  }

  cancelSignIn(): void {
    this.#service.cancelSignIn();
  }

  /** A listener may return a promise: the next listener (and the next change) waits for it. */
  readonly onDidChangeStatus: (listener: AuthStatusListener) => Disposable = (listener) => this.#statusChanges.event(listener);

  /** Listeners still registered here, on the current service and on its tokens (tests check that owners disposed theirs). */
  get listenerCount(): number {
    return this.#statusChanges.listenerCount + this.#service.listenerCount + (this.#service.tokens?.listenerCount ?? 0);
  }

  /** Resolves when every status change so far has been applied. */
  settled(): Promise<void> {
    return this.#changes;
  }

  async close(): Promise<void> {
    this.#service.cancelSignIn();
    await this.#signingIn?.catch(() => undefined);
    await this.#changes;
    this.#serviceHold.dispose();
    this.#statusChanges.dispose();
  }

  #create(): [AuthService, Disposable] {
    const service = this.#options.create();
    const subscription = service.onDidChangeStatus((status) => {
      this.#changes = this.#changes.then(() => this.#statusChanges.fireInOrder(status));
    });
    return [
      service,
      {
        dispose: () => {
          subscription.dispose();
          service.dispose();
        },
      },
    ];
  }
}

export function toAuthView(status: AuthStatus, remembered: boolean, secretsKeptIn?: AuthStatusView['secretsKeptIn']): AuthStatusView {
  return {
    state: status.state,
    ...(status.account ? { account: accountView(status.account) } : {}),
    remembered,
    ...(secretsKeptIn ? { secretsKeptIn } : {}),
    ...(status.warning ? { warning: status.warning } : {}),
    ...(status.error ? { error: status.error } : {}),
    ...(status.signIn ? { signIn: status.signIn } : {}),
    ...(status.ownerSignIn ? { ownerSignIn: true } : {}),
  };
}

/** The owner of the person's own loopback service has no address of its own: named in words, never by its hashed id. */
export const OWNER_ACCOUNT_NAME = 'You, on this computer';

function accountView(account: SignedInAccount): NonNullable<AuthStatusView['account']> {
  const owner = account.subject === OwnerSignIn.subject && URL.canParse(account.issuer) && isLoopbackHttp(new URL(account.issuer));
  return { accountId: account.accountId, issuer: account.issuer, ...(account.email ? { email: account.email } : {}), ...(owner ? { name: OWNER_ACCOUNT_NAME } : {}) };
}
