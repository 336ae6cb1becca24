import type { AccessTokenClaims, AccessTokenVerifier } from './AccessTokenVerifier.ts';

export interface CachingVerifierOptions {
  /** Most tokens remembered; the oldest entry goes first. */
  maxEntries?: number;
  /** Seconds since the epoch; for tests. */
  now?: () => number;
}

/**
 * Remembers what a verifier said about a token, keyed by the exact token string, until the
 * token's own `exp`: a signature checked once stays checked (RSA verification was a third of
 * the service's time per request). Only successes are kept, so a refused token is refused again
 * by the real check; an entry is never used at or past `exp`.
 */
export function cachingVerifier(inner: AccessTokenVerifier, options: CachingVerifierOptions = {}): AccessTokenVerifier {
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? (() => Date.now() / 1000);
  const entries = new Map<string, AccessTokenClaims>();

  return {
    async verify(token: string): Promise<AccessTokenClaims> {
      const known = entries.get(token);
      if (known) {
        if (now() < known.expiresAt) return { ...known };
        entries.delete(token);
      }
      const claims = await inner.verify(token);
      if (now() < claims.expiresAt) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(token, { ...claims });
      }
      return claims;
    },
  };
}
