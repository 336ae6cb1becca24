import { describeError, silentLogger, type AuthLogger } from '../log.ts';
import { EncryptedFileSecretStore, type SafeStorageLike } from './EncryptedFileSecretStore.ts';
import { KeytarSecretStore, type KeytarSecretStoreOptions } from './KeytarSecretStore.ts';
import { MemorySecretStore } from './MemorySecretStore.ts';
import type { SecretStore } from './SecretStore.ts';

export const NOT_REMEMBERED_WARNING = 'You will need to sign in again next time: no keychain is available.';

export interface SecretStoreChoice {
  store: SecretStore;
  /** For the UI, shown while signed in, when the store does not outlive the process. */
  warning: string | undefined;
  /** Why the stronger stores were passed over, for diagnostics (no secrets). */
  skipped: string[];
}

export interface ChooseSecretStoreOptions {
  /** `false` skips the keychain (a host that knows it has none). */
  keychain?: KeytarSecretStoreOptions | false | undefined;
  /** Wired by the Electron shell with `safeStorage`; absent elsewhere. */
  encryptedFile?: { dir: string; cipher: SafeStorageLike } | undefined;
  logger?: AuthLogger | undefined;
}

/** The OS keychain, else safeStorage ciphertext files, else memory with a warning. Never clear text. */
export async function chooseSecretStore(options: ChooseSecretStoreOptions = {}): Promise<SecretStoreChoice> {
  const logger = options.logger ?? silentLogger;
  const skipped: string[] = [];
  if (options.keychain !== false) {
    try {
      const store = await KeytarSecretStore.open(options.keychain ?? {});
      logger.info('secrets: using the OS keychain');
      return { store, warning: undefined, skipped };
    } catch (error) {
      skipped.push(error instanceof Error ? error.message : String(error));
      logger.warn('secrets: the OS keychain is not available', describeError(error));
    }
  }
  if (options.encryptedFile) {
    try {
      const store = EncryptedFileSecretStore.open(options.encryptedFile);
      logger.info('secrets: using encrypted files in the app data folder');
      return { store, warning: undefined, skipped };
    } catch (error) {
      skipped.push(error instanceof Error ? error.message : String(error));
      logger.warn('secrets: encrypted files are not available', describeError(error));
    }
  }
  logger.warn('secrets: no persistent store; sign-in will last for this session only');
  return { store: new MemorySecretStore(), warning: NOT_REMEMBERED_WARNING, skipped };
}
