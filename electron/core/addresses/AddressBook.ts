import { emailKey } from '../../../shared/api/index.ts';
import { emitWhenChanged, nextViewSeq } from '../../../shared/ipc/viewOrder.ts';
import { CoreError, UNKNOWN_ADDRESSES, type AddressesView, type AddressRemoval } from '../../../shared/ipc/index.ts';
import type { BreachAlertClient } from '../api/BreachAlertClient.ts';
import { ApiError } from '../api/ApiError.ts';
import { classifyError } from '../api/errorKind.ts';
import { forgetAddress, readAddresses, recordAddress, recordAddresses, recordAddressesProblem, removalOf } from '../db/addressQueries.ts';
import type { WritableDB } from '../db/Interface.ts';

/** The calls of the service's `/user/emails` (BreachAlertClient's). */
export type UserEmailsApi = Pick<BreachAlertClient, 'listEmails' | 'addEmail' | 'removeEmail' | 'verifyEmail' | 'resendVerificationCode'>;

export interface AddressBookOptions {
  /** The open account's database and a client of its service's `/api/v1`; undefined when nobody is signed in. */
  open(): { db: WritableDB; client: UserEmailsApi } | undefined;
  /** The `addresses-changed` event. */
  emit(view: AddressesView): void;
  /** An address and its exposures left this computer: the views re-query, the checks are re-published. */
  onForgotten(): void;
  /** The service's answers change with an address added or verified: sync soon to bring its checks. */
  syncSoon(): void;
  now?: () => Date;
}

type Action = 'list' | 'add' | 'remove' | 'verify' | 'resend';

const NEEDS_SERVICE: Record<Action, string> = {
  list: 'Your addresses could not be listed again',
  add: 'Adding an address needs the service',
  remove: 'Removing an address needs the service',
  verify: 'Entering a code needs the service',
  resend: 'Sending the code again needs the service',
};

/**
 * The person's addresses at their service (`/user/emails`), and their copy on this computer:
 * listed again after a sync that can have moved them and after each change, kept so the list shows offline (with what
 * kept it from being refreshed). Adding, removing and verifying need the service; each says so in
 * words when it cannot be reached. Removing an address removes it at the service first, then its
 * exposures and resolutions here in one transaction.
 */
export class AddressBook {
  readonly #options: AddressBookOptions;
  readonly #emit: (view: AddressesView) => void;

  constructor(options: AddressBookOptions) {
    this.#options = options;
    this.#emit = emitWhenChanged((view) => options.emit(view));
  }

  view(): AddressesView {
    const open = this.#options.open();
    if (!open) return { ...UNKNOWN_ADDRESSES, seq: nextViewSeq() };
    return { ...readAddresses(open.db), seq: nextViewSeq() };
  }

  /** Lists the addresses again; a failure is kept as the view's `problem` (never thrown: the stored list still shows). */
  async refresh(): Promise<AddressesView> {
    const open = this.#options.open();
    if (!open) return this.view();
    try {
      const list = await open.client.listEmails();
      recordAddresses(open.db, list, this.#now());
    } catch (error) {
      recordAddressesProblem(open.db, this.#words('list', error).message);
    }
    return this.publish();
  }

  /**
   * After a sync: lists again only when `moved` (the sync saw something the list shows change:
   * docs/sync.md, "One request when nothing is new") or when this computer has no current list
   * (never listed, or the last try failed); undefined when not asked.
   */
  async refreshAfterSync(moved: boolean): Promise<AddressesView | undefined> {
    const open = this.#options.open();
    if (!open) return undefined;
    const stored = readAddresses(open.db);
    if (!moved && stored.updatedAt !== null && stored.problem === null) return undefined;
    return this.refresh();
  }

  async add(email: string): Promise<AddressesView> {
    const { db, client } = this.#require();
    // The service decides what is already listed: this computer's copy may be behind it.
    const key = emailKey(email);
    try {
      recordAddress(db, await client.addEmail(key));
    } catch (error) {
      throw this.#words('add', error, 'email');
    }
    this.#options.syncSoon();
    return this.refresh();
  }

  removal(email: string): AddressRemoval {
    return removalOf(this.#require().db, email);
  }

  async remove(email: string): Promise<AddressesView> {
    const { db, client } = this.#require();
    const key = emailKey(email);
    try {
      await client.removeEmail(key);
    } catch (error) {
      // Already gone at the service (removed from another device): it goes here too.
      if (!(error instanceof ApiError && error.status === 404)) throw this.#words('remove', error);
    }
    forgetAddress(db, key, this.#now());
    this.#options.onForgotten();
    this.#options.syncSoon();
    return this.refresh();
  }

  async verify(email: string, code: string): Promise<AddressesView> {
    const { client } = this.#require();
    try {
      await client.verifyEmail(emailKey(email), code);
    } catch (error) {
      throw this.#words('verify', error, 'code');
    }
    this.#options.syncSoon();
    return this.refresh();
  }

  async resend(email: string): Promise<AddressesView> {
    const { client } = this.#require();
    try {
      await client.resendVerificationCode(emailKey(email));
    } catch (error) {
      throw this.#words('resend', error);
    }
    return this.refresh();
  }

  /** Emits `addresses-changed` when what the view says changed (not only its number). */
  publish(): AddressesView {
    const view = this.view();
    this.#emit(view);
    return view;
  }

  #require(): { db: WritableDB; client: UserEmailsApi } {
    const open = this.#options.open();
    if (!open) throw new CoreError('sign-in-required', 'Sign in to manage your addresses.');
    return open;
  }

  /**
   * A failed call in words a person can act on: the service's own sentence for what it refused
   * (on the field it concerns), "needs the service" when it cannot be reached.
   */
  #words(action: Action, error: unknown, field?: 'email' | 'code'): Error {
    if (error instanceof ApiError) {
      if (error.kind === 'network' || error.kind === 'timeout') {
        return new CoreError('unavailable', `${NEEDS_SERVICE[action]}, which cannot be reached right now (${error.detail}). Try again when you are online.`);
      }
      if (error.status === 404 && (action === 'list' || action === 'add')) {
        return new CoreError('unavailable', 'This service does not let the app manage addresses: it monitors the address you signed in with.');
      }
      const said = sentence(error.detail);
      const issues = field ? [{ path: field, message: said }] : undefined;
      if (error.status === 409) return new CoreError('conflict', said, issues);
      // Too many codes or tries, a code that could not be sent, a service that cannot send any: its own sentence says which.
      if (error.kind === 'rate-limited' || error.kind === 'server') return new CoreError('unavailable', said, issues);
      // Wrong or expired codes (400, 410), a malformed address, the limit of addresses (422): the service's sentence, on the field.
      if (error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403) {
        return new CoreError('invalid-arguments', said, issues);
      }
    }
    if (classifyError(error) === 'auth-needed') return new CoreError('sign-in-required', 'Sign in again to manage your addresses.');
    return error instanceof Error ? error : new Error(String(error));
  }

  #now(): string {
    return (this.#options.now ?? (() => new Date()))().toISOString();
  }
}

/** The service's words as a sentence: a capital first, a full stop last. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
