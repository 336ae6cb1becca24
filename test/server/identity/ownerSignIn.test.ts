// The owner of a loopback service signs in without a demo user, a password or a browser
// (docs/auth.md "The owner of a loopback service"): the service started with --owner keeps a
// secret in its data folder (0600); the app's core trades it at the token endpoint, through the
// owner grant, for the same tokens the browser flow gives. Refused with a wrong secret and off
// loopback; and a service on real data has no demo users at all.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { ConfigError, parseServiceConfig } from '../../../server/config.ts';
import { NO_PASSWORD_SIGN_IN } from '../../../server/identity/interactions.ts';
import { OWNER_GRANT_TYPE, OWNER_SECRET_FILE, loadOrCreateOwnerSecret } from '../../../server/identity/index.ts';
import { HibpStandIn } from '../../support/hibpStandIn.ts';
import { emailsApi } from '../../support/personEmails.ts';
import { authorizationUrl, Browser, pkcePair, startIdentityServer, tokenRequest, type IdentityServer } from './harness.ts';

const dirs: string[] = [];
const running: { service?: RunningService; idp?: IdentityServer; hibp?: HibpStandIn } = {};
afterEach(async () => {
  await running.service?.close();
  await running.idp?.close();
  await running.hibp?.close();
  running.service = undefined;
  running.idp = undefined;
  running.hibp = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'owner-sign-in-'));
  dirs.push(dir);
  return dir;
}

async function start(config: { owner?: boolean; dev?: boolean; dataDir?: string; hibp?: { key: string; url: string } } = {}): Promise<RunningService> {
  const service = await startService({
    port: 0,
    logLevel: 'silent',
    dataDir: config.dataDir ?? tempDir(),
    owner: config.owner ?? true,
    dev: config.dev ?? false,
    ...(config.hibp ? { hibpApiKey: config.hibp.key, hibpUrl: config.hibp.url } : {}),
  });
  running.service = service;
  return service;
}

function ownerGrant(service: RunningService, fields: Record<string, string>) {
  return tokenRequest(service.identity!, { grant_type: OWNER_GRANT_TYPE, scope: 'openid offline_access', ...fields });
}

/**
 * What the provider's sign-in page shows for a fresh authorization request, and what it answers
 * when `login` (an email and a password) is sent to it anyway, as the form would post it.
 */
async function signInPage(service: RunningService, login?: { email: string; password: string }): Promise<{ status: number; html: string }> {
  const browser = new Browser();
  const start = authorizationUrl(service.identity!, { codeChallenge: pkcePair().challenge, codeChallengeMethod: 'S256' });
  const shown = await browser.follow(await browser.request(start), start, 'http://127.0.0.1:53682/callback');
  if (!('page' in shown)) throw new Error('expected a page');
  if (!login) return { status: shown.page.status, html: await shown.page.text() };
  await shown.page.arrayBuffer();
  // The form's action (`<interaction>/login`), posted even where no form is shown.
  const action = new URL(`${shown.url.pathname.replace(/\/$/, '')}/login`, shown.url);
  const answered = await browser.follow(await browser.submitForm(action, login), action, 'http://127.0.0.1:53682/callback');
  if (!('page' in answered)) throw new Error(`the sign-in went through to ${answered.callback.href}`);
  return { status: answered.page.status, html: await answered.page.text() };
}

/** The addresses a subject monitors as the service sees them at its first `POST /user`. */
async function monitoredBy(service: RunningService, sub: string, email: string): Promise<string[]> {
  const token = await service.identity!.mintAccessToken({ sub, email });
  const created = await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (created.status !== 201) throw new Error(`POST /user answered ${created.status}: ${await created.text()}`);
  return ((await created.json()) as { emails: string[] }).emails;
}

describe("the owner's sign-in on a loopback service (--owner)", () => {
  it('trades the secret in the data folder for access, refresh and ID tokens the API accepts, with no address of its own', async () => {
    const service = await start();
    const file = join(service.dataDir, OWNER_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secret = readFileSync(file, 'utf8').trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const granted = await ownerGrant(service, { owner_secret: secret });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ token_type: 'Bearer', expires_in: expect.any(Number) });
    const { access_token: access, refresh_token: refresh, id_token: id } = granted.body;
    expect([typeof access, typeof refresh, typeof id]).toEqual(['string', 'string', 'string']);
    const claims = JSON.parse(Buffer.from(access!.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'owner', aud: service.audience, iss: service.issuer, client_id: 'breach-monitor-desktop' });
    expect(claims.email).toBeUndefined();
    expect(JSON.parse(Buffer.from(id!.split('.')[1]!, 'base64url').toString())).toMatchObject({ sub: 'owner', aud: 'breach-monitor-desktop', gid: expect.any(String) });

    // The API takes it: the owner's monitoring user has no address until they add one, verified at once.
    const created = await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${access}` } });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ emails: [] });
    expect((await emailsApi.list(service, access!)).body).toEqual([]);
    expect((await emailsApi.add(service, access!, 'me@example.com')).body).toMatchObject({ verified: true, verifiedBy: 'operator' });

    // The refresh token works like the browser flow's.
    const refreshed = await tokenRequest(service.identity!, { grant_type: 'refresh_token', refresh_token: refresh! });
    expect(refreshed.status).toBe(200);
    expect((await emailsApi.list(service, refreshed.body.access_token!)).body.map((item) => item.email)).toEqual(['me@example.com']);
  });

  it('refuses a wrong or missing secret, and keeps the same secret across restarts', async () => {
    const dataDir = tempDir();
    const service = await start({ dataDir });
    const wrong = await ownerGrant(service, { owner_secret: 'x'.repeat(43) });
    expect(wrong).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: 'grant request is invalid' } });
    const missing = await ownerGrant(service, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const secret = readFileSync(join(dataDir, OWNER_SECRET_FILE), 'utf8').trim();
    await service.close();
    running.service = undefined;
    const again = await start({ dataDir });
    expect((await ownerGrant(again, { owner_secret: secret })).status).toBe(200);
  });

  it('is not offered without --owner', async () => {
    const service = await start({ owner: false });
    const refused = await ownerGrant(service, { owner_secret: 'anything-at-all-anything-at-all-anything' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('unsupported_grant_type');
  });

  it('refuses a request that does not come over loopback, even with the right secret', async (context) => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
    if (!address) return context.skip();
    const secret = loadOrCreateOwnerSecret(tempDir());
    const idp = await startIdentityServer({ ownerSecret: secret, users: [], listenHost: '0.0.0.0' });
    running.idp = idp;
    const port = new URL(idp.origin).port;
    const body = new URLSearchParams({ client_id: 'breach-monitor-desktop', grant_type: OWNER_GRANT_TYPE, owner_secret: secret, scope: 'openid' });
    const fromLoopback = await fetch(`${idp.origin}/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(fromLoopback.status).toBe(200);
    // The same request to the machine's own network address arrives from that address, not loopback.
    const fromNetwork = await fetch(`http://${address}:${port}/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', host: `127.0.0.1:${port}` }, body });
    expect(fromNetwork.status).toBe(400);
    expect(await fromNetwork.json()).toMatchObject({ error: 'invalid_grant' });
    expect(idp.logLines.some((line) => line.includes('"reason":"not_loopback"'))).toBe(true);
  });

  it('runs only on loopback and only with the built-in provider', () => {
    expect(() => parseServiceConfig({ dataDir: '/tmp/x', owner: true, host: '0.0.0.0', issuer: 'https://id.example' })).toThrow(ConfigError);
    expect(() => parseServiceConfig({ dataDir: '/tmp/x', owner: true, host: '0.0.0.0', issuer: 'https://id.example' })).toThrow(
      /--owner makes whoever holds the data folder's owner secret the operator, so it runs only on a loopback address/,
    );
    expect(() => parseServiceConfig({ dataDir: '/tmp/x', owner: true, issuer: 'https://id.example' })).toThrow(/give one of them, not both/);
  });

  it('refuses a secret file other users can read', () => {
    const dir = tempDir();
    writeFileSync(join(dir, OWNER_SECRET_FILE), 'a'.repeat(43));
    chmodSync(join(dir, OWNER_SECRET_FILE), 0o644);
    expect(() => loadOrCreateOwnerSecret(dir)).toThrow(/can be read by other users of this computer/);
  });
});

describe('no demo users in real mode', () => {
  it('has none without --demo: the sign-in page says how the owner signs in instead', async () => {
    const service = await start({ owner: true });
    expect(service.demoUsers).toEqual([]);
    const page = await signInPage(service);
    expect(page.status).toBe(403);
    expect(page.html).toContain('No sign-in here');
    expect(page.html).toContain(NO_PASSWORD_SIGN_IN.slice(0, 60));
    expect(page.html).not.toContain('alice@example.com');
  });

  it('has them with demo data (--dev implies --demo without a key), alice with her demo extras', async () => {
    const service = await start({ owner: false, dev: true });
    expect(service.demoUsers.map((user) => user.email)).toEqual(['alice@example.com', 'bob@example.com', 'carol@example.com']);
    const page = await signInPage(service);
    expect(page.status).toBe(200);
    expect(page.html).toContain('alice@example.com');
    expect(await monitoredBy(service, 'alice', 'alice@example.com')).toEqual(['alice@example.com', 'alice.work@example.com', 'alice@example.net']);
  });

  it('has none with a key, even with the development surface (--dev): alice is refused, and a subject named alice gets no demo extras', async () => {
    const key = '0123456789abcdef0123456789abcdef';
    running.hibp = await HibpStandIn.start({ keys: { [key]: { rpm: 10 } } });
    const service = await start({ owner: false, dev: true, hibp: { key, url: running.hibp.url } });
    expect(service.breachData.kind).toBe('hibp');
    expect(service.demoUsers).toEqual([]);
    const page = await signInPage(service);
    expect(page.status).toBe(403);
    expect(page.html).toContain(NO_PASSWORD_SIGN_IN.slice(0, 60));
    expect(page.html).not.toContain('alice@example.com');
    // Posting alice's email and a password anyway signs nobody in: the same words, no form.
    const refused = await signInPage(service, { email: 'alice@example.com', password: 'any password' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain(NO_PASSWORD_SIGN_IN.slice(0, 60));
    expect(refused.html).not.toContain('<form');
    // A real person whose account happens to be called alice monitors their own address, not the demo's.
    expect(await monitoredBy(service, 'alice', 'a.real.person@example.org')).toEqual(['a.real.person@example.org']);
    expect(await monitoredBy(service, 'bob', 'bob@example.org')).toEqual(['bob@example.org']);
  });
});
