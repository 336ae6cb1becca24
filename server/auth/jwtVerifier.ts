import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { InvalidTokenError, type AccessTokenClaims, type AccessTokenVerifier } from './AccessTokenVerifier.ts';

export interface JwtAccessTokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Where the signing keys are published; fetched lazily and cached by jose. */
  jwksUrl?: string | URL;
  /** A key set given directly (tests, or a pinned set); wins over `jwksUrl`. */
  jwks?: JWTVerifyGetKey | JSONWebKeySet;
  algorithms?: string[];
  clockToleranceSec?: number;
  /** Longest accepted lifetime, `exp - iat` (or `exp - now` without `iat`); default 24 h. */
  maxLifetimeSec?: number;
  /** Seconds since the epoch; for tests. */
  now?: () => number;
}

export const DEFAULT_MAX_LIFETIME_SEC = 24 * 3600;

export const DEFAULT_ALGORITHMS: readonly string[] = ['RS256', 'ES256', 'PS256', 'EdDSA'];

/** RFC 9068 access tokens; jose compares `typ` case-insensitively and with or without `application/`. */
const ACCESS_TOKEN_TYP = 'at+jwt';

// A bearer token far beyond any real access token is either abuse or a mistake; refuse before parsing.
const MAX_TOKEN_LENGTH = 16 * 1024;

/**
 * Thrown when the signing keys cannot be fetched. Deliberately not an InvalidTokenError:
 * an unreachable identity provider says nothing about the token, so it must not become a 401
 * that sends the user back to sign in.
 */
export class SigningKeysUnavailableError extends Error {
  override readonly name = 'SigningKeysUnavailableError';
}

export function createJwtAccessTokenVerifier(options: JwtAccessTokenVerifierOptions): AccessTokenVerifier {
  const algorithms = safeAlgorithms(options.algorithms ?? [...DEFAULT_ALGORITHMS]);
  const keys = resolveKeySet(options);
  const clockTolerance = options.clockToleranceSec ?? 5;
  const maxLifetime = options.maxLifetimeSec ?? DEFAULT_MAX_LIFETIME_SEC;
  const now = options.now ?? (() => Date.now() / 1000);

  return {
    async verify(token: string): Promise<AccessTokenClaims> {
      if (typeof token !== 'string' || token.length === 0) throw new InvalidTokenError('token missing');
      if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('token too large');

      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms,
          typ: ACCESS_TOKEN_TYP,
          clockTolerance,
          requiredClaims: ['exp', 'sub'],
          currentDate: new Date(now() * 1000),
        }));
      } catch (error) {
        throw translateError(error);
      }
      checkLifetime(payload, now(), clockTolerance, maxLifetime);
      return toClaims(payload);
    },
  };
}

function safeAlgorithms(requested: string[]): string[] {
  // Symmetric algorithms would let anyone holding a public key forge tokens (key confusion).
  const unsafe = requested.filter((alg) => alg.toLowerCase() === 'none' || alg.toUpperCase().startsWith('HS'));
  if (unsafe.length > 0) throw new TypeError(`refusing unsafe JWT algorithms: ${unsafe.join(', ')}`);
  if (requested.length === 0) throw new TypeError('at least one JWT algorithm is required');
  return requested;
}

function resolveKeySet(options: JwtAccessTokenVerifierOptions): JWTVerifyGetKey {
  if (typeof options.jwks === 'function') return options.jwks;
  if (options.jwks) return createLocalJWKSet(options.jwks);
  if (options.jwksUrl) return createRemoteJWKSet(new URL(options.jwksUrl));
  throw new TypeError('either jwks or jwksUrl is required');
}

/**
 * A token minted "in the future" or for a long life is either a skewed or a compromised issuer;
 * either way it would stay usable far longer than the sign-in that produced it.
 */
function checkLifetime(payload: JWTPayload, now: number, tolerance: number, maxLifetime: number): void {
  const { iat, exp } = payload as { iat?: unknown; exp: number };
  if (iat !== undefined && typeof iat !== 'number') throw new InvalidTokenError('invalid "iat" claim');
  if (typeof iat === 'number' && iat > now + tolerance) throw new InvalidTokenError('token issued in the future');
  const lifetime = exp - (typeof iat === 'number' ? iat : now);
  if (lifetime > maxLifetime) throw new InvalidTokenError(`token lifetime exceeds ${maxLifetime} seconds`);
}

function toClaims(payload: JWTPayload): AccessTokenClaims {
  const { sub, email, email_verified: emailVerified, scope, client_id: clientId } = payload;
  if (typeof sub !== 'string' || sub.length === 0) throw new InvalidTokenError('token has no subject');
  const claims: AccessTokenClaims = { sub, expiresAt: payload.exp as number };
  if (typeof email === 'string') claims.email = email;
  if (typeof emailVerified === 'boolean') claims.emailVerified = emailVerified;
  if (typeof scope === 'string') claims.scope = scope;
  if (typeof clientId === 'string') claims.clientId = clientId;
  return claims;
}

const CLAIM_DESCRIPTIONS: Record<string, { missing: string; failed: string }> = {
  iss: { missing: 'token has no issuer', failed: 'unexpected issuer' },
  aud: { missing: 'token has no audience', failed: 'unexpected audience' },
  sub: { missing: 'token has no subject', failed: 'unexpected subject' },
  exp: { missing: 'token has no expiry', failed: 'token expired' },
  nbf: { missing: 'token not yet valid', failed: 'token not yet valid' },
  typ: { missing: 'token type must be at+jwt', failed: 'token type must be at+jwt' },
};

/** Short, token-free descriptions: they end up in `WWW-Authenticate` and in logs. */
function translateError(error: unknown): Error {
  if (error instanceof InvalidTokenError) return error;
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('token expired', { cause: error });
  if (error instanceof errors.JWTClaimValidationFailed) {
    const known = CLAIM_DESCRIPTIONS[error.claim];
    const description = known ? (error.reason === 'missing' ? known.missing : known.failed) : `invalid "${error.claim}" claim`;
    return new InvalidTokenError(description, { cause: error });
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new InvalidTokenError('signing algorithm not allowed', { cause: error });
  if (error instanceof errors.JWSSignatureVerificationFailed) return new InvalidTokenError('invalid signature', { cause: error });
  if (error instanceof errors.JWKSNoMatchingKey) return new InvalidTokenError('unknown signing key', { cause: error });
  if (error instanceof errors.JWKSMultipleMatchingKeys) return new InvalidTokenError('ambiguous signing key', { cause: error });
  if (error instanceof errors.JOSENotSupported) return new InvalidTokenError('unsupported token', { cause: error });
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return new InvalidTokenError('malformed token', { cause: error });
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JOSEError || error instanceof TypeError) {
    // Remaining jose errors come from fetching/parsing the JWKS (fetch failures surface as TypeError).
    return new SigningKeysUnavailableError('signing keys unavailable', { cause: error });
  }
  return new InvalidTokenError('invalid token', { cause: error });
}
