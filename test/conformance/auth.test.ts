// Authentication (seed "Authentication", CONTRACT 401 row): bearer JWTs, validated for
// signature, issuer, audience and expiry; everything else is 401 with an RFC 6750 challenge.
//
// The attack matrix signs forged tokens with keys of our own (the server must reject them all).
// Each claim check on its own is tested with tokens signed by the service's own key, minted by
// the development surface with one claim broken (`POST /__dev/token` with `claims`/`typ`).
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
      const pem = createPublicKey({ key: serverJwk as JsonWebKey, format: 'jwk' })
        .export({ type: 'spki', format: 'pem' })
        .toString();
      return sign(basePayload(), { alg: 'HS256', kid: serverKid }, new TextEncoder().encode(pem));
    },
    'HS256 signed with the server public JWK (JSON) as secret': async () => sign(basePayload(), { alg: 'HS256', kid: serverKid }, new TextEncoder().encode(JSON.stringify(serverJwk))),
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

// Each claim on its own, in a token signed with the service's own key (the development
// surface's `claims`/`typ` options): only that claim is wrong, so only its check can refuse it.
// A control with the same options proves the overrides themselves are harmless.
describe('authentication: each claim checked on its own (signed with the service key)', () => {
  const now = () => Math.floor(Date.now() / 1000);
  // Beyond any clock tolerance a server may allow (ours is 5 s).
  const SKEW = 120;
  const broken: Record<string, () => { claims?: Record<string, string | number | string[] | null>; typ?: string }> = {
    'rejects a token from another issuer (iss checked)': () => ({ claims: { iss: 'https://attacker.example' } }),
    'rejects a token without an issuer (iss required)': () => ({ claims: { iss: null } }),
    'rejects a token for another audience (aud checked)': () => ({ claims: { aud: 'urn:someone-else' } }),
    'rejects a token without an audience (aud required)': () => ({ claims: { aud: null } }),
    'rejects an expired token (exp checked)': () => ({ claims: { iat: now() - 2 * SKEW, exp: now() - SKEW } }),
    'rejects a token without an expiry (exp required)': () => ({ claims: { exp: null } }),
    'rejects a token not yet valid (nbf checked)': () => ({ claims: { nbf: now() + SKEW } }),
    'rejects a token without a subject (sub required)': () => ({ claims: { sub: null } }),
    'rejects a token with an empty subject (sub checked)': () => ({ claims: { sub: '' } }),
    'rejects an ID token typ "JWT" (typ checked)': () => ({ typ: 'JWT' }),
    'rejects an iat that is not a date (iat checked)': () => ({ claims: { iat: 'yesterday' } }),
    'rejects a token issued in the future (iat checked)': () => ({ claims: { iat: now() + SKEW, nbf: now() - 1 } }),
    'rejects a token living longer than a day (lifetime checked)': () => ({ claims: { iat: now() - 1, exp: now() + 25 * 3600 } }),
  };

  it('accepts a token with the same claims set to their right values (control)', async () => {
    const token = await client.token(user.sub, {
      claims: { iss: String(claims.iss), aud: claims.aud as string, iat: now(), nbf: now() - 1, exp: now() + 600 },
      typ: 'at+jwt',
    });
    for (const endpoint of ENDPOINTS) {
      const result = await call(endpoint, `Bearer ${token}`);
      expect(result.status, `${endpoint.method} ${endpoint.path}: ${result.text}`).toBeLessThan(300);
    }
  });

  it.each(Object.keys(broken))('%s', async (name) => {
    const token = await client.token(user.sub, broken[name]!());
    for (const endpoint of ENDPOINTS) expectInvalidToken(await call(endpoint, `Bearer ${token}`));
  });
});
