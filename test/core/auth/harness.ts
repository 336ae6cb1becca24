// Shared set-up for the sign-in tests: the real reference service (with its development
// OpenID provider) in-process, a real Chromium driven by playwright-core as "the system
// browser", and small helpers to read what the app stored.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startService, type RunningService } from '../../../server/app.ts';
import type { AuthLogger, LogFields } from '../../../electron/core/auth/log.ts';
import type { BrowserOpener } from '../../../electron/core/auth/SignInFlow.ts';
import { launchResolvedBrowser } from '../../support/browser.ts';

export { testCipher } from './testCipher.ts';

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `${prefix}-`));
}

export interface ReferenceService {
  service: RunningService;
  /** Requests that reached the provider's token endpoint (code exchanges and refreshes). */
  tokenCalls(): number;
  close(): Promise<void>;
}

export async function startReference(): Promise<ReferenceService> {
  const dataDir = tempDir('bm-service');
  const service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent' });
  let calls = 0;
  service.server.prependListener('request', (req) => {
    if (req.method === 'POST' && (req.url ?? '').split('?')[0] === '/oidc/token') calls += 1;
  });
  return {
    service,
    tokenCalls: () => calls,
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The browser test/support/browser.ts resolves (system Chromium, or the one from npm). */
export function launchChromium(): Promise<Browser> {
  return launchResolvedBrowser();
}

export interface DrivenBrowser {
  opener: BrowserOpener;
  /** The authorization URL the app opened. */
  opened: Promise<string>;
  /** What the browser ends up showing (the loopback callback page, normally), or the automation's error. */
  finished: Promise<string>;
}

export type PersonScript = (page: Page, url: string) => Promise<void>;

/**
 * An opener that behaves like `shell.openExternal`: it resolves as soon as the browser is
 * asked, and the person (the script) acts in the browser on their own time. Each sign-in gets a
 * fresh browser profile, so the provider has no session from an earlier test.
 */
export function driveBrowser(browser: Browser, script: PersonScript): DrivenBrowser {
  let resolveOpened!: (url: string) => void;
  const opened = new Promise<string>((resolve) => (resolveOpened = resolve));
  let resolveFinished!: (text: string) => void;
  let rejectFinished!: (error: unknown) => void;
  const finished = new Promise<string>((resolve, reject) => {
    resolveFinished = resolve;
    rejectFinished = reject;
  });
  finished.catch(() => {});
  const opener: BrowserOpener = (url) => {
    resolveOpened(url);
    void (async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await script(page, url);
        resolveFinished(await page.locator('body').innerText({ timeout: 10_000 }));
      } finally {
        await context.close();
      }
    })().catch(rejectFinished);
  };
  return { opener, opened, finished };
}

/** The person signs in with a demo user and answers the consent page. */
export function signInAs(email: string, decision: 'Allow' | 'Cancel' = 'Allow'): PersonScript {
  return async (page, url) => {
    await page.goto(url);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: decision }).click();
    await page.waitForURL((target) => target.hostname === '127.0.0.1' && target.pathname === '/callback', { timeout: 10_000 });
    await page.getByRole('heading').waitFor({ timeout: 10_000 });
  };
}

/** The person opens the login page and then does nothing. */
export function justLook(): PersonScript {
  return async (page, url) => {
    await page.goto(url);
    await page.getByLabel('Email').waitFor();
  };
}

/** Collects every log line as text, the way a host would write it. */
export function captureLogs(): { logger: AuthLogger; lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: string, fields?: LogFields) => lines.push(`${level} ${message} ${fields ? JSON.stringify(fields) : ''}`);
  return { logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') }, lines };
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True when something accepts connections on 127.0.0.1:port. */
export async function isListening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** Revokes a token at the provider as another party would (RFC 7009), bypassing the app. */
export async function revokeAtProvider(reference: ReferenceService, token: string): Promise<void> {
  const response = await fetch(`${reference.service.issuer}/token/revocation`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'breach-monitor-desktop', token, token_type_hint: 'refresh_token' }).toString(),
  });
  if (!response.ok) throw new Error(`revocation answered ${response.status}`);
}

/** A refresh grant sent straight to the provider: how a stolen or stale refresh token would fare. */
export async function refreshAtProvider(reference: ReferenceService, refreshToken: string): Promise<{ status: number; error: string | undefined }> {
  const response = await fetch(`${reference.service.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'breach-monitor-desktop', grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, error: body.error };
}

/** Every substring of `secret` of `size` characters: a leak of any part of a token is a leak. */
export function windowsOf(secret: string, size = 16): string[] {
  const windows = new Set<string>();
  for (let start = 0; start + size <= secret.length; start += 1) windows.add(secret.slice(start, start + size));
  return [...windows];
}

export function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
