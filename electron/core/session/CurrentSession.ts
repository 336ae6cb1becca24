import { CoreError } from '../../../shared/ipc/index.ts';
import type { AuthState, AuthStatus } from '../auth/AuthService.ts';
import type { AccountRef, AccountSession } from './AccountSession.ts';

/** What a sign-in status change asks of the open account session. */
export interface SessionStep {
  close: boolean;
  open: boolean;
  /** The account signed in again while its session stayed open: sync at once rather than show the old "sign in" failure until the next interval. */
  syncNow: boolean;
}

/**
 * The rule: an account's session is open while it is signed in or needs to sign in again (so
 * the person can keep reviewing and resolving offline); another account replaces it; signing
 * out closes it. A new session syncs as it opens; an open one syncs when its sign-in comes back.
 */
export function sessionStepFor(status: Pick<AuthStatus, 'state' | 'account'>, previous: AuthState | undefined, openAccountId: string | undefined): SessionStep {
  if (status.state === 'signed-out') return { close: openAccountId !== undefined, open: false, syncNow: false };
  if (!status.account || (status.state !== 'signed-in' && status.state !== 'sign-in-needed')) return { close: false, open: false, syncNow: false };
  const close = openAccountId !== undefined && openAccountId !== status.account.accountId;
  const open = openAccountId === undefined || close;
  return { close, open, syncNow: !open && status.state === 'signed-in' && previous !== 'signed-in' };
}

export interface CurrentSessionOptions {
  /** Opens an account's session (its database, sync and graph) and starts syncing it. */
  open(account: AccountRef): AccountSession;
  /** After a session closed (sign-out, another account). */
  onClosed?(): void;
}

/** The account session the channels work on, opened and closed as the sign-in changes. */
export class CurrentSession {
  readonly #options: CurrentSessionOptions;
  #session: AccountSession | undefined;
  #previous: AuthState | undefined;

  constructor(options: CurrentSessionOptions) {
    this.#options = options;
  }

  get(): AccountSession | undefined {
    return this.#session;
  }

  /** The open session, or the error a UI shows when nobody is signed in. */
  require(): AccountSession {
    if (!this.#session) throw new CoreError('sign-in-required', 'Sign in to see your breaches.');
    return this.#session;
  }

  /** Applies one sign-in status change (the caller serializes them). */
  async apply(status: AuthStatus): Promise<void> {
    const step = sessionStepFor(status, this.#previous, this.#session?.account.accountId);
    this.#previous = status.state;
    if (step.close) await this.close();
    if (step.open && status.account) this.#session = this.#options.open(status.account);
    if (step.syncNow) void this.#session?.sync.scheduler.syncNow('manual');
  }

  /** Closes the open session, if any; its database stays on disk. */
  async close(): Promise<void> {
    const closing = this.#session;
    this.#session = undefined;
    if (!closing) return;
    await closing.close();
    this.#options.onClosed?.();
  }

  /** Forgets the account that was removed from disk, if it was open. */
  async closeIf(accountId: string): Promise<void> {
    if (this.#session?.account.accountId === accountId) await this.close();
  }
}
