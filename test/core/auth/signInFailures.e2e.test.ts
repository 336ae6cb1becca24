// Sign-ins that must not complete, against the real provider and Chromium: a forged callback
// (state mismatch), answers from the wrong issuer, the person declining or the app cancelling,
// the fixed port taken, the browser not opening, and POST /user refusing the account. Each
// leaves nothing stored and the listener closed.
import { readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../../../electron/core/auth/AuthService.ts';
import { parseClientConfig, type ClientConfigInput } from '../../../electron/core/auth/config.ts';
import { NOT_AUTHORIZED_MESSAGE, SignInError } from '../../../electron/core/auth/errors.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { captureLogs, driveBrowser, isListening, justLook, launchChromium, signInAs, startReference, tempDir, type ReferenceService } from './harness.ts';
import { startImpersonator } from './impersonator.ts';

let reference: ReferenceService;
let browser: Browser;
const dirs: string[] = [];

beforeAll(async () => {
  [reference, browser] = await Promise.all([startReference(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await reference?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function makeApp(config: ClientConfigInput = {}) {
  const dataDir = tempDir('bm-app');
  dirs.push(dataDir);
  const store = new MemorySecretStore();
  const { logger, lines } = captureLogs();
  const auth = new AuthService({
    config: parseClientConfig({ issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl, ...config }),
    dataDir,
    secrets: store,
    logger,
  });
  return { auth, dataDir, store, logs: lines };
}

async function expectSignInError(promise: Promise<unknown>, code: SignInError['code']): Promise<SignInError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SignInError);
  expect((error as SignInError).code).toBe(code);
  return error as SignInError;
}

function redirectPortOf(authorizationUrl: string): number {
  return Number(new URL(new URL(authorizationUrl).searchParams.get('redirect_uri')!).port);
}

describe('a sign-in that must not complete', () => {
  it('refuses a callback whose state does not match, tells the browser why, and closes the listener', async () => {
    const app = makeApp();
    const before = reference.tokenCalls();
    // Something other than the provider sends the browser to the loopback port with its own code.
    const driven = driveBrowser(browser, async (page, url) => {
      const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
      await page.goto(`${redirectUri}?code=forged-code&state=not-the-state-we-sent`);
    });
    const error = await expectSignInError(app.auth.signIn({ opener: driven.opener }), 'state-mismatch');
    expect(error.message).toMatch(/does not belong to the sign-in Breach Monitor started/);
    expect(await driven.finished).toContain('does not belong to the sign-in Breach Monitor started');
    expect(await isListening(redirectPortOf(await driven.opened))).toBe(false);
    expect(reference.tokenCalls()).toBe(before);
    expect(app.auth.status()).toMatchObject({ state: 'signed-out', error: error.message });
  });

  it('refuses an ID token from another issuer than the configured one', async () => {
    const impersonator = await startImpersonator({ target: reference.service.url, claimIssuer: true, rewriteResponseIss: true });
    try {
      const app = makeApp({ issuer: impersonator.issuer });
      const driven = driveBrowser(browser, signInAs('alice@example.com'));
      const error = await expectSignInError(app.auth.signIn({ opener: driven.opener }), 'wrong-issuer');
      expect(error.message).toMatch(/names a different provider/);
      expect(await driven.finished).toContain('names a different provider');
      // It got past the authorization response (whose iss was rewritten) and the ID token's own claim caught it.
      expect(app.logs.join('\n')).toContain('unexpected JWT \\"iss\\" (issuer) claim value');
      expect(await app.store.get({ issuer: impersonator.issuer, subject: 'alice' })).toBeUndefined();
      expect(await app.store.get({ issuer: reference.service.issuer, subject: 'alice' })).toBeUndefined();
      expect(readdirSync(app.dataDir)).toEqual([]);
    } finally {
      await impersonator.close();
    }
  });

  it('refuses an authorization response whose iss parameter names another issuer (RFC 9207)', async () => {
    const impersonator = await startImpersonator({ target: reference.service.url, claimIssuer: true, rewriteResponseIss: false });
    try {
      const app = makeApp({ issuer: impersonator.issuer });
      const before = reference.tokenCalls();
      const driven = driveBrowser(browser, signInAs('alice@example.com'));
      await expectSignInError(app.auth.signIn({ opener: driven.opener }), 'wrong-issuer');
      expect(app.logs.join('\n')).toContain('unexpected \\"iss\\" (issuer) response parameter value');
      expect(reference.tokenCalls()).toBe(before);
    } finally {
      await impersonator.close();
    }
  });

  it('refuses a discovery document that names another issuer, before opening the browser', async () => {
    const impersonator = await startImpersonator({ target: reference.service.url, claimIssuer: false, rewriteResponseIss: false });
    try {
      const app = makeApp({ issuer: impersonator.issuer });
      let opened = false;
      await expectSignInError(app.auth.signIn({ opener: () => void (opened = true) }), 'wrong-issuer');
      expect(opened).toBe(false);
    } finally {
      await impersonator.close();
    }
  });

  it('tells the person in words when they decline on the consent page', async () => {
    const app = makeApp();
    const driven = driveBrowser(browser, signInAs('bob@example.com', 'Cancel'));
    const error = await expectSignInError(app.auth.signIn({ opener: driven.opener }), 'denied');
    expect(error.message).toBe('You did not allow Breach Monitor to access your account, so you are not signed in.');
    expect(await driven.finished).toContain(error.message);
    expect(app.auth.status().state).toBe('signed-out');
  });

  it('stops when the app cancels (AbortSignal) and closes the listener', async () => {
    const app = makeApp();
    const controller = new AbortController();
    const driven = driveBrowser(browser, justLook());
    const signingIn = app.auth.signIn({ opener: driven.opener, signal: controller.signal });
    await driven.finished;
    expect(app.auth.status().state).toBe('signing-in');
    const port = redirectPortOf(await driven.opened);
    expect(await isListening(port)).toBe(true);
    controller.abort();
    await expectSignInError(signingIn, 'cancelled');
    expect(await isListening(port)).toBe(false);
    expect(app.auth.status()).toMatchObject({ state: 'signed-out', error: undefined });
  });

  it('stops when the UI cancels (cancelSignIn) and closes the listener', async () => {
    const app = makeApp();
    const driven = driveBrowser(browser, justLook());
    const signingIn = app.auth.signIn({ opener: driven.opener });
    await driven.finished;
    app.auth.cancelSignIn();
    await expectSignInError(signingIn, 'cancelled');
    expect(await isListening(redirectPortOf(await driven.opened))).toBe(false);
    expect(app.auth.status().state).toBe('signed-out');
  });

  it('a second sign-in replaces one left waiting in the browser', async () => {
    const app = makeApp();
    const abandoned = driveBrowser(browser, justLook());
    const first = app.auth.signIn({ opener: abandoned.opener });
    await abandoned.finished;
    const driven = driveBrowser(browser, signInAs('carol@example.com'));
    const second = app.auth.signIn({ opener: driven.opener });
    await expectSignInError(first, 'cancelled');
    expect((await second).subject).toBe('carol');
    expect(await isListening(redirectPortOf(await abandoned.opened))).toBe(false);
  });

  it('says clearly that the fixed redirect port is taken, without opening the browser', async () => {
    const blocker: Server = createServer((_req, res) => res.end('someone else'));
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const app = makeApp({ redirect: { mode: 'fixed', port, path: '/callback' } });
      let opened = false;
      const error = await expectSignInError(app.auth.signIn({ opener: () => void (opened = true) }), 'port-in-use');
      expect(error.message).toContain(`port ${port}`);
      expect(error.message).toMatch(/another program on this computer is using it/);
      expect(opened).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('offers the link when the browser cannot be opened, and signs in through it', async () => {
    const app = makeApp();
    const seen: unknown[] = [];
    app.auth.onDidChangeStatus((status) => seen.push(status.signIn));
    const signingIn = app.auth.signIn({
      opener: () => {
        throw new Error('xdg-open: no method available');
      },
    });
    const pending = await eventuallyFailed(app.auth);
    expect(pending.url).toMatch(new RegExp(`^${reference.service.issuer}/auth\\?`));
    expect(new URL(pending.url).searchParams.get('code_challenge_method')).toBe('S256');
    expect(seen).toContainEqual({ url: pending.url, browser: 'opening' });
    // The person opens the link by hand, in a browser on this computer.
    const driven = driveBrowser(browser, signInAs('alice@example.com'));
    await driven.opener(pending.url);
    await expect(signingIn).resolves.toMatchObject({ email: 'alice@example.com' });
    expect(await driven.finished).toMatch(/signed in/i);
    expect(app.auth.status()).toMatchObject({ state: 'signed-in' });
    expect(app.auth.status().signIn).toBeUndefined();
    expect(await isListening(redirectPortOf(pending.url))).toBe(false);
  });

  it('drops the link once the sign-in is cancelled', async () => {
    const app = makeApp();
    const signingIn = app.auth.signIn({ opener: () => Promise.reject(new Error('xdg-open exited with code 3')) });
    const pending = await eventuallyFailed(app.auth);
    app.auth.cancelSignIn();
    await expectSignInError(signingIn, 'cancelled');
    expect(app.auth.status().signIn).toBeUndefined();
    expect(await isListening(redirectPortOf(pending.url))).toBe(false);
  });

  it('POST /user answering 403 ends the sign-in with words, and keeps no tokens', async () => {
    // The provider signs the person in, but the breach-alert service does not know them.
    const api: Server = createServer((req, res) => {
      res.writeHead(403, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'account disabled' }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const app = makeApp({ apiBaseUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v1` });
      const driven = driveBrowser(browser, signInAs('alice@example.com'));
      const error = await expectSignInError(app.auth.signIn({ opener: driven.opener }), 'not-authorized');
      expect(error.message).toBe(NOT_AUTHORIZED_MESSAGE);
      expect(error.message).toMatch(/this account no longer exists or is not authorized/i);
      expect(await driven.finished).toContain(NOT_AUTHORIZED_MESSAGE);
      expect(app.auth.status()).toMatchObject({ state: 'signed-out', error: NOT_AUTHORIZED_MESSAGE });
      expect(await app.store.get({ issuer: reference.service.issuer, subject: 'alice' })).toBeUndefined();
      expect(readdirSync(app.dataDir).map((name) => path.basename(name))).toEqual([]);
    } finally {
      api.close();
    }
  });
});

/** The sign-in's link once the app has given up on opening a browser. */
async function eventuallyFailed(auth: AuthService): Promise<{ url: string; browser: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pending = auth.status().signIn;
    if (pending?.browser === 'failed') return pending;
    if (Date.now() > deadline) throw new Error(`the sign-in never said the browser failed (it says ${JSON.stringify(pending)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
