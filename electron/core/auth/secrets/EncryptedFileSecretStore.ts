import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { accountId } from '../../accounts/accountId.ts';
import { writeFileAtomic } from '../files.ts';
import { SecretStoreUnavailableError, type SecretKey, type SecretStore } from './SecretStore.ts';

/** The shape of Electron's `safeStorage`, injected by the shell so the core never imports electron. */
/**
 * Electron's `safeStorage`, or a proxy to it: the core runs in a utility process, where the
 * cipher lives in the main process, so encrypt and decrypt may answer asynchronously.
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer | Promise<Buffer>;
  decryptString(encrypted: Buffer): string | Promise<string>;
  /** Linux only in Electron: `basic_text` means a hard-coded key, which is clear text in all but name. */
  getSelectedStorageBackend?(): string;
}

/**
 * Ciphertext files in the app data folder, encrypted by the OS-backed key of `safeStorage`
 * (DPAPI, the macOS Keychain, kwallet/libsecret). One file per account, named by a hash of
 * issuer + subject; written atomically with mode 0600.
 */
export class EncryptedFileSecretStore implements SecretStore {
  readonly kind = 'encrypted-file';
  readonly persistent = true;
  readonly dir: string;
  readonly #cipher: SafeStorageLike;

  private constructor(dir: string, cipher: SafeStorageLike) {
    this.dir = dir;
    this.#cipher = cipher;
  }

  /** Rejects with SecretStoreUnavailableError when the cipher cannot protect anything. */
  static open(options: { dir: string; cipher: SafeStorageLike }): EncryptedFileSecretStore {
    const { cipher } = options;
    if (!cipher.isEncryptionAvailable()) throw new SecretStoreUnavailableError('encryption of stored secrets is not available on this system');
    const backend = cipher.getSelectedStorageBackend?.();
    if (backend === 'basic_text' || backend === 'unknown') {
      throw new SecretStoreUnavailableError(`the system offers only "${backend}" encryption, which does not protect stored secrets`);
    }
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    return new EncryptedFileSecretStore(options.dir, cipher);
  }

  async get(key: SecretKey): Promise<string | undefined> {
    let ciphertext: Buffer;
    try {
      ciphertext = readFileSync(this.#file(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return await this.#cipher.decryptString(ciphertext);
    } catch {
      // Written under another OS key (a restored backup, another user): unreadable means "sign in again".
      return undefined;
    }
  }

  async set(key: SecretKey, value: string): Promise<void> {
    if (!this.#cipher.isEncryptionAvailable()) throw new SecretStoreUnavailableError('encryption of stored secrets is no longer available');
    writeFileAtomic(this.#file(key), await this.#cipher.encryptString(value));
  }

  async delete(key: SecretKey): Promise<boolean> {
    const file = this.#file(key);
    try {
      rmSync(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  #file(key: SecretKey): string {
    return path.join(this.dir, `${accountId(key.issuer, key.subject)}.secret`);
  }
}
