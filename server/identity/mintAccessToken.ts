import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import type { IdentityKeys } from './keys.ts';

export interface MintAccessTokenOptions {
  sub: string;
  email?: string;
  /** `email_verified` beside `email`; default true (the demo users' addresses are theirs). */
  emailVerified?: boolean;
  /** Seconds; defaults to one hour. */
  expiresIn?: number;
  /**
   * Development surface only: claims set over the standard ones (`null` leaves a claim out) and
   * another `typ` header, so conformance tests can break one claim at a time with the real key.
   */
  overrides?: { claims?: Record<string, unknown>; typ?: string };
  /** Space-separated; defaults to {@link MINTED_SCOPE}. */
  scope?: string;
}

export type AccessTokenMinter = (options: MintAccessTokenOptions) => Promise<string>;

export const MINTED_SCOPE = 'openid email offline_access';

/**
 * Issues access tokens shaped exactly like the ones from the authorization-code flow (same key,
 * issuer, audience, `typ`), for the development token surface and tests that skip the browser.
 */
export async function createAccessTokenMinter(settings: { issuer: string; audience: string; clientId: string; keys: IdentityKeys }): Promise<AccessTokenMinter> {
  const { signingKey } = settings.keys;
  const key = await importJWK(signingKey, signingKey.alg);

  return async ({ sub, email, emailVerified = true, expiresIn = 3600, overrides, scope = MINTED_SCOPE }) => {
    if (typeof sub !== 'string' || sub.length === 0) throw new TypeError('sub must be a non-empty string');
    if (!Number.isSafeInteger(expiresIn) || expiresIn <= 0) throw new TypeError('expiresIn must be a positive integer');
    const now = Math.floor(Date.now() / 1000);
    const payload: JWTPayload = {
      scope,
      client_id: settings.clientId,
      ...(email !== undefined ? { email, email_verified: emailVerified } : {}),
      iss: settings.issuer,
      aud: settings.audience,
      sub,
      jti: randomUUID(),
      iat: now,
      exp: now + expiresIn,
    };
    for (const [claim, value] of Object.entries(overrides?.claims ?? {})) {
      if (value === null) delete payload[claim];
      else payload[claim] = value;
    }
    return new SignJWT(payload).setProtectedHeader({ alg: signingKey.alg, kid: signingKey.kid, typ: overrides?.typ ?? 'at+jwt' }).sign(key);
  };
}
