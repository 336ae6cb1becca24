// A wrong Have I Been Pwned address, told in the app: the person's own reference service, started
// by the app with their key and `--owner` (test/e2e/ownService.ts), its HIBP base without `/api/v3`
// (`BREACH_SERVICE_HIBP_URL`; the HIBP stand-in answers 404 there, as HIBP does for a path it does
// not have), the real core and the browser host in Chromium at 1024 × 768. After the person signs
// in as the owner (no demo user) and skips adding addresses, the checks banner says "This address
// (…) does not answer like Have I Been Pwned's API v3 — did you mean …/api/v3?", and Settings →
// Breach data says it beside the address field (the advanced part of the HIBP choice).
// Screenshots in test-results/screenshots/hibp-address/ (copies of the light ones are in
// docs/screenshots/).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HibpStandIn } from '../support/hibpStandIn.ts';
import { runAxe } from './axe.ts';
import { ensureRendererBuilt, launchChromium, SCREENSHOT_DIR, seriousFindings, settle, type ScreenAudit } from './harness.ts';
import { expectNoDemo, OwnServiceApp } from './ownService.ts';

const KEY = '0123456789abcdef0123456789abcdef';
const OUT = path.join(SCREENSHOT_DIR, 'hibp-address');

describe('a wrong Have I Been Pwned address, end to end', { timeout: 60_000 }, () => {
  let browser: Browser;
  let own: OwnServiceApp;
  let page: Page;
  let hibp: HibpStandIn;
  let base: string;
  const audits: ScreenAudit[] = [];

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    hibp = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
    base = hibp.url.replace(/\/api\/v3$/, '');
    own = await OwnServiceApp.start({ browser, hibpUrl: base, name: 'hibp-address' });
    page = own.page;
  }, 120_000);

  afterAll(async () => {
    await own?.close();
    await browser?.close();
    await hibp?.close();
  });

  const sentence = () => `This address (${base}) does not answer like Have I Been Pwned's API v3 — did you mean ${base}/api/v3?`;

  it('the checks banner says what is wrong and what was meant', async () => {
    await own.enterKey(KEY);
    await own.continueToAddresses();
    await expectNoDemo(page);
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    const banner = page.getByRole('region', { name: 'Breach checks' });
    await banner.getByText(sentence()).waitFor({ timeout: 20_000 });
    expect(await banner.getByRole('link', { name: 'Open Settings' }).count()).toBe(1);
    expect(hibp.requests.some((request) => request.path === '/subscription/status' && request.status === 404)).toBe(true);
    await settle(page);
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: path.join(OUT, 'hibp-wrong-address.png') });
    audits.push({ screen: 'hibp-wrong-address', theme: 'light', findings: await runAxe(page) });
  });

  it('Settings → Breach data says it beside the Have I Been Pwned address', async () => {
    await page.getByRole('region', { name: 'Breach checks' }).getByRole('link', { name: 'Open Settings' }).click();
    const form = page.getByRole('form', { name: 'Breach data' });
    await form.waitFor();
    await form.getByRole('radio', { name: /Have I Been Pwned, with my API key/ }).check();
    await form.getByText('Advanced: another Have I Been Pwned address').click();
    await form.getByRole('textbox', { name: 'Have I Been Pwned address' }).waitFor();
    const alert = form.getByRole('alert').filter({ hasText: sentence() });
    await alert.waitFor();
    await alert.scrollIntoViewIfNeeded();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await settle(page);
      await page.screenshot({ path: path.join(OUT, `hibp-wrong-address-settings-${theme}.png`) });
      audits.push({ screen: 'hibp-wrong-address-settings', theme, findings: await runAxe(page) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(seriousFindings(audits)).toEqual([]);
  });
});
