// Breach details from the realtime-database feed, end to end: Debian Chromium on the browser
// host, the real core, the real reference service loaded with Have I Been Pwned's real catalog
// (read from ../shared/fixtures, never copied). A breach shows its title, logo (HIBP's logo
// URLs are unreachable here: the drawn fallback), description and account count; preferences
// written on one profile appear on a second profile of the same person.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../tools/browserApp.ts';
import { devCall, E2E, ensureRendererBuilt, eventually, launchChromium } from './harness.ts';

const FIXTURE = path.resolve(ROOT, '../shared/fixtures/hibp/breaches.json');

describe.skipIf(!existsSync(FIXTURE))('breach details in Chromium with the real HIBP catalog', () => {
  let browser: Browser;
  let first: E2E;
  let second: E2E | undefined;
  let page: Page;

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    first = new E2E({ browser, email: 'alice@example.com', catalogFile: FIXTURE });
    const service = await first.startService();
    await devCall(service.url, 'PUT', '/__dev/accounts/alice', { emails: ['alice@example.com'] });
    await devCall(service.url, 'PUT', '/__dev/exposures', { email: 'alice@example.com', breachIds: ['Adobe', 'LinkedIn', 'Dropbox'] });
    await first.startApp();
    page = await first.openApp();
  }, 120_000);

  afterAll(async () => {
    if (second) {
      second.service = undefined; // the first profile owns the service
      await second.close();
    }
    await first?.close();
    await browser?.close();
  });

  it('signs in, syncs the breaches and then their details', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await eventually('Adobe with its details from the feed', async () => (await first.call('breach-get', { id: 'Adobe' }).catch(() => undefined))?.details, 30_000);
  }, 60_000);

  it('shows a breach’s title, logo (drawn: HIBP is unreachable), description and account count', async () => {
    await page.goto(`${new URL(page.url()).origin}${new URL(page.url()).pathname}#/breaches/Adobe`);
    const detail = page.getByRole('article', { name: 'Adobe' });
    await detail.waitFor({ timeout: 15_000 });
    await expect(detail.getByRole('img', { name: /^Adobe logo/ }).isVisible()).resolves.toBe(true);
    expect(await detail.getByText('152,445,165').isVisible()).toBe(true);
    expect(await detail.locator('.breach-description').textContent()).toContain('In October 2013, 153 million Adobe accounts were breached');
    expect(await detail.getByRole('list', { name: 'Catalog flags' }).textContent()).toContain('Verified');
    expect(await detail.getByRole('link', { name: /Have I Been Pwned/ }).count()).toBeGreaterThan(0);
    // The list shows the feed's title too.
    expect(await page.getByRole('listbox', { name: 'Breaches' }).getByText('LinkedIn', { exact: true }).count()).toBeGreaterThan(0);
    expect(first.pageErrors).toEqual([]);
  }, 60_000);

  it('preferences written on one profile appear on a second profile of the same person', async () => {
    // "Hide this breach" in the UI writes the shared preferences.
    const detail = page.getByRole('article', { name: 'Adobe' });
    await detail.getByRole('button', { name: 'Hide this breach' }).click();
    await detail.getByText('Hidden from the list on all your devices.').waitFor({ timeout: 15_000 });
    expect(await first.call('preferences-get', {})).toMatchObject({ hiddenBreaches: ['Adobe'] });
    const chosen = { hiddenBreaches: ['Adobe', 'Dropbox'], showFlaggedBreaches: true, notifications: { newBreaches: false } };
    expect(await first.call('preferences-set', chosen)).toEqual(chosen);

    second = new E2E({ browser, email: 'alice@example.com' });
    second.servicePort = first.servicePort;
    await second.startApp();
    const other = await second.openApp();
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    expect(await second.call('preferences-get', {})).toEqual(chosen);
    // The second profile's list leaves out what the person hid on the first.
    await other.goto(`${new URL(other.url()).origin}${new URL(other.url()).pathname}#/breaches`);
    const list = other.getByRole('listbox', { name: 'Breaches' });
    await eventually('the second profile’s list with LinkedIn', async () => (await list.getByRole('option', { name: /^LinkedIn/ }).count()) > 0 || undefined, 30_000);
    await other.getByRole('checkbox', { name: 'Show hidden (2)' }).waitFor({ timeout: 15_000 });
    expect(await list.getByRole('option', { name: /^(Adobe|Dropbox)/ }).count()).toBe(0);
    await other.getByRole('checkbox', { name: 'Show hidden (2)' }).check();
    await list.getByRole('option', { name: /^Dropbox/ }).waitFor({ timeout: 15_000 });
    expect(second.pageErrors).toEqual([]);
  }, 90_000);
});
