import { emailKey, Limits } from '../../shared/api/index.ts';
import type { BreachStore } from '../store/BreachStore.ts';

export interface MonitoredAccount {
  sub: string;
  /** Lower-cased, de-duplicated, at most `Limits.maxMonitoredEmails`. */
  emails: string[];
  deleted: boolean;
  /** The store's change stamp of `emails`, read with the account (see BreachStore.readAccount). */
  stamp: string;
}

/**
 * Who monitors what. The account side (set through the development surface, or by a real
 * identity provider's records) is authoritative; otherwise a subject monitors the email of its
 * token plus the configured extras for that subject.
 */
export class AccountDirectory {
  readonly #store: BreachStore;
  /** A Map, not an object: a subject named `constructor` or `__proto__` is just a subject. */
  readonly #extras: ReadonlyMap<string, readonly string[]>;

  constructor(store: BreachStore, extras: Readonly<Record<string, readonly string[]>>) {
    this.#store = store;
    this.#extras = new Map(Object.entries(extras));
  }

  async resolve(sub: string, tokenEmail: string | undefined): Promise<MonitoredAccount> {
    const fallback = normalizeEmails([...(tokenEmail ? [tokenEmail] : []), ...(this.#extras.get(sub) ?? [])]);
    // The account and its emails' change stamp in one read: all a cached answer needs of the store.
    const read = await this.#store.readAccount(sub, fallback);
    const known = read.account;
    const account = known ? { sub, emails: normalizeEmails(known.emails), deleted: known.deleted } : { sub, emails: fallback, deleted: false };
    return { ...account, stamp: read.changeStamp(account.emails) };
  }
}

export function normalizeEmails(emails: readonly string[]): string[] {
  return [...new Set(emails.map(emailKey))].slice(0, Limits.maxMonitoredEmails);
}
