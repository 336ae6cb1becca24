import { createHash } from 'node:crypto';

/**
 * The stable key of one signed-in account: issuer + subject. It names the keychain entries and
 * the account's database file, so two accounts on one machine never share either. Hashed so
 * file names carry no identifier in clear.
 */
export function accountId(issuer: string, subject: string): string {
  return createHash('sha256').update(issuer.replace(/\/+$/, '')).update('\u0000').update(subject).digest('hex').slice(0, 32);
}

/** Keychain account name for an account's secrets: readable in a keychain UI, unique per account. */
export function keychainAccount(issuer: string, subject: string): string {
  return `${issuer.replace(/\/+$/, '')}#${subject}`;
}
