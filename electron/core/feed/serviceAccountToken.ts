import { importPKCS8, SignJWT } from 'jose';
import { z } from 'zod';
import { BodyTooLargeError, readBoundedText } from '../../../shared/base/boundedBody.ts';

/** The two scopes a realtime-database service-account token must carry (seed 001). */
export const DATABASE_SCOPES = ['https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/firebase.database'] as const;

/** The fields of a service-account key file this client reads; the rest is kept as it came. */
export const ServiceAccountKey = z.looseObject({
  type: z.literal('service_account', { error: 'type must be "service_account"' }),
  private_key_id: z.string().min(1),
  private_key: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }),
  client_email: z.string().min(1),
  token_uri: z.url({ error: 'token_uri must be a URL' }),
});
export type ServiceAccountKey = z.infer<typeof ServiceAccountKey>;

const TokenAnswer = z.looseObject({ access_token: z.string().min(1), expires_in: z.number().positive().optional(), token_type: z.string().optional() });
const ErrorAnswer = z.looseObject({ error: z.string(), error_description: z.string().optional() });

export class ServiceAccountTokenError extends Error {
  override readonly name = 'ServiceAccountTokenError';
  /** OAuth error code (`invalid_scope`, `invalid_grant`, …) when the endpoint gave one. */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

export interface ServiceAccountToken {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/**
 * An access token for a service account, the way Google's client libraries get one: a JWT
 * assertion signed with the key file's private key (`iss` = `client_email`, `aud` = `token_uri`,
 * `kid` = `private_key_id`, one hour) traded at `token_uri` through the JWT-bearer grant
 * (RFC 7523). Works against Google's real endpoint and the reference service's alike.
 */
export async function fetchServiceAccountToken(
  key: ServiceAccountKey,
  scopes: readonly string[] = DATABASE_SCOPES,
  options: { fetch?: typeof fetch; now?: () => number; signal?: AbortSignal } = {},
): Promise<ServiceAccountToken> {
  const now = options.now ?? Date.now;
  const issuedAt = Math.floor(now() / 1000);
  let privateKey;
  try {
    privateKey = await importPKCS8(key.private_key, 'RS256');
  } catch (error) {
    throw new ServiceAccountTokenError(`the key file's private_key cannot be read: ${(error as Error).message}`);
  }
  const assertion = await new SignJWT({ scope: scopes.join(' ') })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.private_key_id })
    .setIssuer(key.client_email)
    .setAudience(key.token_uri)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .sign(privateKey);
  const response = await (options.fetch ?? fetch)(key.token_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // A token answer is a few hundred bytes; 64 KB holds any error page too.
  const text = await readBoundedText(response, 64 * 1024).catch((error: unknown) => {
    if (error instanceof BodyTooLargeError) throw new ServiceAccountTokenError(`${key.token_uri} answered more than a token answer holds (${error.message})`);
    throw error;
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = ErrorAnswer.safeParse(json);
    if (error.success)
      throw new ServiceAccountTokenError(
        `${key.token_uri} refused the service account: ${error.data.error}${error.data.error_description ? ` (${error.data.error_description})` : ''}`,
        error.data.error,
      );
    throw new ServiceAccountTokenError(`${key.token_uri} answered ${response.status}`);
  }
  const token = TokenAnswer.safeParse(json);
  if (!token.success) throw new ServiceAccountTokenError(`${key.token_uri} answered without an access_token`);
  return { accessToken: token.data.access_token, expiresAt: now() + (token.data.expires_in ?? 3600) * 1000 };
}
