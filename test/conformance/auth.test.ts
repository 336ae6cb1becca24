// Authentication (seed "Authentication", CONTRACT 401 row): bearer JWTs, validated for
// signature, issuer, audience and expiry; everything else is 401 with an RFC 6750 challenge.
//
// Only the identity provider can sign a token the server trusts, and the development surface
// mints only well-formed ones. Claim-level attacks (wrong iss, wrong aud, missing sub, future
// nbf, wrong typ) are therefore signed here with a key of our own: the server must reject them
// (the key is unknown AND the claim is wrong). That the claim checks hold on their own, with
// a trusted key, is covered by the verifier's unit tests (test/server/identity). Expiry is
// checked end to end with a short-lived token from the development surface.
import { createPublicKey, randomUUID, type JsonWebKey } from 'node:crypto';
import { base64url, decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, type HttpResult, type TestUser, useClient } from './client.ts';

const client = useClient();

interface Endpoint {
  method: string;
  path: string;
  body?: unknown;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/user' },
  { method: 'GET', path: '/user/breaches' },
  { method: 'POST', path: '/user/breaches/resolutions', body: [] },
];

let user: TestUser;
let claims: JWTPayload;
let serverKid: string;
let serverJwk: JWK;
let ownKey: CryptoKey;

function call(endpoint: Endpoint, authorization: string | undefined): Promise<HttpResult> {
  return client.api(endpoint.method, endpoint.path, {
    ...(endpoint.body !== undefined ? { body: endpoint.body } : {}),
    ...(authorization !== undefined ? { headers: { authorization } } : {}),
  });
}

function expectInvalidToken(result: HttpResult): void {
  expectProblem(result, 401);
  expect(result.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b.*\berror="invalid_token"/i);
}

function basePayload(): JWTPayload {
  return { ...claims, jti: randomUUID() };
}

function sign(payload: JWTPayload, header: Record<string, unknown>, key: CryptoKey | Uint8Array): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', ...header } as { alg: string }).sign(key);
}

const encodeJson = (value: unknown) => base64url.encode(JSON.stringify(value));

beforeAll(async () => {
  user = await client.newUser();
  claims = decodeJwt(user.token);
  const header = decodeProtectedHeader(user.token);
  serverKid = String(header.kid);

  // Discover the server's published keys the way an attacker would: `/` → issuer → discovery → JWKS.
  const root = await client.origin('GET', '/');
  const issuer = (root.json as { issuer?: unknown }).issuer;
  expect(typeof issuer).toBe('string');
  const discovery = (await (await fetch(String(issuer).replace(/\/$/, '') + '/.well-known/openid-configuration')).json()) as { jwks_uri?: unknown };
  expect(typeof discovery.jwks_uri).toBe('string');
  const jwks = (await (await fetch(String(discovery.jwks_uri))).json()) as { keys: JWK[] };
  const published = jwks.keys.find((key) => key.kid === serverKid) ?? jwks.keys[0];
  if (!published) throw new Error('the JWKS publishes no key');
  serverJwk = published;

  ({ privateKey: ownKey } = await generateKeyPair('RS256', { extractable: true }));
});

describe('authentication: missing and malformed credentials', () => {
  it.each(ENDPOINTS)('$method $path answers 401 with a Bearer challenge without Authorization', async (endpoint) => {
    const result = await call(endpoint, undefined);
    expectProblem(result, 401);
    expect(result.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/i);
  });

  it.each(ENDPOINTS)('$method $path answers 401 invalid_token for garbage', async (endpoint) => {
    for (const authorization of ['Bearer garbage', 'Bearer a.b.c', 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.AAAA', 'Bearer ' + user.token.slice(0, -10)]) {
      expectInvalidToken(await call(endpoint, authorization));
    }
  });

  it('answers 401 for other schemes, an empty bearer and a token outside the Authorization header', async () => {
    const endpoint = ENDPOINTS[1]!;
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', user.token, `Token ${user.token}`]) {
      const result = await call(endpoint, authorization);
      expectProblem(result, 401);
      expect(result.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/i);
    }
    expectProblem(await client.api('GET', `/user/breaches?access_token=${encodeURIComponent(user.token)}`), 401);
  });

  it('accepts the genuine token (control)', async () => {
    const result = await call(ENDPOINTS[1]!, `Bearer ${user.token}`);
    expect(result.status, result.text).toBe(200);
  });
});

describe('authentication: JWT attack matrix (each 401 invalid_token on every endpoint)', () => {
  const attacks: Record<string, () => Promise<string>> = {
    'alg none (unsigned)': async () => `${encodeJson({ alg: 'none', typ: 'at+jwt', kid: serverKid })}.${encodeJson(basePayload())}.`,
    'alg none, upper case, with the original signature': async () => {
      const [, , signature] = user.token.split('.');
      return `${encodeJson({ alg: 'NONE', typ: 'at+jwt' })}.${encodeJson(basePayload())}.${signature}`;
    },
    'HS256 signed with the server public key (PEM) as secret': async () => {
      const pem = createPublicKey({ key: serverJwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
      return sign(basePayload(), { alg: 'HS256', kid: serverKid }, new TextEncoder().encode(pem));
    },
    'HS256 signed with the server public JWK (JSON) as secret': async () =>
      sign(basePayload(), { alg: 'HS256', kid: serverKid }, new TextEncoder().encode(JSON.stringify(serverJwk))),
    'unknown signing key (own RSA key, own kid)': async () => sign(basePayload(), { kid: randomUUID() }, ownKey),
    'own RSA key claiming the server kid': async () => sign(basePayload(), { kid: serverKid }, ownKey),
    'own RSA key, no kid': async () => sign(basePayload(), {}, ownKey),
    'payload tampered (other sub), original signature': async () => {
      const [header, , signature] = user.token.split('.');
      return `${header}.${encodeJson({ ...claims, sub: 'alice' })}.${signature}`;
    },
    'signature removed': async () => user.token.split('.').slice(0, 2).join('.') + '.',
    'signature of another genuine token': async () => {
      const other = await client.token(`${user.sub}-other`);
      const [header, payload] = user.token.split('.');
      return `${header}.${payload}.${other.split('.')[2]}`;
    },
    // Claim-level attacks: the key is unknown too (see the note at the top of the file).
    'expired (exp in the past)': async () => sign({ ...basePayload(), iat: 1_600_000_000, exp: 1_600_000_600 }, { kid: serverKid }, ownKey),
    'not yet valid (nbf in the future)': async () => sign({ ...basePayload(), nbf: Math.floor(Date.now() / 1000) + 3600 }, { kid: serverKid }, ownKey),
    'wrong issuer': async () => sign({ ...basePayload(), iss: 'https://attacker.example' }, { kid: serverKid }, ownKey),
    'wrong audience': async () => sign({ ...basePayload(), aud: 'urn:someone-else' }, { kid: serverKid }, ownKey),
    'missing sub': async () => {
      const { sub: _sub, ...payload } = basePayload();
      return sign(payload, { kid: serverKid }, ownKey);
    },
    'wrong typ (id token typ JWT)': async () => sign(basePayload(), { kid: serverKid, typ: 'JWT' }, ownKey),
    'garbage segments': async () => 'eyJhbGciOiJSUzI1NiJ9.bm90LWpzb24.c2ln',
  };

  it.each(Object.keys(attacks))('%s', async (name) => {
    const token = await attacks[name]!();
    for (const endpoint of ENDPOINTS) expectInvalidToken(await call(endpoint, `Bearer ${token}`));
  });

  it('none of the attacks changed anything for the victim subject', async () => {
    const result = await client.api('POST', '/user', { token: user.token });
    expect(result.status).toBe(202);
  });
});

describe('authentication: expiry (end to end)', () => {
  it('a token is accepted until it expires, then answers 401 invalid_token', { timeout: 20_000 }, async () => {
    const token = await client.token(user.sub, { expiresIn: 1 });
    const issuedAt = Date.now();
    const endpoint = ENDPOINTS[1]!;
    expect((await call(endpoint, `Bearer ${token}`)).status).toBe(200);
    // `exp` is one second away; servers may allow a few seconds of clock skew, so poll.
    let result: HttpResult;
    do {
      await new Promise((resolve) => setTimeout(resolve, 500));
      result = await call(endpoint, `Bearer ${token}`);
    } while (result.status === 200 && Date.now() - issuedAt < 15_000);
    expectInvalidToken(result);
    // Never rejected before it expired.
    expect(Date.now() - issuedAt).toBeGreaterThanOrEqual(1000);
    for (const other of [ENDPOINTS[0]!, ENDPOINTS[2]!]) expectInvalidToken(await call(other, `Bearer ${token}`));
  });
});
