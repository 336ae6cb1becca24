// A real person with their own Have I Been Pwned key, end to end, as `npm start` runs the app:
// the local reference service as its own process (tools/localServiceRunner.ts, restarted with the
// key when the person chooses it; its HIBP base pointed at the stand-in, test/support/hibpStandIn.ts),
// the real core and the browser host, the built renderer in Chromium at 1024×768. From an empty data
// folder: the first screen asks only where breach data comes from (no contract), the person pastes
// their key, signs in without a browser tab or a demo user, adds two addresses through the UI (one
// the stand-in knows, one it does not) and sees the first's breaches and the second "checked, in no
// known breach"; then removes one, and nothing of it is left at the service (`/user/emails`,
// `/user/breaches`) or in the app's database.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, startBrowserApp, type BrowserApp } from '../../tools/browserApp.ts';
import { LocalServiceRunner } from '../../tools/localServiceRunner.ts';
import { readAccountRecord } from '../../electron/core/auth/accountRecord.ts';
import { accountDatabasePath } from '../../electron/core/db/openAccountDatabase.ts';
import { freePort, tempDir } from '../core/auth/harness.ts';
import { HibpStandIn } from '../support/hibpStandIn.ts';
import { runAxe } from './axe.ts';
import { ensureRendererBuilt, eventually, launchChromium, SCREENSHOT_DIR, seriousFindings, settle, unnamedControls, type ScreenAudit } from './harness.ts';

const KEY = '0123456789abcdef0123456789abcdef';
/** The stand-in holds breaches for this one. */
const KNOWN = 'riley@example.org';
/** And none for this one. */
const CLEAN = 'riley.clean@example.org';
const OUT = path.join(SCREENSHOT_DIR, 'addresses');

describe('your own addresses with your own key, from an empty data folder', { timeout: 120_000 }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let hibp: HibpStandIn;
  let runner: LocalServiceRunner;
  let app: BrowserApp;
  let port: number;
  const serviceDir = tempDir('bm-addresses-service');
  const appDir = tempDir('bm-addresses-app');
  const opened: string[] = [];
  const audits: ScreenAudit[] = [];
  const timings: Record<string, number> = {};
  const savedHibpUrl = process.env.BREACH_SERVICE_HIBP_URL;

  async function capture(name: string): Promise<void> {
    mkdirSync(OUT, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await settle(page);
      await page.screenshot({ path: path.join(OUT, `${name}-1024x768-${theme}.png`) });
      audits.push({ screen: name, theme, findings: await runAxe(page) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(seriousFindings(audits.filter((audit) => audit.screen === name)), `axe on ${name}`).toEqual([]);
    expect(await unnamedControls(page), `controls without a name on ${name}`).toEqual([]);
  }

  /** Nothing of the demo: no demo user, no demo label. */
  async function expectNoDemo(): Promise<void> {
    const text = await page.locator('body').innerText();
    expect(text).not.toContain('alice@example.com');
    expect(text).not.toMatch(/\bDemo\b/);
  }

  /** A row of the addresses list, by its address. */
  const row = (email: string) => page.getByRole('list', { name: 'Addresses you monitor' }).getByRole('listitem', { name: email });

  /** An access token of the person, minted by the service's own command from its data folder (`server token`). */
  function serviceToken(): string {
    const record = readAccountRecord(path.join(appDir, 'auth'));
    if (!record) throw new Error('nobody is signed in');
    const minted = spawnSync(process.execPath, ['server/main.ts', 'token', '--data', serviceDir, '--sub', record.subject, '--port', String(port)], { cwd: ROOT, encoding: 'utf8' });
    if (minted.status !== 0) throw new Error(`server token failed: ${minted.stderr}`);
    return minted.stdout.trim().split('\n').at(-1)!;
  }

  async function serviceGet(pathname: string): Promise<unknown> {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1${pathname}`, { headers: { authorization: `Bearer ${serviceToken()}` } });
    if (!response.ok) throw new Error(`GET ${pathname} answered ${response.status}: ${await response.text()}`);
    return response.json();
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    hibp = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts: { [KNOWN]: ['Adobe', 'LinkedIn'] } });
    // The service's HIBP base (`BREACH_SERVICE_HIBP_URL`), inherited by the process the runner starts.
    process.env.BREACH_SERVICE_HIBP_URL = hibp.url;
    port = await freePort();
    runner = new LocalServiceRunner({ port, dataDir: serviceDir, log: () => {} });
    // As `npm start` does on a first run (nothing chosen yet): the quick start, until the person chooses.
    const endpoints = await runner.start({ source: 'demo' });
    app = await startBrowserApp({
      dataDir: appDir,
      service: false,
      ...(endpoints ? { config: endpoints } : {}),
      localService: runner,
      keychain: false,
      log: () => {},
      // The person's system browser: the local person never needs it to sign in.
      openExternal: async (url) => void opened.push(url),
    });
    context = await browser.newContext({ viewport: { width: 1024, height: 768 }, colorScheme: 'light', reducedMotion: 'reduce' });
    page = await context.newPage();
    await page.goto(app.launchUrl());
    await page.waitForURL((url) => url.pathname.startsWith('/app/'));
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await app?.close().catch(() => {});
    await runner?.stop().catch(() => {});
    await browser?.close();
    await hibp?.close();
    if (savedHibpUrl === undefined) delete process.env.BREACH_SERVICE_HIBP_URL;
    else process.env.BREACH_SERVICE_HIBP_URL = savedHibpUrl;
    rmSync(serviceDir, { recursive: true, force: true });
    rmSync(appDir, { recursive: true, force: true });
    // The measure the issue asks for, with what it spans.
    if (timings.firstBreachOnStep !== undefined)
      console.log(
        `key → first breach shown (stand-in, Rpm 10): ${timings.firstBreachOnStep} ms on the addresses step; ${timings.firstBreachInList ?? '—'} ms in the Breaches list (including adding the two addresses)`,
      );
  });

  it('the first screen asks only where breach data comes from: no contract until "Connect to a breach-alert service"', async () => {
    const group = page.getByRole('group', { name: 'Breach data' });
    await group.waitFor();
    expect(await group.getByRole('radio').count()).toBe(3);
    expect(await page.getByRole('group', { name: 'API contract' }).count()).toBe(0);
    expect(await page.getByText(/API contract|Mozilla Monitor for Firefox/).count()).toBe(0);
    await capture('first-screen');
    await group.getByRole('radio', { name: /Connect to a breach-alert service/ }).check();
    await page.getByRole('group', { name: 'API contract' }).waitFor();
    await group.getByRole('radio', { name: /Check my addresses with Have I Been Pwned/ }).check();
    expect(await page.getByRole('group', { name: 'API contract' }).count()).toBe(0);
  });

  it('pastes the key, signs in without a browser or a demo user, adds two addresses and sees what each was found in', async () => {
    await page.getByLabel('Have I Been Pwned API key').fill(KEY);
    await capture('first-screen-key');
    const keyEntered = Date.now();
    // "Continue" where the core knows it signs the person in as the owner of their own service.
    await page.getByRole('button', { name: /^(Sign in|Continue)$/ }).click();
    await page.getByRole('heading', { name: 'Which addresses should Breach Monitor watch?', level: 1 }).waitFor({ timeout: 60_000 });
    expect(opened).toEqual([]);
    await expectNoDemo();
    await page.getByText(/without a code by email/).waitFor();
    await capture('first-run-addresses-empty');

    const field = page.getByRole('textbox', { name: 'Email address to add' });
    // Checked here before it goes anywhere.
    await field.fill('riley at example');
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByText(/This is not an email address/).waitFor();
    for (const email of [KNOWN, CLEAN]) {
      await field.fill(email);
      await page.getByRole('button', { name: 'Add address' }).click();
      await row(email).waitFor();
    }
    await row(KNOWN)
      .getByText(/in 2 breaches/)
      .waitFor({ timeout: 90_000 });
    timings.firstBreachOnStep = Date.now() - keyEntered;
    await row(CLEAN)
      .getByText(/checked .*, in no known breach/)
      .waitFor({ timeout: 90_000 });
    await expectNoDemo();
    await capture('first-run-addresses-checked');

    await page.getByRole('button', { name: 'Show my breaches' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Breaches', exact: true }).click();
    const list = page.getByRole('listbox', { name: 'Breaches' });
    await list.getByRole('option').first().waitFor({ timeout: 60_000 });
    timings.firstBreachInList = Date.now() - keyEntered;
    await eventually('both breaches listed', async () => (await list.getByRole('option').count()) === 2, 30_000);
    await expectNoDemo();
    expect(opened).toEqual([]);
  });

  it('Settings → Your addresses: each with its state; removing one says what goes, and nothing of it is left on either side', async () => {
    // Something dealt with for the address, so its removal has resolutions to take.
    await app.core.router.invoke('resolutions-set', { breachId: 'Adobe', emails: [KNOWN], dataClasses: ['Passwords'], resolved: true });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
    const section = page.getByRole('region', { name: 'Your addresses' });
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await row(KNOWN)
      .getByText(/in 2 breaches/)
      .waitFor();
    await capture('settings-your-addresses');

    await row(KNOWN)
      .getByRole('button', { name: `Remove ${KNOWN}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Remove ${KNOWN}?` });
    await dialog.waitFor();
    await expect(dialog.innerText()).resolves.toMatch(/its 2 breaches and 1 data class you marked as dealt with/);
    // Keyboard: the confirmation has focus; Escape leaves everything as it was.
    await expect(dialog.getByRole('button', { name: `Remove ${KNOWN}` }).evaluate((button) => button.matches(':focus'))).resolves.toBe(true);
    await capture('settings-remove-confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await row(KNOWN)
      .getByRole('button', { name: `Remove ${KNOWN}` })
      .click();
    await page
      .getByRole('dialog', { name: `Remove ${KNOWN}?` })
      .getByRole('button', { name: `Remove ${KNOWN}` })
      .click();
    await row(KNOWN).waitFor({ state: 'detached' });
    expect(await row(CLEAN).count()).toBe(1);

    // The service: not listed, no exposure of it.
    const emails = (await serviceGet('/user/emails')) as { email: string }[];
    expect(emails.map((address) => address.email)).not.toContain(KNOWN);
    expect(emails.map((address) => address.email)).toContain(CLEAN);
    const breaches = (await serviceGet('/user/breaches?includeSensitive=true')) as { breachedAccounts: { email: string }[] }[];
    expect(breaches.flatMap((breach) => breach.breachedAccounts.map((account) => account.email))).not.toContain(KNOWN);
    // The app's database: no account row, no change waiting, no breach left of it.
    const record = readAccountRecord(path.join(appDir, 'auth'))!;
    const db = new Database(accountDatabasePath(appDir, record.issuer, record.subject), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM breached_accounts WHERE email = ?').pluck().get(KNOWN)).toBe(0);
      expect(db.prepare('SELECT count(*) FROM outbox WHERE email = ?').pluck().get(KNOWN)).toBe(0);
      expect(db.prepare('SELECT count(*) FROM breaches').pluck().get()).toBe(0);
      expect(String(db.prepare('SELECT emails_json FROM user_emails').pluck().get())).not.toContain(KNOWN);
    } finally {
      db.close();
    }
    const list = await app.core.router.invoke('breaches-list', { includeSensitive: true });
    expect(list.total).toBe(0);
  });
});
