import { invoke } from '../lib/core.ts';
import { sha1Parts } from '../lib/pwnedHash.ts';

/**
 * How often Pwned Passwords has seen a password (0: not in any known breach). Nothing is kept:
 * the password is hashed here, the 5-character prefix is all that goes to the core, the suffix
 * is matched against the answer and dropped with this call's scope.
 */
export async function pwnedCount(password: string): Promise<number> {
  const { prefix, suffix } = await sha1Parts(password);
  const range = await invoke('passwords-range', { prefix });
  return range.entries.find((entry) => entry.suffix === suffix)?.count ?? 0;
}
