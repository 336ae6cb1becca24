// The whole sign-in against the reference service's real OpenID provider, with Chromium as
// the system browser: code exchange, POST /user, restore, refresh ahead of expiry, one
// refresh after a 401, single-flight refresh, refresh refused (revoked, account deleted),
// sign-out with revocation.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountId, keychainAccount } from '../../../electron/core/accounts/accountId.ts';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import { AuthService, type AuthStatus, type SignedInAccount } from '../../../electron/core/auth/AuthService.ts';
import { parseClientConfig, type ClientConfig } from '../../../electron/core/auth/config.ts';
import { chooseSecretStore, NOT_REMEMBERED_WARNING } from '../../../electron/core/auth/secrets/chooseSecretStore.ts';
import { EncryptedFileSecretStore } from '../../../electron/core/auth/secrets/EncryptedFileSecretStore.ts';
import { loadKeytar } from '../../../electron/core/auth/secrets/KeytarSecretStore.ts';
import { RUN_KEYCHAIN_TESTS } from '../../support/keychain.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import type { SecretStore } from '../../../electron/core/auth/secrets/SecretStore.ts';
import { parseStoredTokens } from '../../../electron/core/auth/tokens.ts';
import { SIGNED_IN_MESSAGE } from '../../../electron/core/auth/callbackPage.ts';
import { driveBrowser, freePort, launchChromium, refreshAtProvider, revokeAtProvider, signInAs, startReference, tempDir, testCipher, type PersonScript, type ReferenceService } from './harness.ts';

let reference: ReferenceService;
let browser: Browser;
let config: ClientConfig;
const dirs: string[] = [];
let expiredToken: Promise<string>;

beforeAll(async () => {
  [reference, browser] = await Promise.all([startReference(), launchChromium()]);
  config = parseClientConfig({ issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl });
  expiredToken = fetch(`${reference.service.url}/__dev/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Expired two minutes ago (beyond the API's 5 s clock tolerance), signed with the real key.
    body: JSON.stringify({ sub: 'bob', email: 'bob@example.com', claims: { iat: Math.floor(Date.now() / 1000) - 180, exp: Math.floor(Date.now() / 1000) - 120 } }),
  }).then(async (response) => ((await response.json()) as { access_token: string }).access_token);
});

afterAll(async () => {
  await browser?.close();
  await reference?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface App {
  auth: AuthService;
  dataDir: string;
  store: SecretStore;
  clock: { offsetMs: number };
  statuses: AuthStatus[];
  deleted: SignedInAccount[];
}

/** One app install: its data folder, an encrypted-file secret store in it, and a clock the test can move. */
function makeApp(options: { dataDir?: string; store?: SecretStore; config?: ClientConfig } = {}): App {
  const dataDir = options.dataDir ?? tempDir('bm-app');
  if (!options.dataDir) dirs.push(dataDir);
  const store = options.store ?? EncryptedFileSecretStore.open({ dir: path.join(dataDir, 'secrets'), cipher: testCipher() });
  const clock = { offsetMs: 0 };
  const deleted: SignedInAccount[] = [];
  const auth = new AuthService({
    config: options.config ?? config,
    dataDir,
    secrets: store,
    now: () => Date.now() + clock.offsetMs,
    deleteAccountData: (account) => void deleted.push(account),
  });
  const statuses: AuthStatus[] = [];
  auth.onDidChangeStatus((status) => statuses.push(status));
  return { auth, dataDir, store, clock, statuses, deleted };
}

async function signIn(app: App, email: string): Promise<{ account: SignedInAccount; page: string; authorizationUrl: string }> {
  const driven = driveBrowser(browser, signInAs(email));
  const account = await app.auth.signIn({ opener: driven.opener });
  return { account, page: await driven.finished, authorizationUrl: await driven.opened };
}

async function storedTokens(app: App, account: SignedInAccount) {
  const text = await app.store.get({ issuer: account.issuer, subject: account.subject });
  return text === undefined ? undefined : parseStoredTokens(text);
}

describe('sign-in through the system browser', () => {
  it('exchanges the code with PKCE, calls POST /user and keeps the tokens only in the secret store', async () => {
    const app = makeApp();
    const before = reference.tokenCalls();
    const { account, page, authorizationUrl } = await signIn(app, 'alice@example.com');

    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${reference.service.issuer}/auth`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('resource')).toBe('urn:breach-monitor:api');
    expect(url.searchParams.get('scope')).toBe('openid email offline_access');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    expect(page).toContain(SIGNED_IN_MESSAGE);
    expect(account).toEqual({ accountId: accountId(reference.service.issuer, 'alice'), issuer: reference.service.issuer, subject: 'alice', email: 'alice@example.com' });
    expect(app.auth.status()).toMatchObject({ state: 'signed-in', account, warning: undefined, error: undefined });
    // While it waits, the status carries the link and what became of the browser; then it is gone.
    expect(app.statuses.map((status) => [status.state, status.signIn?.browser])).toEqual([
      ['signing-in', undefined],
      ['signing-in', 'opening'],
      ['signing-in', 'opened'],
      ['signed-in', undefined],
    ]);
    expect(app.statuses[1]!.signIn?.url).toBe(url.href);
    expect(reference.tokenCalls() - before).toBe(1);

    // GET /user/breaches answers 403 until POST /user has been called: a 200 proves it was.
    const breaches = await app.auth.api!.listBreaches({});
    expect(breaches.status).toBe(200);

    const tokens = await storedTokens(app, account);
    expect(tokens?.refreshToken).toBeTruthy();
    expect(tokens?.accessToken).toBe(await app.auth.tokens!.getAccessToken());
    const record = readFileSync(path.join(app.dataDir, 'account.json'), 'utf8');
    expect(JSON.parse(record)).toEqual({ v: 1, issuer: reference.service.issuer, subject: 'alice', email: 'alice@example.com', registered: true });
  });

  it('restores the account at start-up from the secret store, without a browser or a token request', async () => {
    const first = makeApp();
    const { account } = await signIn(first, 'carol@example.com');
    first.auth.tokens!.close();

    const before = reference.tokenCalls();
    const second = makeApp({ dataDir: first.dataDir, store: first.store });
    const status = await second.auth.restore();
    expect(status).toMatchObject({ state: 'signed-in', account });
    expect((await second.auth.api!.listBreaches({})).status).toBe(200);
    expect(reference.tokenCalls()).toBe(before);
  });

  it('uses a fixed port and path when configured (a provider with one registered redirect URI)', async () => {
    const port = await freePort();
    const app = makeApp({ config: parseClientConfig({ issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl, redirect: { mode: 'fixed', port, path: '/callback' } }) });
    const { authorizationUrl, page } = await signIn(app, 'bob@example.com');
    expect(new URL(authorizationUrl).searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/callback`);
    expect(page).toContain(SIGNED_IN_MESSAGE);
    expect(app.auth.status().state).toBe('signed-in');
  });
});

describe('where the tokens are kept', () => {
  it('without any keychain, the sign-in works for the session with a warning, and is not remembered', async () => {
    const app = makeApp({ store: new MemorySecretStore() });
    const { account } = await signIn(app, 'bob@example.com');
    expect(app.auth.status()).toMatchObject({ state: 'signed-in', warning: NOT_REMEMBERED_WARNING });
    expect((await app.auth.api!.listBreaches({})).status).toBe(200);

    const restarted = makeApp({ dataDir: app.dataDir, store: new MemorySecretStore() });
    expect(await restarted.auth.restore()).toMatchObject({ state: 'sign-in-needed', account, warning: NOT_REMEMBERED_WARNING });
  });

  it.runIf(RUN_KEYCHAIN_TESTS)('with the OS keychain: one entry per account, restored after a restart, deleted at sign-out', async () => {
    const service = `Breach Monitor test ${process.pid}`;
    const choice = await chooseSecretStore({ keychain: { service } });
    expect(choice.store.kind).toBe('keychain');
    const app = makeApp({ store: choice.store });
    const { account } = await signIn(app, 'carol@example.com');
    const keytar = await loadKeytar();
    const entry = await keytar.getPassword(service, keychainAccount(account.issuer, account.subject));
    expect(parseStoredTokens(entry!)?.refreshToken).toBeTruthy();
    app.auth.tokens!.close();

    const restarted = makeApp({ dataDir: app.dataDir, store: choice.store });
    expect(await restarted.auth.restore()).toMatchObject({ state: 'signed-in', account, warning: undefined });
    expect((await restarted.auth.api!.listBreaches({})).status).toBe(200);
    await restarted.auth.signOut();
    expect(await keytar.getPassword(service, keychainAccount(account.issuer, account.subject))).toBeNull();
  });
});

describe('token lifecycle', () => {
  it('refreshes 60 s ahead of expiry, not earlier, and saves the rotated refresh token', async () => {
    const app = makeApp();
    const { account } = await signIn(app, 'alice@example.com');
    const tokens = app.auth.tokens!;
    const first = await storedTokens(app, account);
    const expiresAt = first!.expiresAt!;
    const before = reference.tokenCalls();

    app.clock.offsetMs = expiresAt - Date.now() - 61_000;
    expect(await tokens.getAccessToken()).toBe(first!.accessToken);
    expect(reference.tokenCalls()).toBe(before);

    app.clock.offsetMs = expiresAt - Date.now() - 59_000;
    const refreshed = await tokens.getAccessToken();
    expect(refreshed).not.toBe(first!.accessToken);
    expect(reference.tokenCalls()).toBe(before + 1);

    const second = await storedTokens(app, account);
    expect(second?.accessToken).toBe(refreshed);
    expect(second?.refreshToken).toBeTruthy();
    expect(second?.refreshToken).not.toBe(first!.refreshToken);
    // The provider rotates refresh tokens for public clients: only the saved one still works.
    expect((await app.auth.api!.listBreaches({})).status).toBe(200);
  });

  it('shares one refresh among concurrent callers', async () => {
    const app = makeApp();
    await signIn(app, 'carol@example.com');
    app.clock.offsetMs = 24 * 60 * 60 * 1000;
    const before = reference.tokenCalls();
    const tokens = await Promise.all(Array.from({ length: 12 }, () => app.auth.tokens!.getAccessToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(reference.tokenCalls()).toBe(before + 1);
    const results = await Promise.all(Array.from({ length: 6 }, () => app.auth.api!.listBreaches({})));
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(reference.tokenCalls()).toBe(before + 1);
  });

  it('a revoked refresh token puts the account in "sign-in needed", keeping its data and account record', async () => {
    const app = makeApp();
    const { account } = await signIn(app, 'alice@example.com');
    const stored = (await storedTokens(app, account))!;
    await revokeAtProvider(reference, stored.refreshToken!);

    app.clock.offsetMs = 24 * 60 * 60 * 1000;
    const waiting = Array.from({ length: 3 }, () => app.auth.tokens!.getAccessToken());
    for (const result of await Promise.allSettled(waiting)) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(SignInRequiredError);
    }
    expect(app.auth.status()).toMatchObject({ state: 'sign-in-needed', account });
    expect(app.statuses.at(-1)?.state).toBe('sign-in-needed');
    expect(await app.store.get({ issuer: account.issuer, subject: account.subject })).toBeUndefined();
    expect(app.deleted).toEqual([]);
    // A restart remembers who must sign in again.
    const restarted = makeApp({ dataDir: app.dataDir, store: app.store });
    expect(await restarted.auth.restore()).toMatchObject({ state: 'sign-in-needed', account });

    // Signing in again as the same person brings the same account (same database) back.
    const again = await signIn(restarted, 'alice@example.com');
    expect(again.account.accountId).toBe(account.accountId);
    expect(restarted.auth.status().state).toBe('signed-in');
  });

  it('an account deleted at the provider cannot refresh: sign-in needed', async () => {
    const app = makeApp();
    const { account } = await signIn(app, 'bob@example.com');
    const gone = await fetch(`${reference.service.url}/__dev/accounts/bob`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emails: ['bob@example.com'], deleted: true }),
    });
    expect(gone.status).toBe(200);
    try {
      app.clock.offsetMs = 24 * 60 * 60 * 1000;
      await expect(app.auth.tokens!.getAccessToken()).rejects.toBeInstanceOf(SignInRequiredError);
      expect(app.auth.status()).toMatchObject({ state: 'sign-in-needed', account });
    } finally {
      await fetch(`${reference.service.url}/__dev/accounts/bob`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ emails: ['bob@example.com'], deleted: false }),
      });
    }
  });
});

describe('sign-out', () => {
  it('revokes at the provider, deletes the secret-store entry and the account record, and the local database when asked', async () => {
    const app = makeApp();
    const { account } = await signIn(app, 'carol@example.com');
    const stored = (await storedTokens(app, account))!;
    const tokens = app.auth.tokens!;

    expect(await app.auth.signOut({ deleteLocalData: true })).toEqual({ revoked: true });
    expect(app.auth.status()).toMatchObject({ state: 'signed-out', account: undefined });
    expect(await app.store.get({ issuer: account.issuer, subject: account.subject })).toBeUndefined();
    expect(() => readFileSync(path.join(app.dataDir, 'account.json'))).toThrow();
    expect(app.deleted).toEqual([account]);
    await expect(tokens.getAccessToken()).rejects.toBeInstanceOf(SignInRequiredError);
    expect(await refreshAtProvider(reference, stored.refreshToken!)).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it("keeps the local database unless asked; the next account never gets the previous one's tokens", async () => {
    const app = makeApp();
    const alice = await signIn(app, 'alice@example.com');
    const aliceTokens = app.auth.tokens!;
    await app.auth.signOut();
    expect(app.deleted).toEqual([]);
    expect(await app.auth.restore()).toMatchObject({ state: 'signed-out' });

    const bob = await signIn(app, 'bob@example.com');
    expect(bob.account.accountId).not.toBe(alice.account.accountId);
    // Work still holding Alice's token source (her outbox, say) cannot borrow Bob's sign-in.
    await expect(aliceTokens.getAccessToken()).rejects.toBeInstanceOf(SignInRequiredError);
    expect(await app.store.get({ issuer: alice.account.issuer, subject: 'alice' })).toBeUndefined();
    expect(await app.store.get({ issuer: bob.account.issuer, subject: 'bob' })).toBeDefined();
  });
});

describe('switching accounts in one browser', () => {
  it('after a sign-out the provider offers its login page again, not the session it holds, and the new account still gets a refresh token', async () => {
    // One browser profile for both sign-ins, as the person's own browser keeps the provider's session cookie.
    const context = await browser.newContext();
    try {
      const app = makeApp();
      const urls: string[] = [];
      const signInWith = async (script: PersonScript) => {
        let done!: Promise<void>;
        const account = await app.auth.signIn({
          opener: (url) => {
            urls.push(url);
            done = (async () => {
              const page = await context.newPage();
              try {
                await script(page, url);
              } finally {
                await page.close();
              }
            })();
          },
        });
        await done;
        return account;
      };
      const alice = await signInWith(signInAs('alice@example.com'));
      await app.auth.signOut();

      // Without an account prompt the provider would go straight to consent for Alice's session.
      const bob = await signInWith(signInAs('bob@example.com'));
      expect(alice.email).toBe('alice@example.com');
      expect(bob.email).toBe('bob@example.com');
      for (const url of urls) expect(new URL(url).searchParams.get('prompt')).toBe('login consent');
      expect((await storedTokens(app, bob))?.refreshToken).toBeTruthy();
    } finally {
      await context.close();
    }
  });
});

describe('expiry at the API', () => {
  it('refreshes once after a 401, shared by every call that got it, and retries with the new token', async () => {
    const app = makeApp();
    const { account } = await signIn(app, 'bob@example.com');
    const stored = (await storedTokens(app, account))!;
    app.auth.tokens!.close();

    // A real access token that the API rejects as expired, while the app believes it is good
    // for another hour.
    const shortLived = await expiredToken;
    await app.store.set({ issuer: account.issuer, subject: account.subject }, JSON.stringify({ v: 1, accessToken: shortLived, expiresAt: Date.now() + 3_600_000, refreshToken: stored.refreshToken }));

    const restarted = makeApp({ dataDir: app.dataDir, store: app.store });
    await restarted.auth.restore();
    const before = reference.tokenCalls();
    const results = await Promise.all(Array.from({ length: 5 }, () => restarted.auth.api!.listBreaches({})));
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
    expect(reference.tokenCalls()).toBe(before + 1);
    expect(restarted.auth.status().state).toBe('signed-in');
    expect(await restarted.auth.tokens!.getAccessToken()).not.toBe(shortLived);
  });
});
