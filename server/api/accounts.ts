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
    const base = [...(tokenEmail ? [tokenEmail] : []), ...(this.#extras.get(sub) ?? [])];
    // The account, the added addresses and the change stamps in one read: all a cached answer
    // needs of the store (the read covers the verified added addresses too).
    const read = await this.#store.readAccount(sub, normalizeEmails(base, this.#maxEmails));
    const { account: known, added } = read;
    const verified = added.filter((row) => row.verifiedAt !== null).map((row) => row.email);
    const emails = normalizeEmails([...(known ? known.emails : base), ...verified], this.#maxEmails);
    return { sub, emails, deleted: known?.deleted ?? false, stamp: read.changeStamp(emails), added };
  }
}

export function normalizeEmails(emails: readonly string[], max: number = Limits.maxMonitoredEmails): string[] {
  return [...new Set(emails.map(emailKey))].slice(0, max);
}
