import { keychainAccount } from '../../accounts/accountId.ts';
import type { SecretKey, SecretStore } from './SecretStore.ts';

/** Secrets for this run only: the last resort when neither a keychain nor encryption is available. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory';
  readonly persistent = false;
  readonly #values = new Map<string, string>();

  async get(key: SecretKey): Promise<string | undefined> {
    return this.#values.get(keychainAccount(key.issuer, key.subject));
  }

  async set(key: SecretKey, value: string): Promise<void> {
    this.#values.set(keychainAccount(key.issuer, key.subject), value);
  }

  async delete(key: SecretKey): Promise<boolean> {
    return this.#values.delete(keychainAccount(key.issuer, key.subject));
  }
}
