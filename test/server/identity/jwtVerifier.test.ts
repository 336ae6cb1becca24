import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, createLocalJWKSet, exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidTokenError } from '../../../server/auth/AccessTokenVerifier.ts';
import { createJwtAccessTokenVerifier, SigningKeysUnavailableError } from '../../../server/auth/jwtVerifier.ts';

const ISSUER = 'http://127.0.0.1:6060/oidc';
const AUDIENCE = 'urn:breach-monitor:api';
const KID = 'signing-key-1';

let privateKey: CryptoKey;
let publicJwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
});

function verifier() {
  return createJwtAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [publicJwk] } });
}

interface TokenSpec {
  header?: Record<string, unknown>;
  claims?: JWTPayload;
  omit?: string[];
  key?: CryptoKey | Uint8Array;
}

async function token(spec: TokenSpec = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'alice',
    email: 'alice@example.com',
    scope: 'openid email offline_access',
    client_id: 'breach-monitor-desktop',
    iat: now,
    exp: now + 600,
    ...spec.claims,
  };
  for (const name of spec.omit ?? []) delete claims[name];
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'at+jwt', ...spec.header } as { alg: string }).sign(spec.key ?? privateKey);
}

function unsigned(header: Record<string, unknown>, claims: JWTPayload): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode(header)}.${encode(claims)}.`;
}

async function expectRejected(tokenValue: string, description: RegExp | string) {
  const error = await verifier()
    .verify(tokenValue)
    .then(
      () => {
        throw new Error('token was accepted');
      },
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(InvalidTokenError);
  const { description: actual, message } = error as InvalidTokenError;
  expect(actual).toMatch(description);
  // The token must never travel into WWW-Authenticate or logs.
  if (tokenValue.length > 8) expect(message).not.toContain(tokenValue);
  for (const part of tokenValue.split('.').filter((segment) => segment.length > 8)) {
    expect(message).not.toContain(part);
  }
}

describe('a valid access token', () => {
  it('is accepted and its claims mapped', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifier().verify(await token({ claims: { exp: now + 600, email_verified: true } }))).resolves.toEqual({
      sub: 'alice',
      email: 'alice@example.com',
      emailVerified: true,
      expiresAt: now + 600,
      scope: 'openid email offline_access',
      clientId: 'breach-monitor-desktop',
    });
  });

  it('accepts typ in any case and with the media type prefix', async () => {
    for (const typ of ['AT+JWT', 'application/at+jwt', 'Application/AT+JWT']) {
      await expect(verifier().verify(await token({ header: { typ } }))).resolves.toMatchObject({ sub: 'alice' });
    }
  });

  it('accepts aud as an array containing the API, and leaves out non-string optional claims', async () => {
    const claims = await verifier().verify(await token({ claims: { aud: ['other', AUDIENCE], email: 42, email_verified: 'yes', scope: ['x'] } }));
    expect(claims).toEqual({ sub: 'alice', clientId: 'breach-monitor-desktop', expiresAt: expect.any(Number) });
  });

  it('tolerates small clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifier().verify(await token({ claims: { exp: now - 2, nbf: now + 2 } }))).resolves.toMatchObject({ sub: 'alice' });
  });

  it('verifies against a jose key set function too', async () => {
    const custom = createJwtAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: createLocalJWKSet({ keys: [publicJwk] }) });
    await expect(custom.verify(await token())).resolves.toMatchObject({ sub: 'alice' });
  });
});

describe('the attack matrix', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('rejects alg none', async () => {
    const claims = { iss: ISSUER, aud: AUDIENCE, sub: 'alice', exp: now() + 600 };
    await expectRejected(unsigned({ alg: 'none', typ: 'at+jwt' }, claims), /algorithm not allowed|malformed/);
    await expectRejected(unsigned({ alg: 'none', typ: 'at+jwt', kid: KID }, claims), /algorithm not allowed|malformed/);
  });

  it('rejects HS256 signed with the public key bytes (key confusion)', async () => {
    const spki = await exportSPKI((await importJWK(publicJwk, 'RS256')) as CryptoKey);
    for (const secret of [new TextEncoder().encode(spki), new TextEncoder().encode(JSON.stringify(publicJwk))]) {
      await expectRejected(await token({ header: { alg: 'HS256' }, key: secret }), 'signing algorithm not allowed');
    }
  });

  it('rejects a token signed by an unknown key', async () => {
    const stranger = await generateKeyPair('RS256');
    await expectRejected(await token({ key: stranger.privateKey }), 'invalid signature');
    await expectRejected(await token({ key: stranger.privateKey, header: { kid: 'not-published' } }), 'unknown signing key');
  });

  it('rejects a tampered payload', async () => {
    const [header, , signature] = (await token()).split('.');
    const forged = base64url.encode(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: 'mallory', exp: now() + 600 }));
    await expectRejected(`${header}.${forged}.${signature}`, 'invalid signature');
  });

  it('rejects an expired token', async () => {
    await expectRejected(await token({ claims: { exp: now() - 60 } }), 'token expired');
  });

  it('rejects a token that is not yet valid', async () => {
    await expectRejected(await token({ claims: { nbf: now() + 600 } }), 'token not yet valid');
  });

  it('rejects a token without exp', async () => {
    await expectRejected(await token({ omit: ['exp'] }), 'token has no expiry');
  });

  it('rejects the wrong issuer, or none', async () => {
    await expectRejected(await token({ claims: { iss: 'https://evil.example' } }), 'unexpected issuer');
    await expectRejected(await token({ omit: ['iss'] }), 'token has no issuer');
  });

  it('rejects the wrong audience, or none', async () => {
    await expectRejected(await token({ claims: { aud: 'breach-monitor-desktop' } }), 'unexpected audience');
    await expectRejected(await token({ omit: ['aud'] }), 'token has no audience');
  });

  it('rejects a missing, empty, or non-string subject', async () => {
    await expectRejected(await token({ omit: ['sub'] }), 'token has no subject');
    await expectRejected(await token({ claims: { sub: '' } }), 'token has no subject');
    await expectRejected(await token({ claims: { sub: 42 as unknown as string } }), 'token has no subject');
  });

  it('rejects the wrong typ, or none (an ID token is not an access token)', async () => {
    await expectRejected(await token({ header: { typ: 'JWT' } }), 'token type must be at+jwt');
    await expectRejected(await token({ header: { typ: undefined } }), 'token type must be at+jwt');
  });

  it('rejects garbage', async () => {
    for (const garbage of ['garbage', 'a.b.c', 'a.b', '....', 'eyJhbGciOiJSUzI1NiJ9.e30.', ' ', 'x'.repeat(20_000)]) {
      await expectRejected(garbage, /malformed|too large|invalid|not allowed/);
    }
    await expectRejected('', 'token missing');
  });
});

describe('issue time and lifetime', () => {
  const now = Math.floor(Date.now() / 1000);

  it('rejects a token issued in the future beyond the clock tolerance, and accepts one within it', async () => {
    await expectRejected(await token({ claims: { iat: now + 60, exp: now + 600 } }), 'token issued in the future');
    await expect(verifier().verify(await token({ claims: { iat: now + 3, exp: now + 600 } }))).resolves.toMatchObject({ sub: 'alice' });
  });

  it('rejects a lifetime beyond 24 hours by default, e.g. 100 years, with or without iat', async () => {
    await expectRejected(await token({ claims: { iat: now, exp: now + 100 * 365 * 86400 } }), /lifetime exceeds 86400 seconds/);
    await expectRejected(await token({ claims: { iat: now, exp: now + 86400 + 1 } }), /lifetime exceeds/);
    await expectRejected(await token({ claims: { exp: now + 2 * 86400 }, omit: ['iat'] }), /lifetime exceeds/);
    await expect(verifier().verify(await token({ claims: { iat: now, exp: now + 86400 } }))).resolves.toMatchObject({ sub: 'alice' });
  });

  it('takes the maximum lifetime from the options', async () => {
    const short = createJwtAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [publicJwk] }, maxLifetimeSec: 600 });
    await expect(short.verify(await token({ claims: { iat: now, exp: now + 601 } }))).rejects.toThrow(/lifetime exceeds 600 seconds/);
    await expect(short.verify(await token({ claims: { iat: now, exp: now + 600 } }))).resolves.toMatchObject({ sub: 'alice' });
  });

  it('rejects a non-numeric iat', async () => {
    await expectRejected(await token({ claims: { iat: 'yesterday' as unknown as number } }), /iat/);
  });
});

describe('configuration', () => {
  it('refuses symmetric and none algorithms in the allow-list', () => {
    for (const algorithms of [['HS256'], ['RS256', 'none'], []]) {
      expect(() => createJwtAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [] }, algorithms })).toThrow(TypeError);
    }
  });

  it('restricts algorithms to the allow-list', async () => {
    const esOnly = createJwtAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [publicJwk] }, algorithms: ['ES256'] });
    await expect(esOnly.verify(await token())).rejects.toMatchObject({ description: 'signing algorithm not allowed' });
  });

  it('reports unreachable signing keys as unavailable, not as a bad token', async () => {
    const server = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const remote = createJwtAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwksUrl: `http://127.0.0.1:${port}/jwks` });
      await expect(remote.verify(await token())).rejects.toBeInstanceOf(SigningKeysUnavailableError);
    } finally {
      server.close();
    }
  });
});
