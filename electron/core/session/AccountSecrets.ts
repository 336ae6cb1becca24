import { CoreError } from '../../../shared/ipc/index.ts';
import type { SecretKey, SecretStore } from '../auth/secrets/SecretStore.ts';
import type { AccountRef } from './AccountSession.ts';

/**
 * The secret store as the signed-in account sees it: the credentials a person adds (the remote
 * search API token, the details feed's key or secret, a graph endpoint's key) are that
 * person's, kept under their account (keychain entry `<issuer>#<subject> for <accountId>`), so
 * the next person on the same machine never uses or sees them. With nobody signed in there is
 * nothing to read and nowhere to write.
 */
export class AccountSecrets implements SecretStore {
  readonly #store: SecretStore;
  readonly #account: () => AccountRef | undefined;

  constructor(store: SecretStore, account: () => AccountRef | undefined) {
    this.#store = store;
    this.#account = account;
  }

  get kind() {
    return this.#store.kind;
  }

  get persistent() {
    return this.#store.persistent;
  }

  /** The key as stored for `account`; exported for tests that look at the store underneath. */
  static keyFor(key: SecretKey, account: Pick<AccountRef, 'accountId'>): SecretKey {
    return { issuer: key.issuer, subject: `${key.subject} for ${account.accountId}` };
  }

  async get(key: SecretKey): Promise<string | undefined> {
    const account = this.#account();
    return account ? this.#store.get(AccountSecrets.keyFor(key, account)) : undefined;
  }

  async set(key: SecretKey, value: string): Promise<void> {
    const account = this.#account();
    if (!account) throw new CoreError('sign-in-required', 'Sign in first: credentials are kept for the account that adds them.');
    await this.#store.set(AccountSecrets.keyFor(key, account), value);
  }

  async delete(key: SecretKey): Promise<boolean> {
    const account = this.#account();
    return account ? this.#store.delete(AccountSecrets.keyFor(key, account)) : false;
  }
}
