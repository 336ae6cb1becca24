import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import type { IdentityKeys } from './keys.ts';

export interface MintAccessTokenOptions {
  sub: string;
  email?: string;
  /** Seconds; defaults to one hour. */
  expiresIn?: number;
  /** Space-separated; defaults to {@link MINTED_SCOPE}. */
  scope?: string;
}

export type AccessTokenMinter = (options: MintAccessTokenOptions) => Promise<string>;

export const MINTED_SCOPE = 'openid email offline_access';

/**
 * Issues access tokens shaped exactly like the ones from the authorization-code flow (same key,
 * issuer, audience, `typ`), for the development token surface and tests that skip the browser.
 */
export async function createAccessTokenMinter(settings: {
  issuer: string;
  audience: string;
  clientId: string;
  keys: IdentityKeys;
}): Promise<AccessTokenMinter> {
  const { signingKey } = settings.keys;
  const key = await importJWK(signingKey, signingKey.alg);

  return async ({ sub, email, expiresIn = 3600, scope = MINTED_SCOPE }) => {
    if (typeof sub !== 'string' || sub.length === 0) throw new TypeError('sub must be a non-empty string');
    if (!Number.isSafeInteger(expiresIn) || expiresIn <= 0) throw new TypeError('expiresIn must be a positive integer');
    const claims: Record<string, string> = { scope, client_id: settings.clientId };
    if (email !== undefined) claims.email = email;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: signingKey.alg, kid: signingKey.kid, typ: 'at+jwt' })
      .setIssuer(settings.issuer)
      .setAudience(settings.audience)
      .setSubject(sub)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${expiresIn}s`)
      .sign(key);
  };
}
