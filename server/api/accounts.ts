import { emailKey, Limits } from '../../shared/api/index.ts';
import type { BreachStore, PersonEmailRow } from '../breaches/BreachStore.ts';

export interface MonitoredAccount {
  sub: string;
  /** Lower-cased, de-duplicated, at most the directory's limit: only verified addresses. */
  emails: string[];
  deleted: boolean;
  /** The store's change stamp of `emails`, read with the account (see BreachStore.readAccount). */
  stamp: string;
  /** The addresses the person added (`/user/emails`), verified or not, as read with the account. */
  added: PersonEmailRow[];
}

/**
 * Who monitors what. The account side (set through the development surface, or by a real
 * identity provider's records) is authoritative; otherwise a subject monitors the email of its
 * token plus the configured extras for that subject. Either way the addresses the person added
 * and proved theirs (`/user/emails`) are monitored too; unverified ones never are.
 */
export class AccountDirectory {
  readonly #store: BreachStore;
  /** A Map, not an object: a subject named `constructor` or `__proto__` is just a subject. */
  readonly #extras: ReadonlyMap<string, readonly string[]>;
  readonly #maxEmails: number;

  constructor(store: BreachStore, extras: Readonly<Record<string, readonly string[]>>, maxEmails: number = Limits.maxMonitoredEmails) {
    this.#store = store;
    this.#extras = new Map(Object.entries(extras));
    this.#maxEmails = Math.max(maxEmails, Limits.maxMonitoredEmails);
  }

  async resolve(sub: string, tokenEmail: string | undefined): Promise<MonitoredAccount> {
    const added = await this.#store.personEmails(sub);
    const verified = added.filter((row) => row.verifiedAt !== null).map((row) => row.email);
    const fallback = normalizeEmails([...(tokenEmail ? [tokenEmail] : []), ...(this.#extras.get(sub) ?? []), ...verified], this.#maxEmails);
    // The account and its emails' change stamp in one read: all a cached answer needs of the store.
    const read = await this.#store.readAccount(sub, fallback);
    const known = read.account;
    if (!known) return { sub, emails: fallback, deleted: false, stamp: read.changeStamp(fallback), added };
    const emails = normalizeEmails([...known.emails, ...verified], this.#maxEmails);
    // The read covered the account's own emails; added ones beside them need a stamp of their own.
    const stamp = verified.length === 0 ? read.changeStamp(emails) : await this.#store.changeStamp(emails);
    return { sub, emails, deleted: known.deleted, stamp, added };
  }
}

export function normalizeEmails(emails: readonly string[], max: number = Limits.maxMonitoredEmails): string[] {
  return [...new Set(emails.map(emailKey))].slice(0, max);
}
