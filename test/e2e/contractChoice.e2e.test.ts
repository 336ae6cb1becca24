// The newer Monitor contract as a first-class choice, in Debian Chromium: picked on the welcome
// screen ("API contract" under the service choice), signed in as a demo user whose breaches then
// show; switched back in Settings in one guided step (confirm → sign out → switch → sign in
// again), never refused, and the breaches come back under the original contract.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataClassKey } from '../../shared/api/index.ts';
import { devCall, E2E, ensureRendererBuilt, eventually, launchChromium } from './harness.ts';

const EMAIL = 'alice@example.com';

describe('choosing the API contract in Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  let ids: string[];
  /** A breach and one of its data classes the newer contract cannot mark resolved. */
  let other: { id: string; dataClass: string };

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: EMAIL });
    const service = await e2e.startService();
    // Breaches both contracts serve: not sensitive, leaking passwords or email addresses.
    const served = (await service.store.listBreaches()).filter((b) => !b.isSensitive && b.dataClasses.some((name) => ['passwords', 'email-addresses'].includes(dataClassKey(name))));
    ids = served.slice(0, 4).map((b) => b.id);
    const withOther = served.slice(0, 4).find((b) => b.dataClasses.some((name) => !['passwords', 'email-addresses'].includes(dataClassKey(name))))!;
    other = { id: withOther.id, dataClass: withOther.dataClasses.find((name) => !['passwords', 'email-addresses'].includes(dataClassKey(name)))! };
    await devCall(service.url, 'PUT', '/__dev/accounts/alice', { emails: [EMAIL] });
    await devCall(service.url, 'PUT', '/__dev/exposures', { email: EMAIL, breachIds: ids });
    // alice signed up at the service (the newer contract leaves signing up to the service's site): her Monitor account exists.
    const signUp = await fetch(`${e2e.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${await e2e.serviceToken()}` } });
    expect(signUp.ok, `POST /user answered ${signUp.status}`).toBe(true);
    await e2e.startApp();
    page = await e2e.openApp();
  }, 120_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
  });

  it('picks the newer contract on the welcome screen and sees the breaches through it', async () => {
    const contract = page.getByRole('group', { name: 'API contract' });
    await contract.waitFor({ timeout: 15_000 });
    expect(await contract.getByRole('radio', { name: /Breach Alerts API/ }).isChecked()).toBe(true);
    await contract.getByRole('radio', { name: /Mozilla Monitor for Firefox/ }).check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    expect((await e2e.call('settings-get', {})).apiContract).toBe('firefox-v1');
    await eventually('the first sync under /api/firefox/v1', async () => (await e2e.call('breaches-list', {})).total === ids.length, 30_000);
    const main = page.getByRole('navigation', { name: 'Main' });
    await main
      .getByRole('link', { name: 'Breaches' })
      .or(main.getByRole('button', { name: 'Breaches' }))
      .first()
      .click();
    const list = page.getByRole('listbox', { name: 'Breaches' });
    await eventually('the breaches shown', async () => (await list.getByRole('option').count()) === ids.length, 15_000);

    // A change the newer contract cannot carry: kept on this computer, labelled so, not sent.
    await page.goto(`${new URL(page.url()).origin}${new URL(page.url()).pathname}#/breaches/${encodeURIComponent(other.id)}`);
    const cell = page.getByRole('checkbox', { name: `${other.dataClass} for ${EMAIL}` });
    await cell.waitFor({ timeout: 15_000 });
    await cell.check();
    await eventually(
      'labelled as kept on this computer',
      async () =>
        (await cell.getAttribute('aria-describedby')) !== null && /on this computer only/.test((await page.locator(`[id="${await cell.getAttribute('aria-describedby')}"]`).textContent()) ?? ''),
      15_000,
    );
    expect((await e2e.call('sync-status', {})).localOnly).toBe(1);
  }, 90_000);

  it('switches back to the original contract in Settings in one guided step', async () => {
    const main = page.getByRole('navigation', { name: 'Main' });
    await main
      .getByRole('link', { name: 'Settings' })
      .or(main.getByRole('button', { name: 'Settings' }))
      .first()
      .click();
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByRole('radio', { name: /Breach Alerts API/ }).check();
    await settings.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch the API contract?' });
    await dialog.waitFor({ timeout: 10_000 });
    expect(await dialog.textContent()).toContain('1 change kept on this computer under the newer contract will be sent under the original one.');
    const signInsBefore = e2e.signIns;
    await dialog.getByRole('button', { name: 'Switch and sign in again' }).click();
    // Signed out, switched and signed in again without another click.
    await eventually('a second sign-in', () => e2e.signIns > signInsBefore, 30_000);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await eventually('the switch saved', async () => (await e2e.call('settings-get', {})).apiContract === 'v1', 30_000);
    expect(await page.getByText('Sign out before switching', { exact: false }).count()).toBe(0);
    await eventually('the breaches under /api/v1', async () => (await e2e.call('breaches-list', {})).total === ids.length, 30_000);
    // The change kept on this computer reached the service through /api/v1, and nothing waits.
    await eventually(
      `${other.dataClass} resolved on the service`,
      async () => {
        const item = (await e2e.serviceBreaches({ includeSensitive: true })).find((i) => i.breach.id === other.id) as
          { breachedAccounts: { resolvedDataClasses: Record<string, unknown> }[] } | undefined;
        return item?.breachedAccounts.some((account) => Object.keys(account.resolvedDataClasses).some((name) => dataClassKey(name) === dataClassKey(other.dataClass)));
      },
      30_000,
    );
    await eventually('nothing left waiting', async () => {
      const status = await e2e.call('sync-status', {});
      return status.pending === 0 && !status.localOnly;
    });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav
      .getByRole('link', { name: 'Breaches' })
      .or(nav.getByRole('button', { name: 'Breaches' }))
      .first()
      .click();
    const list = page.getByRole('listbox', { name: 'Breaches' });
    await eventually('the breaches shown again', async () => (await list.getByRole('option').count()) === ids.length, 15_000);
    expect(e2e.pageErrors).toEqual([]);
  }, 90_000);
});
