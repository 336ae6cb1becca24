import { createHmac, randomBytes } from 'node:crypto';
import type { SecretKey, SecretStore } from '../auth/secrets/SecretStore.ts';

/** The key's entry in the secret store (the account's own: AccountSecrets adds the account to the subject). */
export const LOGIN_HASH_KEY: SecretKey = { issuer: 'breach-monitor:logins', subject: 'password-hash-key' };

/**
 * A password's keyed hash: what the account database keeps instead of it. `keyCheck` is the
 * key's own mark (an HMAC of a fixed text), kept with each import: a later import made under
 * another key (the keychain entry deleted, or a machine that could keep it only in memory) knows
 * its hashes cannot be compared with the kept ones.
 */
export type PasswordHasher = ((password: string) => string) & { readonly keyCheck: string };

/**
 * HMAC-SHA-256 over each password under a random 32-byte key kept in the secret store (the OS
 * keychain where there is one), made on first use. Equal passwords give equal hashes, so reuse
 * and a re-imported login are found locally; without the key the hash tells nothing, and being
 * keyed it is no SHA-1 or SHA-256 a breach corpus could be searched with.
 */
export async function passwordHasher(secrets: SecretStore): Promise<PasswordHasher> {
  const encoded = await secrets.get(LOGIN_HASH_KEY);
  let key = encoded === undefined ? undefined : Buffer.from(encoded, 'base64');
  if (key === undefined || key.length !== 32) {
    key = randomBytes(32);
    await secrets.set(LOGIN_HASH_KEY, key.toString('base64'));
  }
  const secret = key;
  const hash = (password: string) => createHmac('sha256', secret).update(password, 'utf8').digest('hex');
  return Object.assign(hash, { keyCheck: createHmac('sha256', secret).update('\0breach-monitor:logins key check', 'utf8').digest('hex') });
}

/** Forgets the key (with the logins): hashes made under it can no longer be compared with anything. */
export async function forgetPasswordHashKey(secrets: SecretStore): Promise<void> {
  await secrets.delete(LOGIN_HASH_KEY);
}
