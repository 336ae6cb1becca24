import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeProtectedHeader, errors, importJWK, importSPKI, jwtVerify, SignJWT, decodeJwt, type JWK } from 'jose';
import { z } from 'zod';
import type { IdentityKeys } from './keys.ts';

/**
 * Service accounts of the identity provider and their token endpoint: the OAuth 2.0 JWT-bearer
 * grant (RFC 7523) exactly as Google's token endpoint speaks it. A client signs an assertion
 * with the account's private key (`iss` = the account's email, `aud` = this token endpoint or,
 * as Google's own libraries send it, Google's (`GOOGLE_TOKEN_ENDPOINT`),
 * `scope` = space-separated scopes, `kid` = `private_key_id`, RS256, at most an hour) and posts
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=…`; the answer is
 * `{access_token, token_type: "Bearer", expires_in}`. An account not permitted every scope it
 * asks for gets `invalid_scope` and no token.
 */

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Where the token endpoint lives below the issuer. */
export const SERVICE_ACCOUNT_TOKEN_PATH = '/service-accounts/token';
export const SCOPE_USERINFO_EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
export const SCOPE_FIREBASE_DATABASE = 'https://www.googleapis.com/auth/firebase.database';
/** The `aud` of service-account access tokens: only the realtime database accepts them. */
export const RTDB_TOKEN_AUDIENCE = 'urn:breach-monitor:rtdb';
/** Google's token endpoint: the `aud` Google's own libraries sign into every assertion. */
export const GOOGLE_TOKEN_ENDPOINT = 'https://oauth2.googleapis.com/token';
const TOKEN_TTL_SEC = 3600;

/** A service-account key file, as Google's console downloads it (the fields clients read). */
export const ServiceAccountKeyFile = z.looseObject({
  type: z.literal('service_account'),
  project_id: z.string().optional(),
  private_key_id: z.string().min(1),
  private_key: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }),
  client_email: z.string().min(1),
  client_id: z.string().optional(),
  token_uri: z.url(),
});
export type ServiceAccountKeyFile = z.infer<typeof ServiceAccountKeyFile>;

/** Where accounts are kept: the realtime database's store (SQLite or PostgreSQL), so every instance knows every account. */
export interface ServiceAccountDirectory {
  putServiceAccount(account: { clientEmail: string; keyId: string; publicKeyPem: string; scopes: string[] }): Promise<void>;
  getServiceAccount(clientEmail: string): Promise<{ clientEmail: string; keyId: string; publicKeyPem: string; scopes: string[] } | undefined>;
}

export interface ServiceAccountClaims {
  clientEmail: string;
  scopes: string[];
}

export class ServiceAccountTokenError extends Error {
  override readonly name = 'ServiceAccountTokenError';
}

export interface ServiceAccounts {
  tokenUrl: string;
  /** A new account permitted `scopes`; the returned key file is the only copy of its private key. */
  create(scopes: readonly string[]): Promise<ServiceAccountKeyFile>;
  /** Answers a POST to the token endpoint. */
  handleToken(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Verifies an access token this endpoint issued; throws `ServiceAccountTokenError`. */
  verifyAccessToken(token: string): Promise<ServiceAccountClaims>;
}

export async function createServiceAccounts(options: { issuer: string; keys: IdentityKeys; directory: ServiceAccountDirectory; now?: () => number }): Promise<ServiceAccounts> {
  const tokenUrl = options.issuer.replace(/\/+$/, '') + SERVICE_ACCOUNT_TOKEN_PATH;
  // RFC 7523 §3 lets the audience be the token endpoint's URL; Google's Python library signs its
  // own endpoint's URL while posting to the key file's token_uri (docs/decisions/0103-service-account-assertion-audiences.md). Nothing else.
  const acceptedAudiences = [tokenUrl, GOOGLE_TOKEN_ENDPOINT];
  const { signingKey } = options.keys;
  const privateKey = await importJWK(signingKey, signingKey.alg);
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = signingKey as JWK & Record<string, unknown>;
  const publicKey = await importJWK(publicJwk as JWK, signingKey.alg);
  const now = options.now ?? Date.now;
  const project = 'breach-monitor-dev';

  async function grant(form: URLSearchParams): Promise<{ status: number; body: Record<string, unknown> }> {
    const fail = (status: number, error: string, description: string) => ({ status, body: { error, error_description: description } });
    const grantType = form.get('grant_type');
    if (!grantType) return fail(400, 'invalid_request', 'grant_type is missing');
    if (grantType !== JWT_BEARER_GRANT) return fail(400, 'unsupported_grant_type', `only ${JWT_BEARER_GRANT} is supported here`);
    const assertion = form.get('assertion');
    if (!assertion) return fail(400, 'invalid_request', 'assertion is missing');
    let issuer: unknown;
    let kid: unknown;
    try {
      issuer = decodeJwt(assertion).iss;
      kid = decodeProtectedHeader(assertion).kid;
    } catch {
      return fail(400, 'invalid_grant', 'the assertion is not a JWT');
    }
    const account = typeof issuer === 'string' ? await options.directory.getServiceAccount(issuer) : undefined;
    if (!account) return fail(400, 'invalid_grant', 'the assertion names no known service account (iss)');
    if (kid !== account.keyId) return fail(400, 'invalid_grant', "the assertion is not signed with this account's key (kid)");
    let payload;
    try {
      ({ payload } = await jwtVerify(assertion, await importSPKI(account.publicKeyPem, 'RS256'), {
        issuer: account.clientEmail,
        audience: acceptedAudiences,
        algorithms: ['RS256'],
        requiredClaims: ['iat', 'exp'],
        maxTokenAge: '1h',
        clockTolerance: 30,
        currentDate: new Date(now()),
      }));
    } catch (error) {
      const reason =
        error instanceof errors.JWTExpired
          ? 'the assertion has expired'
          : error instanceof errors.JWTClaimValidationFailed
            ? `the assertion's ${error.claim} claim is wrong`
            : 'the assertion signature is invalid';
      return fail(400, 'invalid_grant', reason);
    }
    // Google's libraries send `sub` only to act for someone else (domain-wide delegation), which this provider does not offer.
    if (payload.sub !== undefined && payload.sub !== account.clientEmail) {
      return fail(400, 'unauthorized_client', `${account.clientEmail} may not act for another user (sub); this provider has no domain-wide delegation`);
    }
    if ((payload.exp as number) - (payload.iat as number) > TOKEN_TTL_SEC) return fail(400, 'invalid_grant', 'the assertion may be valid for at most an hour');
    const requested = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    if (requested.length === 0) return fail(400, 'invalid_scope', 'the assertion asks for no scope');
    const refused = requested.filter((scope) => !account.scopes.includes(scope));
    if (refused.length > 0) return fail(400, 'invalid_scope', `${account.clientEmail} is not permitted: ${refused.join(' ')}`);
    const accessToken = await new SignJWT({ scope: requested.join(' '), client_id: account.clientEmail })
      .setProtectedHeader({ alg: signingKey.alg, kid: signingKey.kid, typ: 'at+jwt' })
      .setIssuer(options.issuer)
      .setAudience(RTDB_TOKEN_AUDIENCE)
      .setSubject(account.clientEmail)
      .setJti(randomBytes(16).toString('base64url'))
      .setIssuedAt(Math.floor(now() / 1000))
      .setExpirationTime(Math.floor(now() / 1000) + TOKEN_TTL_SEC)
      .sign(privateKey);
    return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_TTL_SEC } };
  }

  return {
    tokenUrl,
    async create(scopes) {
      const { privateKey: key, publicKey: pub } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const keyId = randomBytes(20).toString('hex');
      const name = `sa-${randomBytes(4).toString('hex')}`;
      const clientEmail = `${name}@${project}.iam.example.test`;
      await options.directory.putServiceAccount({ clientEmail, keyId, publicKeyPem: pub.export({ type: 'spki', format: 'pem' }).toString(), scopes: [...new Set(scopes)] });
      return {
        type: 'service_account',
        project_id: project,
        private_key_id: keyId,
        private_key: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: clientEmail,
        client_id: String(BigInt('0x' + randomBytes(8).toString('hex'))),
        token_uri: tokenUrl,
      };
    },
    async handleToken(req, res) {
      const send = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
        res.end(text);
      };
      if (req.method !== 'POST') return send(405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST' });
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/x-www-form-urlencoded') return send(400, { error: 'invalid_request', error_description: 'the body must be application/x-www-form-urlencoded' });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > 64 * 1024) return send(413, { error: 'invalid_request', error_description: 'the body is larger than 64 KiB' });
        chunks.push(chunk);
      }
      const { status, body } = await grant(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      send(status, body);
    },
    async verifyAccessToken(token) {
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: options.issuer,
          audience: RTDB_TOKEN_AUDIENCE,
          algorithms: ['RS256'],
          typ: 'at+jwt',
          requiredClaims: ['exp', 'sub'],
          currentDate: new Date(now()),
        });
        return { clientEmail: payload.sub!, scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [] };
      } catch (error) {
        throw new ServiceAccountTokenError(error instanceof errors.JWTExpired ? 'the access token has expired' : 'the access token is not valid for this database');
      }
    },
  };
}
