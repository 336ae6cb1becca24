import { plural } from './format.ts';

/**
 * The password's SHA-1 in upper-case hex, split as the range API needs it: the 5-character
 * prefix that is sent, and the 35-character suffix that never leaves this page. WebCrypto, so
 * the password never crosses to the core or anywhere else.
 */
export async function sha1Parts(password: string): Promise<{ prefix: string; suffix: string }> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(password));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
  return { prefix: hex.slice(0, 5), suffix: hex.slice(5) };
}

/** "Seen 52,256 times in breaches — never use it" / "Not found in any known breach". */
export function pwnedVerdict(count: number): string {
  if (count === 0) return 'Not found in any known breach.';
  return `Seen ${plural(count, 'time')} in breaches — never use it.`;
}
