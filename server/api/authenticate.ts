import type { IncomingMessage } from 'node:http';
import { InvalidTokenError, type AccessTokenVerifier } from '../auth/AccessTokenVerifier.ts';
import { SigningKeysUnavailableError } from '../auth/jwtVerifier.ts';
import { HttpProblem } from '../http/problems.ts';
import { Email } from '../../shared/api/index.ts';
import type { Logger } from '../log.ts';
import type { Caller } from './BreachAlertService.ts';

const REALM = 'breach-alert';

/** RFC 6750: a bearer token in the Authorization header, verified; otherwise 401 with a challenge. */
export async function authenticate(req: IncomingMessage, verifier: AccessTokenVerifier, logger?: Logger): Promise<Caller> {
  const header = req.headers.authorization;
  const match = header ? /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header) : null;
  // RFC 6750 §3.1: no credentials, or another scheme, gets a challenge without an error code.
  if (!header || !/^Bearer(\s|$)/i.test(header)) {
    throw new HttpProblem(401, 'a bearer token is required', { headers: { 'www-authenticate': `Bearer realm="${REALM}"` } });
  }
  if (!match) throw invalidToken('the Authorization header must be "Bearer <token>"');
  try {
    const claims = await verifier.verify(match[1]!);
    return { sub: claims.sub, email: monitoredEmailOf(claims, logger) };
  } catch (error) {
    if (error instanceof InvalidTokenError) throw invalidToken(error.description);
    // The provider's keys could not be fetched: that says nothing about the token, so it is not
    // a 401 that would send the person back to sign in.
    if (error instanceof SigningKeysUnavailableError) {
      throw new HttpProblem(503, 'the identity provider cannot be reached to check the token; try again shortly', { headers: { 'retry-after': '5' } });
    }
    throw error;
  }
}

/**
 * The token's `email` becomes a monitored address only when the provider vouches for it
 * (`email_verified: true`) and it is an address at all: otherwise anyone able to get a token
 * with a chosen, unverified email would read that address's breaches.
 */
function monitoredEmailOf(claims: { sub: string; email?: string; emailVerified?: boolean }, logger: Logger | undefined): string | undefined {
  if (claims.email === undefined) return undefined;
  if (claims.emailVerified !== true) {
    logger?.debug({ sub: claims.sub }, 'token email ignored: email_verified is not true');
    return undefined;
  }
  if (!isEmail(claims.email)) {
    logger?.debug({ sub: claims.sub, length: claims.email.length }, 'token email ignored: not a valid email address');
    return undefined;
  }
  return claims.email;
}

/**
 * Whether the schema takes `email` as an address, remembered per string: a person's every
 * request names the same one, and the schema's check is a function of the string alone.
 * Bounded: when full, it starts again empty.
 */
const emailVerdicts = new Map<string, boolean>();
const MAX_EMAIL_VERDICTS = 10_000;

function isEmail(email: string): boolean {
  // Longer than any address (RFC 5321's 254 characters): checked, not remembered.
  if (email.length > 320) return Email.safeParse(email).success;
  let valid = emailVerdicts.get(email);
  if (valid === undefined) {
    valid = Email.safeParse(email).success;
    if (emailVerdicts.size >= MAX_EMAIL_VERDICTS) emailVerdicts.clear();
    emailVerdicts.set(email, valid);
  }
  return valid;
}

function invalidToken(description: string): HttpProblem {
  const safe = description.replace(/["\\]/g, "'");
  return new HttpProblem(401, `the access token is not valid: ${description}`, {
    headers: { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${safe}"` },
  });
}
