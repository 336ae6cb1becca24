import { emailKey, Limits } from '../../shared/api/index.ts';
import type { BreachStore } from '../store/BreachStore.ts';

export interface MonitoredAccount {
  sub: string;
  /** Lower-cased, de-duplicated, at most `Limits.maxMonitoredEmails`. */
  emails: string[];
  deleted: boolean;
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
    const known = await this.#store.getAccount(sub);
    if (known) return { sub, emails: normalizeEmails(known.emails), deleted: known.deleted };
    const emails = [...(tokenEmail ? [tokenEmail] : []), ...(this.#extras.get(sub) ?? [])];
    return { sub, emails: normalizeEmails(emails), deleted: false };
  }
}

export function normalizeEmails(emails: readonly string[]): string[] {
  return [...new Set(emails.map(emailKey))].slice(0, Limits.maxMonitoredEmails);
}
