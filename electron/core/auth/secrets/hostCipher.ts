import path from 'node:path';
import type { HostBridge } from '../../host.ts';
import type { SafeStorageLike } from './EncryptedFileSecretStore.ts';

/** The encrypted-file fallback under `<dataDir>/secrets`, when the host offers a cipher that works on this machine. */
export async function hostEncryptedFile(cipher: HostBridge['cipher'], dataDir: string): Promise<{ dir: string; cipher: SafeStorageLike } | undefined> {
  if (!cipher || !(await cipher.isAvailable())) return undefined;
  return { dir: path.join(dataDir, 'secrets'), cipher: asSafeStorage(cipher) };
}

/** The host's asynchronous cipher in the shape the encrypted-file store takes (availability is known up front). */
function asSafeStorage(cipher: NonNullable<HostBridge['cipher']>): SafeStorageLike {
  return {
    isEncryptionAvailable: () => true,
    encryptString: async (plaintext) => Buffer.from(await cipher.encrypt(plaintext)),
    decryptString: (ciphertext) => cipher.decrypt(ciphertext),
  };
}
