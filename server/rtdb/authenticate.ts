import type { IncomingMessage } from 'node:http';
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { SCOPE_FIREBASE_DATABASE, SCOPE_USERINFO_EMAIL, type ServiceAccounts } from '../identity/serviceAccounts.ts';
import { StoreUnavailableError } from '../storage/errors.ts';
import type { RulesAuth } from './rules.ts';

/** Who a database request acts as; `admin` bypasses the rules. */
export type RtdbCaller =
  { kind: 'anonymous' } | { kind: 'user'; auth: RulesAuth } | { kind: 'admin'; via: 'service-account'; clientEmail: string } | { kind: 'admin'; via: 'secret'; secretId: string };

/** A request whose credentials are refused: 401 with `{"error": message}`. */
export class RtdbAuthError extends Error {
  override readonly name = 'RtdbAuthError';
}

/** Both scopes the seed requires of a service-account token. */
export const REQUIRED_SCOPES = [SCOPE_USERINFO_EMAIL, SCOPE_FIREBASE_DATABASE] as const;

export interface RtdbAuthOptions {
  /** The sign-in provider whose ID tokens act as a person (`?auth=`). */
  idTokens: { issuer: string; audience: string; keys: JWTVerifyGetKey } | undefined;
  /** False for a subject whose account is gone: its ID tokens stop working. */
  isAccountActive: (sub: string) => boolean | Promise<boolean>;
  serviceAccounts: ServiceAccounts | undefined;
  findLiveSecret: (secret: string) => Promise<string | undefined>;
  /**
   * False for a revoked sign-in: an ID token naming its grant (`gid`, the service's own provider)
   * is refused once the grant is gone. Absent where the provider is not this service's own.
   */
  isGrantLive?: (grantId: string) => Promise<boolean>;
  /** ID tokens whose signature and claims were checked already (see {@link VerifiedIdTokens}). */
  verifiedIdTokens?: VerifiedIdTokens;
}

/**
 * The payloads of ID tokens this service checked (signature, issuer, audience, algorithm, `exp`),
 * keyed by the exact token string, until the token's own `exp`: a stream checks its caller again
 * before each change, and 200 streams of one person opened at once verified the same RSA
 * signature 200 times, holding up every other request. Only successes are kept, so a refused
 * token is refused again by the real check; what can change while a token is valid — the
 * account, the sign-in's grant — is asked on every use as before. Bounded: the oldest goes first.
 */
export class VerifiedIdTokens {
  readonly #payloads = new Map<string, JWTPayload & { exp: number }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  /** `now`: milliseconds since the epoch. */
  constructor(maxEntries = 10_000, now: () => number = Date.now) {
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  async verify(token: string, check: (token: string) => Promise<JWTPayload>): Promise<JWTPayload> {
    const known = this.#payloads.get(token);
    if (known) {
      if (this.#now() < known.exp * 1000) return structuredClone(known);
      this.#payloads.delete(token);
    }
    const payload = await check(token);
    if (typeof payload.exp === 'number' && this.#now() < payload.exp * 1000) {
      if (this.#payloads.size >= this.#maxEntries) this.#payloads.delete(this.#payloads.keys().next().value!);
      this.#payloads.set(token, structuredClone(payload as JWTPayload & { exp: number }));
    }
    return payload;
  }
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * The seed's three methods: a service-account access token (`Authorization: Bearer` or
 * `?access_token=`) with both scopes; an ID token as `?auth=`; a legacy secret as `?auth=`.
 * No credentials: anonymous (rules decide).
 */
export async function authenticateRtdb(req: IncomingMessage, query: URLSearchParams, options: RtdbAuthOptions): Promise<RtdbCaller> {
  const header = req.headers.authorization;
  const bearerHeader = header?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (header !== undefined && !bearerHeader) throw new RtdbAuthError('the Authorization header must be "Bearer <access token>"');
  const accessToken = bearerHeader ?? query.get('access_token') ?? undefined;
  const auth = query.get('auth') ?? undefined;
  if (bearerHeader && query.has('access_token')) throw new RtdbAuthError('send the access token once: in the Authorization header or as access_token, not both');
  if (accessToken !== undefined && auth !== undefined) throw new RtdbAuthError('send one credential: an access token or ?auth=, not both');

  if (accessToken !== undefined) {
    if (!options.serviceAccounts) throw new RtdbAuthError('this database accepts no service-account tokens (no identity provider of its own)');
    let claims;
    try {
      claims = await options.serviceAccounts.verifyAccessToken(accessToken);
    } catch (error) {
      throw new RtdbAuthError(error instanceof Error ? error.message : 'the access token is not valid');
    }
    const missing = REQUIRED_SCOPES.filter((scope) => !claims.scopes.includes(scope));
    if (missing.length > 0) throw new RtdbAuthError(`the access token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`);
    return { kind: 'admin', via: 'service-account', clientEmail: claims.clientEmail };
  }

  if (auth === undefined) return { kind: 'anonymous' };
  if (JWT_SHAPE.test(auth)) {
    if (!options.idTokens) throw new RtdbAuthError('this database accepts no ID tokens');
    try {
      const { issuer, audience, keys } = options.idTokens;
      const check = async (token: string) =>
        (await jwtVerify(token, keys, { issuer, audience, algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'], requiredClaims: ['sub', 'exp'], clockTolerance: 5 })).payload;
      const payload = options.verifiedIdTokens ? await options.verifiedIdTokens.verify(auth, check) : await check(auth);
      if (payload.typ === 'at+jwt' || (payload as { scope?: unknown }).scope !== undefined) throw new RtdbAuthError('?auth= takes an ID token, not an access token');
      if (!(await options.isAccountActive(payload.sub!))) throw new RtdbAuthError('the account of this ID token no longer exists');
      const grantId = (payload as { gid?: unknown }).gid;
      if (typeof grantId === 'string' && options.isGrantLive && !(await options.isGrantLive(grantId))) {
        throw new RtdbAuthError('the sign-in of this ID token was revoked; sign in again');
      }
      const { iss: _iss, aud: _aud, ...token } = payload;
      return { kind: 'user', auth: { uid: payload.sub!, provider: 'oidc', token } };
    } catch (error) {
      // The database being away is no verdict on the token: the service answers 503.
      if (error instanceof RtdbAuthError || error instanceof StoreUnavailableError) throw error;
      if (error instanceof errors.JWTExpired) throw new RtdbAuthError('Auth token is expired');
      throw new RtdbAuthError('Could not parse auth token.');
    }
  }
  const secretId = await options.findLiveSecret(auth);
  if (secretId) return { kind: 'admin', via: 'secret', secretId };
  throw new RtdbAuthError('Could not parse auth token.');
}
