import type { AccountRead } from '../BreachStore.ts';
import { copyAccount } from '../breachRows.ts';

/** One account read: the account of `sub`, with the change stamps of its emails (or of `fallback` when it has none). */
export interface AccountReadRequest {
  sub: string;
  fallback: string[];
}

/**
 * Account reads asked in the same turn of the event loop go to the database together, in one
 * query sent on the next turn: under load most requests are for a few accounts, and each
 * then costs a share of one round trip instead of one of its own. No read is answered from a
 * query that started before it was asked (each batch is sent after its last read joined it), so
 * a read still sees every write committed before it was asked, whichever instance wrote it, as
 * one query per read did. Identical reads in a batch are asked once.
 */
export class AccountReadBatch {
  readonly #readMany: (requests: readonly AccountReadRequest[]) => Promise<AccountRead[]>;
  #waiting: { request: AccountReadRequest; key: string; resolve(read: AccountRead): void; reject(error: unknown): void }[] = [];

  constructor(readMany: (requests: readonly AccountReadRequest[]) => Promise<AccountRead[]>) {
    this.#readMany = readMany;
  }

  read(sub: string, fallback: string[]): Promise<AccountRead> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => void this.#send());
      this.#waiting.push({ request: { sub, fallback }, key: JSON.stringify([sub, fallback]), resolve, reject });
    });
  }

  async #send(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    const distinct = new Map<string, AccountReadRequest>();
    for (const { key, request } of batch) if (!distinct.has(key)) distinct.set(key, request);
    const keys = [...distinct.keys()];
    try {
      const reads = await this.#readMany([...distinct.values()]);
      const byKey = new Map(keys.map((key, i) => [key, reads[i]!]));
      // Each caller its own account object, as one query per read gave.
      for (const { key, resolve } of batch) {
        const read = byKey.get(key)!;
        resolve({ account: read.account && copyAccount(read.account), added: read.added.map((row) => ({ ...row })), changeStamp: read.changeStamp });
      }
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  }
}
