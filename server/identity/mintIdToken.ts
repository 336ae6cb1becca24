import { importJWK, SignJWT } from 'jose';
import type { IdentityKeys } from './keys.ts';

export interface MintIdTokenOptions {
  sub: string;
  email?: string;
  /** Seconds; defaults to one hour. Negative values make an already expired token (tests). */
  expiresIn?: number;
}

/**
 * ID tokens shaped like the provider's own (same key, issuer, `aud` = the desktop client): what
 * the realtime database accepts as `?auth=` to act as that person.
 */
export async function createIdTokenMinter(settings: { issuer: string; clientId: string; keys: IdentityKeys }): Promise<(options: MintIdTokenOptions) => Promise<string>> {
  const { signingKey } = settings.keys;
  const key = await importJWK(signingKey, signingKey.alg);
  return async ({ sub, email, expiresIn = 3600 }) => {
    if (typeof sub !== 'string' || sub.length === 0) throw new TypeError('sub must be a non-empty string');
    if (!Number.isSafeInteger(expiresIn) || expiresIn === 0) throw new TypeError('expiresIn must be a non-zero integer');
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = { auth_time: now };
    if (email !== undefined) Object.assign(claims, { email, email_verified: true });
    return new SignJWT(claims)
      .setProtectedHeader({ alg: signingKey.alg, kid: signingKey.kid, typ: 'JWT' })
      .setIssuer(settings.issuer)
      .setAudience(settings.clientId)
      .setSubject(sub)
      .setIssuedAt(Math.min(now, now + expiresIn - 60))
      .setExpirationTime(now + expiresIn)
      .sign(key);
  };
}
