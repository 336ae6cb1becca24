/** Whose secret: one entry per account, keyed by issuer + subject. */
export interface SecretKey {
  issuer: string;
  subject: string;
}

export type SecretStoreKind = 'keychain' | 'encrypted-file' | 'memory';

/**
 * Where an account's tokens live between runs. Implementations never write a secret to disk in
 * clear; one that cannot keep that promise reports itself unavailable instead.
 */
export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** False when secrets last only as long as the process: the UI must say sign-in will not be remembered. */
  readonly persistent: boolean;
  get(key: SecretKey): Promise<string | undefined>;
  /** Replaces any previous value. */
  set(key: SecretKey, value: string): Promise<void>;
  /** True when something was deleted. */
  delete(key: SecretKey): Promise<boolean>;
}

/** The store cannot be used on this machine (no keychain service, encryption unavailable). */
export class SecretStoreUnavailableError extends Error {
  override readonly name = 'SecretStoreUnavailableError';
}
