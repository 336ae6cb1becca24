// The newer Monitor contract end to end in Debian Chromium: the same person, signed in through
// the app against `/api/v1` and then (a second profile, the contract chosen in Settings) against
// `/api/firefox/v1`, sees the same breaches and details; resolving "Passwords" under the newer
// contract shows through the older mount; a 503 during sync leaves the list as it was, with an
// "unavailable, showing what you had" notice.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataClassKey } from '../../shared/api/index.ts';
import { devCall, E2E, ensureRendererBuilt, eventually, launchChromium } from './harness.ts';

const EMAIL = 'alice@example.com';

describe('the newer Monitor contract in Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let older: E2E;
  let newer: E2E | undefined;
  let page: Page;
  let ids: string[];
  let withPasswords: string;

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    older = new E2E({ browser, email: EMAIL });
    const service = await older.startService();
    // Breaches the newer contract serves (not sensitive, leaked passwords or email addresses), one with passwords first.
    const served = (await service.store.listBreaches()).filter((b) => !b.isSensitive && b.dataClasses.some((name) => ['passwords', 'email-addresses'].includes(dataClassKey(name))));
    const passwords = served.filter((b) => b.dataClasses.some((name) => dataClassKey(name) === 'passwords'));
    ids = [...new Set([...passwords.slice(0, 3), ...served.slice(0, 3)].map((b) => b.id))];
    withPasswords = passwords[0]!.id;
    await devCall(service.url, 'PUT', '/__dev/accounts/alice', { emails: [EMAIL] });
    await devCall(service.url, 'PUT', '/__dev/exposures', { email: EMAIL, breachIds: ids });
    await older.startApp();
    page = await older.openApp();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await eventually('the first sync under /api/v1', async () => (await older.call('breaches-list', {})).total === ids.length, 30_000);
  }, 120_000);

  afterAll(async () => {
    if (newer) {
      newer.service = undefined; // the first profile owns the service
      await newer.close();
    }
    await older?.close();
    await browser?.close();
  });

  it('the same person sees the same breaches and details through each contract', async () => {
    newer = new E2E({ browser, email: EMAIL });
    newer.servicePort = older.servicePort;
    await newer.startApp();
    // Chosen in Settings while signed out (it decides the scope asked for at sign-in); the same channel the Settings page saves through.
    await newer.call('settings-set', { apiContract: 'firefox-v1' });
    page = await newer.openApp();
    await page.getByRole('button', { name: 'Sign in' }).first().click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await eventually('the first sync under /api/firefox/v1', async () => (await newer!.call('breaches-list', {})).total === ids.length, 30_000);

    // The Settings page shows the choice.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Settings' })
      .or(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }))
      .first()
      .click();
    expect(await page.getByRole('radio', { name: /Mozilla Monitor for Firefox/ }).isChecked()).toBe(true);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Breaches' })
      .or(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Breaches' }))
      .first()
      .click();

    const viaOlder = await older.call('breaches-list', {});
    const viaNewer = await newer.call('breaches-list', {});
    expect(viaNewer.rows.map((row) => row.breach)).toEqual(viaOlder.rows.map((row) => row.breach));
    for (const id of ids) {
      const a = await older.call('breach-get', { id });
      const b = await newer.call('breach-get', { id });
      expect(b.details?.title, id).toBe(a.details?.title);
      expect(b.details?.pwnCount, id).toBe(a.details?.pwnCount);
    }
  }, 120_000);

  it('resolves “Passwords” under the newer contract and the older mount reports it', async () => {
    const origin = new URL(page.url()).origin;
    await page.goto(`${origin}${new URL(page.url()).pathname}#/breaches/${encodeURIComponent(withPasswords)}`);
    // One card per email (and an "Every address" card only when there are several): tick
    // Passwords wherever it is offered, which is every email of the breach.
    const boxes = page.getByRole('checkbox', { name: /^Passwords for / });
    await boxes.first().waitFor({ timeout: 15_000 });
    for (const box of await boxes.all()) await box.check();
    await eventually(
      'Passwords resolved on the service, read through /api/v1',
      async () => {
        const items = await older.serviceBreaches({ includeSensitive: true });
        const item = items.find((i) => i.breach.id === withPasswords) as { breachedAccounts: { resolvedDataClasses: Record<string, unknown> }[] } | undefined;
        return item?.breachedAccounts.every((account) => Object.keys(account.resolvedDataClasses).some((name) => dataClassKey(name) === 'passwords'));
      },
      30_000,
    );
  }, 60_000);

  it('a 503 during sync leaves the list untouched, with “unavailable, showing what you had”', async () => {
    const before = await newer!.call('breaches-list', {});
    await devCall(newer!.serviceOrigin, 'POST', '/__dev/faults', { mount: 'firefox-v1', status: 503, count: 5, retryAfter: 30 });
    await page.getByRole('button', { name: 'Sync now' }).click();
    const notice = page.getByRole('region', { name: 'Service unavailable' });
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain('The service is unavailable, showing what you had.');
    const after = await newer!.call('breaches-list', {});
    expect(after.rows.map((row) => row.breach.id)).toEqual(before.rows.map((row) => row.breach.id));
    expect(await page.getByRole('listbox', { name: 'Breaches' }).getByRole('option').count()).toBe(before.rows.length);
    await devCall(newer!.serviceOrigin, 'POST', '/__dev/faults', { mount: 'firefox-v1', status: 503, count: 0 });
    expect(newer!.pageErrors).toEqual([]);
  }, 60_000);
});
