import type { SecretKey, SecretStore } from '../auth/secrets/SecretStore.ts';

/** Where the person's Have I Been Pwned API key is kept: the same secret store as the sign-in tokens (the OS keychain). */
export const HIBP_API_KEY_SECRET: SecretKey = { issuer: 'https://haveibeenpwned.com/api/v3', subject: 'hibp-api-key' };

export function readHibpApiKey(secrets: Pick<SecretStore, 'get'>): Promise<string | undefined> {
  return secrets.get(HIBP_API_KEY_SECRET);
}

/** The last four characters, to recognise a key without showing it (the service logs it the same way). */
export function keyHint(key: string): string {
  return key.slice(-4);
}
