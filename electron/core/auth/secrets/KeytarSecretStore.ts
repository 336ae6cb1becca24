import { keychainAccount } from '../../accounts/accountId.ts';
import { SecretStoreUnavailableError, type SecretKey, type SecretStore } from './SecretStore.ts';

/**
 * The three functions of keytar (https://github.com/atom/node-keytar#docs) the app uses, written
 * here rather than imported: keytar is an optional native module (it builds only where
 * libsecret's headers are installed), so nothing may need it to typecheck.
 */
export interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** A variable, not a literal: the compiler then does not look for the module (it may be absent). */
const KEYTAR_MODULE = 'keytar';

export const KEYCHAIN_SERVICE = 'Breach Monitor';
const PROBE_ACCOUNT = 'availability check';

export interface KeytarSecretStoreOptions {
  /** The keychain "service"; tests use their own so they never touch a person's entries. */
  service?: string | undefined;
  /** How keytar is loaded; a native optional dependency, so it may be missing. */
  load?: (() => Promise<Keytar>) | undefined;
}

/**
 * The OS keychain through keytar: macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux. Entries are service "Breach Monitor", account "<issuer>#<subject>".
 */
export class KeytarSecretStore implements SecretStore {
  readonly kind = 'keychain';
  readonly persistent = true;
  readonly service: string;
  readonly #keytar: Keytar;

  private constructor(keytar: Keytar, service: string) {
    this.#keytar = keytar;
    this.service = service;
  }

  /**
   * Loads keytar and proves the keychain works with a write, a read and a delete: a reachable
   * Secret Service can still refuse writes (a locked collection with no one to unlock it), and
   * only a write shows that. Rejects with SecretStoreUnavailableError.
   */
  static async open(options: KeytarSecretStoreOptions = {}): Promise<KeytarSecretStore> {
    let keytar: Keytar;
    try {
      keytar = await (options.load ?? loadKeytar)();
    } catch (error) {
      throw new SecretStoreUnavailableError(`the keychain module (keytar) is not available: ${reason(error)}`);
    }
    const service = options.service ?? KEYCHAIN_SERVICE;
    try {
      const value = `probe-${Date.now()}`;
      await keytar.setPassword(service, PROBE_ACCOUNT, value);
      const read = await keytar.getPassword(service, PROBE_ACCOUNT);
      await keytar.deletePassword(service, PROBE_ACCOUNT);
      if (read !== value) throw new Error('a value written to the keychain did not read back');
    } catch (error) {
      throw new SecretStoreUnavailableError(`the keychain cannot be used: ${reason(error)}`);
    }
    return new KeytarSecretStore(keytar, service);
  }

  async get(key: SecretKey): Promise<string | undefined> {
    return (await this.#keytar.getPassword(this.service, keychainAccount(key.issuer, key.subject))) ?? undefined;
  }

  async set(key: SecretKey, value: string): Promise<void> {
    await this.#keytar.setPassword(this.service, keychainAccount(key.issuer, key.subject), value);
  }

  async delete(key: SecretKey): Promise<boolean> {
    return this.#keytar.deletePassword(this.service, keychainAccount(key.issuer, key.subject));
  }
}

/** Loads the installed keytar module; rejects when it is missing or lacks the functions used. */
export async function loadKeytar(): Promise<Keytar> {
  const module = (await import(/* @vite-ignore */ KEYTAR_MODULE)) as Partial<Keytar> & { default?: Partial<Keytar> };
  // keytar is CommonJS: its functions arrive on `default` (and, through Node's interop, often on the namespace too).
  const keytar = module.default ?? module;
  if (!isKeytar(keytar)) throw new Error('keytar loaded without its functions');
  return keytar;
}

function isKeytar(value: Partial<Keytar>): value is Keytar {
  return typeof value.getPassword === 'function' && typeof value.setPassword === 'function' && typeof value.deletePassword === 'function';
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
