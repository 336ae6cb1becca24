// A real person with their own Have I Been Pwned key, end to end, as `npm start` runs the app:
// the local reference service as its own process (tools/localServiceRunner.ts, restarted with the
// key when the person chooses it; its HIBP base pointed at the stand-in, test/support/hibpStandIn.ts),
// the real core and the browser host, the built renderer in Chromium at 1024×768. From an empty data
// folder: the first screen asks only where breach data comes from (no contract), the person pastes
// their key, signs in without a browser tab or a demo user, adds two addresses through the UI (one
// the stand-in knows, one it does not) and sees the first's breaches and the second "checked, in no
// known breach"; then removes one, and nothing of it is left at the service (`/user/emails`,
// `/user/breaches`) or in the app's database.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readAccountRecord } from '../../electron/core/auth/accountRecord.ts';
import { accountDatabasePath } from '../../electron/core/db/openAccountDatabase.ts';
import { HibpStandIn } from '../support/hibpStandIn.ts';
import { ensureRendererBuilt, eventually, launchChromium, SCREENSHOT_DIR, type ScreenAudit } from './harness.ts';
import { addressRow, captureScreen, expectNoDemo as expectNoDemoOn, OwnServiceApp } from './ownService.ts';

const KEY = '0123456789abcdef0123456789abcdef';
/** The stand-in holds breaches for this one. */
const KNOWN = 'riley@example.org';
/** And none for this one. */
const CLEAN = 'riley.clean@example.org';
const OUT = path.join(SCREENSHOT_DIR, 'addresses');

describe('your own addresses with your own key, from an empty data folder', { timeout: 120_000 }, () => {
  let browser: Browser;
  let page: Page;
  let hibp: HibpStandIn;
  let own: OwnServiceApp;
  let app: OwnServiceApp['app'];
  let appDir: string;
  let opened: string[];
  const audits: ScreenAudit[] = [];
  const timings: Record<string, number> = {};

  const capture = (name: string) => captureScreen(page, { dir: OUT, name, audits });
  const expectNoDemo = () => expectNoDemoOn(page);
  const row = (email: string) => addressRow(page, email);

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    hibp = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts: { [KNOWN]: ['Adobe', 'LinkedIn'] } });
    own = await OwnServiceApp.start({ browser, hibpUrl: hibp.url, name: 'addresses' });
    ({ page, app, appDir, opened } = own);
  }, 120_000);

  afterAll(async () => {
    await own?.close();
    await browser?.close();
    await hibp?.close();
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
    await own.enterKey(KEY);
    await capture('first-screen-key');
    const keyEntered = Date.now();
    await own.continueToAddresses();
    expect(opened).toEqual([]);
    await expectNoDemo();
    await page.getByText(/without a code by email/).waitFor();
    await capture('first-run-addresses-empty');

    const field = page.getByRole('textbox', { name: 'Email address to add' });
    // Checked here before it goes anywhere.
    await field.fill('riley at example');
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByText(/This is not an email address/).waitFor();
    for (const email of [KNOWN, CLEAN]) await own.addAddress(email);
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
    const emails = (await own.serviceGet('/user/emails')) as { email: string }[];
    expect(emails.map((address) => address.email)).not.toContain(KNOWN);
    expect(emails.map((address) => address.email)).toContain(CLEAN);
    const breaches = (await own.serviceGet('/user/breaches?includeSensitive=true')) as { breachedAccounts: { email: string }[] }[];
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
