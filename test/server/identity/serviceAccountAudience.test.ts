import { createSign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_SCOPES, fetchServiceAccountToken, ServiceAccountKey } from '../../../electron/core/feed/serviceAccountToken.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { GOOGLE_TOKEN_ENDPOINT } from '../../../server/identity/serviceAccounts.ts';

/**
 * The JWT-bearer grant as Google's Python library (`google-auth`, googleapis/google-auth-library-python
 * at 2ea24b0, 2026-03-06) sends it, byte for byte, for a key file this service issued:
 *
 * - `google/oauth2/service_account.py` L393–423 `_make_authorization_grant_assertion`: the claims
 *   `{"iat", "exp" (iat + 3600, L86 `_DEFAULT_TOKEN_LIFETIME_SECS`), "iss": client_email,
 *   "aud": _GOOGLE_OAUTH2_TOKEN_ENDPOINT (L87, "https://oauth2.googleapis.com/token"),
 *   "scope": " ".join(scopes)}` in that order, plus `"sub"` only for domain-wide delegation (L419–420);
 *   L456–458: the assertion is posted to the key file's `token_uri`, not to `aud`.
 * - `google/auth/jwt.py` L75–115 `encode`: header `{"typ": "JWT", "alg": "RS256", "kid": private_key_id}`
 *   in that order, header and payload as `json.dumps` writes them (", " and ": " separators),
 *   unpadded base64url segments, an RS256 (PKCS #1 v1.5, SHA-256) signature.
 * - `google/oauth2/_client.py` L278–301 `jwt_grant`: body `{"assertion": …, "grant_type":
 *   "urn:ietf:params:oauth:grant-type:jwt-bearer"}` (L41); L177–179: `urllib.parse.urlencode`
 *   (assertion first) with `Content-Type: application/x-www-form-urlencoded`.
 */
function pythonJsonDumps(value: Record<string, string | number>): string {
  return (
    '{' +
    Object.entries(value)
      .map(([key, v]) => `${JSON.stringify(key)}: ${JSON.stringify(v)}`)
      .join(', ') +
    '}'
  );
}
const b64url = (text: string | Buffer) => Buffer.from(text).toString('base64url');

function googleAuthAssertion(key: ServiceAccountKey, scopes: readonly string[], nowSec: number, options: { aud?: string; sub?: string } = {}): string {
  const header = pythonJsonDumps({ typ: 'JWT', alg: 'RS256', kid: key.private_key_id });
  const payload: Record<string, string | number> = { iat: nowSec, exp: nowSec + 3600, iss: key.client_email, aud: options.aud ?? GOOGLE_TOKEN_ENDPOINT, scope: scopes.join(' ') };
  if (options.sub !== undefined) payload.sub = options.sub;
  const signingInput = `${b64url(header)}.${b64url(pythonJsonDumps(payload))}`;
  const signature = createSign('RSA-SHA256').update(signingInput).sign(key.private_key);
  return `${signingInput}.${b64url(signature)}`;
}

/** `urllib.parse.urlencode({"assertion": …, "grant_type": …})`, posted to `token_uri`. */
function postGrant(tokenUri: string, assertion: string): Promise<Response> {
  const body = new URLSearchParams([
    ['assertion', assertion],
    ['grant_type', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
  ]).toString();
  return fetch(tokenUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-goog-api-client': 'gl-python/3.12.3 auth/2.48.0 auth-request-type/at cred-type/sa' },
    body,
  });
}

let service: RunningService;
let dataDir: string;

async function serviceAccountKey(scopes: readonly string[]): Promise<ServiceAccountKey> {
  const response = await fetch(`${service.url}/__dev/service-accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes }) });
  expect(response.status).toBe(201);
  return ServiceAccountKey.parse(await response.json());
}
const nowSec = () => Math.floor(Date.now() / 1000);

describe("service-account tokens for the clients people use (the assertion's audience)", () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'sa-audience-'));
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent' });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("issues a token for exactly what google-auth (Python) sends: aud = Google's token endpoint, posted to the key file's token_uri", async () => {
    const key = await serviceAccountKey(DATABASE_SCOPES);
    expect(key.token_uri).toBe(`${service.issuer}/service-accounts/token`);
    const response = await postGrant(key.token_uri, googleAuthAssertion(key, DATABASE_SCOPES, nowSec()));
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    // The token opens the realtime database, as a token got with aud = token_uri does.
    const read = await fetch(`${service.url}/rtdb/.json?shallow=true`, { headers: { authorization: `Bearer ${body.access_token as string}` } });
    expect(read.status).toBe(200);
  });

  it('still issues one for aud = the token endpoint it was posted to (RFC 7523 §3, what Go and this app send)', async () => {
    const key = await serviceAccountKey(DATABASE_SCOPES);
    const response = await postGrant(key.token_uri, googleAuthAssertion(key, DATABASE_SCOPES, nowSec(), { aud: key.token_uri }));
    expect(response.status).toBe(200);
    // The app's own client (aud = token_uri) is unchanged.
    await expect(fetchServiceAccountToken(key)).resolves.toMatchObject({ accessToken: expect.any(String) });
  });

  it('refuses every other audience, naming the claim', async () => {
    const key = await serviceAccountKey(DATABASE_SCOPES);
    for (const aud of [
      'https://www.googleapis.com/oauth2/v4/token',
      'https://oauth2.googleapis.com/token/',
      'https://oauth2.googleapis.com/revoke',
      `${key.token_uri}?x=1`,
      `${service.issuer}/token`,
      'https://firebaseio.com/',
      '',
    ]) {
      const response = await postGrant(key.token_uri, googleAuthAssertion(key, DATABASE_SCOPES, nowSec(), { aud }));
      expect(response.status, aud).toBe(400);
      expect(await response.json(), aud).toEqual({ error: 'invalid_grant', error_description: "the assertion's aud claim is wrong" });
    }
  });

  it('refuses domain-wide delegation (a sub naming someone else), which this provider does not offer', async () => {
    const key = await serviceAccountKey(DATABASE_SCOPES);
    const delegated = await postGrant(key.token_uri, googleAuthAssertion(key, DATABASE_SCOPES, nowSec(), { sub: 'alice@example.com' }));
    expect(delegated.status).toBe(400);
    expect(await delegated.json()).toMatchObject({ error: 'unauthorized_client' });
    // sub = the account itself is the same as no sub.
    const self = await postGrant(key.token_uri, googleAuthAssertion(key, DATABASE_SCOPES, nowSec(), { sub: key.client_email }));
    expect(self.status).toBe(200);
  });

  it("a Google-audience assertion still needs this account's key, its scopes and a lifetime of at most an hour", async () => {
    const key = await serviceAccountKey([DATABASE_SCOPES[1]]);
    const other = await serviceAccountKey(DATABASE_SCOPES);
    const forged = await postGrant(key.token_uri, googleAuthAssertion({ ...key, private_key: other.private_key }, [DATABASE_SCOPES[1]], nowSec()));
    expect(await forged.json()).toEqual({ error: 'invalid_grant', error_description: 'the assertion signature is invalid' });
    const scoped = await postGrant(key.token_uri, googleAuthAssertion(key, DATABASE_SCOPES, nowSec()));
    expect(await scoped.json()).toMatchObject({ error: 'invalid_scope' });
    const stale = await postGrant(key.token_uri, googleAuthAssertion(key, [DATABASE_SCOPES[1]], nowSec() - 7200));
    expect(await stale.json()).toMatchObject({ error: 'invalid_grant', error_description: 'the assertion has expired' });
  });
});
