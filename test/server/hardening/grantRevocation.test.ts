// Finding 7: revoked grants kept working until their JWTs expired. On the realtime database, an
// ID token of the service's own provider names its grant, and is refused once that grant is
// revoked (the refresh token at the revocation endpoint, or signing out), on both stores. Access tokens stay short-lived JWTs (docs/decisions/0135-access-tokens-short-lived-rather-than.md): revoking one is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { CREDENTIAL_RECHECK_MS } from '../../../server/rtdb/stream.ts';
import { openEventStream } from '../../support/eventStream.ts';
import { serviceStores } from '../../support/postgres.ts';
import { exchangeCode, formAction, refresh, signIn, type Browser } from '../identity/harness.ts';

const STORES = await serviceStores();

describe.each(STORES)('revoking a grant on $name', (store) => {
  let service: RunningService;
  let dataDir: string;
  beforeAll(async () => {
    if (!store.available) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-revoke-'));
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', ...(await store.serviceOptions()) });
  });
  afterAll(async () => {
    await service?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach((ctx) => {
    if (!store.available) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  const revoke = (token: string, hint: string) =>
    fetch(`${service.identity!.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: service.identity!.clientId, token, token_type_hint: hint }).toString(),
    });
  const readOwn = (idToken: string) => fetch(`${service.url}/rtdb/users/alice.json?auth=${idToken}`);

  it('refuses the ID tokens of a grant whose refresh token was revoked, and accepts a new sign-in', async () => {
    const idp = service.identity!;
    const { code, verifier } = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const { body } = await exchangeCode(idp, code, verifier);
    expect(body.id_token).toEqual(expect.any(String));
    expect((await readOwn(body.id_token!)).status).toBe(200);
    // The same person signed in on another device: a grant of its own.
    const other = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const otherDevice = (await exchangeCode(idp, other.code, other.verifier)).body;

    expect((await revoke(body.refresh_token!, 'refresh_token')).status).toBe(200);
    expect((await refresh(idp, body.refresh_token!)).status).toBe(400);
    const refused = await readOwn(body.id_token!);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toMatch(/revoked/);

    // Only the revoked sign-in ends: the other device's ID token still works.
    expect((await readOwn(otherDevice.id_token!)).status).toBe(200);
    // Signing in again works at once.
    const again = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const fresh = await exchangeCode(idp, again.code, again.verifier);
    expect((await readOwn(fresh.body.id_token!)).status).toBe(200);
  });

  /** The provider's own sign-out page, answered "Sign out" (`logout=yes`) or "Stay signed in". */
  async function signOutAtProvider(browser: Browser, choice: 'sign out' | 'stay signed in'): Promise<string> {
    const start = new URL(`${service.identity!.issuer}/session/end`);
    const prompt = await browser.request(start);
    const html = await prompt.text();
    expect(html).toContain('Signing out here also signs Breach Monitor out wherever it signed in through this browser');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const action = formAction(html, start);
    const confirmed = await browser.submitForm(action, choice === 'sign out' ? { xsrf, logout: 'yes' } : { xsrf });
    expect(confirmed.status).toBe(303);
    return (await browser.request(new URL(confirmed.headers.get('location')!, action))).text();
  }
  const writeOwn = (idToken: string, theme: string) =>
    fetch(`${service.url}/rtdb/users/alice/preferences.json?auth=${idToken}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ theme }) });

  it("signing out at the provider ends the sign-ins made through that browser: refresh, ID token and open stream; another device's stays", async () => {
    const idp = service.identity!;
    const desktop = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const { body } = await exchangeCode(idp, desktop.code, desktop.verifier);
    const other = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const otherDevice = (await exchangeCode(idp, other.code, other.verifier)).body;
    const stream = await openEventStream(`${service.url}/rtdb/users/alice.json?auth=${body.id_token!}`);
    try {
      await stream.next('the first put');
      expect((await writeOwn(otherDevice.id_token!, 'dark')).status).toBe(200);
      expect(await stream.next('the change while signed in')).toMatchObject({ event: 'put', data: { path: '/preferences' } });

      expect(await signOutAtProvider(desktop.browser, 'sign out')).toContain('so is Breach Monitor');

      const refused = await refresh(idp, body.refresh_token!);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
      const read = await readOwn(body.id_token!);
      expect(read.status).toBe(401);
      expect(((await read.json()) as { error: string }).error).toMatch(/revoked/);
      // Past the stream's last check of its credential (at most a second old when it sends a change).
      await new Promise((resolve) => setTimeout(resolve, CREDENTIAL_RECHECK_MS + 100));
      expect((await writeOwn(otherDevice.id_token!, 'light')).status).toBe(200);
      expect(await stream.next('auth_revoked instead of the change')).toEqual({ event: 'auth_revoked', data: 'credential is no longer valid' });
    } finally {
      stream.close();
    }
    // The sign-in made through another browser is another grant: it keeps working.
    expect((await refresh(idp, otherDevice.refresh_token!)).status).toBe(200);
    expect((await readOwn(otherDevice.id_token!)).status).toBe(200);
  });

  it('"Stay signed in" on the provider\'s sign-out page ends nothing', async () => {
    const idp = service.identity!;
    const desktop = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const { body } = await exchangeCode(idp, desktop.code, desktop.verifier);
    await signOutAtProvider(desktop.browser, 'stay signed in');
    expect((await refresh(idp, body.refresh_token!)).status).toBe(200);
    expect((await readOwn(body.id_token!)).status).toBe(200);
  });

  it('answers a request to revoke an access token (a short-lived JWT) without revoking anything else', async () => {
    const idp = service.identity!;
    const { code, verifier } = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const { body } = await exchangeCode(idp, code, verifier);
    const answer = await revoke(body.access_token!, 'access_token');
    // oidc-provider cannot revoke a JWT access token (RFC 7009 §2.2.1 unsupported_token_type).
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe('unsupported_token_type');
    expect(body.expires_in).toBeLessThanOrEqual(15 * 60);
    expect((await readOwn(body.id_token!)).status).toBe(200);
  });
});
