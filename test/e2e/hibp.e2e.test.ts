// Real breach data end to end: the reference service with a Have I Been Pwned key, asking the
// HIBP stand-in (test/support/hibpStandIn.ts, which follows haveibeenpwned.com/API/v3), the real
// core and the browser host in Chromium. A person signs in: while the service has not checked
// their addresses the app says "Checking N of your addresses…" (never "No breaches"); then each
// address reads "checked …", the clean one "in no known breach"; the list holds exactly the
// breaches the stand-in holds for them; Have I Been Pwned is credited; no demo label anywhere.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startService } from '../../server/app.ts';
import { freePort } from '../core/auth/harness.ts';
import { HibpStandIn } from '../support/hibpStandIn.ts';
import { runAxe } from './axe.ts';
import { E2E, ensureRendererBuilt, eventually, launchChromium, SCREENSHOT_DIR, seriousFindings, settle, type ScreenAudit } from './harness.ts';

const KEY = '0123456789abcdef0123456789abcdef';
const ALICE = 'alice@example.com';
const WORK = 'alice.work@example.com';
const NET = 'alice@example.net';
const OUT = path.join(SCREENSHOT_DIR, 'breach-data');

describe('real breach data from Have I Been Pwned (stand-in), end to end', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  let hibp: HibpStandIn;
  const audits: ScreenAudit[] = [];
  const seenWhilePending: string[] = [];

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    hibp = await HibpStandIn.start({
      keys: { [KEY]: { rpm: 10, stealerLogs: true } },
      accounts: { [ALICE]: ['Adobe', 'LinkedIn'], [NET]: ['Dropbox'] },
      stealerLogs: { [ALICE]: ['netflix.com', 'spotify.com'] },
    });
    e2e = new E2E({ browser, email: ALICE });
    e2e.servicePort = await freePort();
    // `--dev` for the sign-in conveniences; with a key the service's data is Have I Been Pwned's, never invented.
    e2e.service = await startService({ port: e2e.servicePort, dataDir: e2e.serviceDir, dev: true, hibpApiKey: KEY, hibpUrl: hibp.url, logLevel: 'silent' });
    await e2e.startApp();
    page = await e2e.openApp();
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
    await hibp?.close();
  });

  it('pending is shown as checking, then every address as checked, the clean one "in no known breach"', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    // The first answer after sign-in: the service has checked nothing yet.
    const banner = page.getByRole('region', { name: 'Breach checks' });
    const firstLook = await eventually('the first checks', async () => {
      const view = await e2e.call('checks-get', {});
      return view.source === 'hibp' ? view : undefined;
    });
    if ((firstLook.pending ?? 0) > 0) {
      await banner.waitFor();
      seenWhilePending.push((await banner.textContent()) ?? '');
      expect(seenWhilePending[0]).toMatch(/Checking (one|\d) of your addresses…/);
      expect(await page.getByText('No breaches found').count()).toBe(0);
      mkdirSync(OUT, { recursive: true });
      await settle(page);
      await page.screenshot({ path: path.join(OUT, 'hibp-pending-light.png') });
    }

    // The app looks again by itself while addresses are pending (no "Sync now" pressed).
    await eventually('every address checked', async () => (await e2e.call('checks-get', {})).pending === 0, 150_000);
    const card = page.getByRole('region', { name: 'Your addresses' });
    await card.getByText(/in no known breach/).waitFor({ timeout: 10_000 });
    const rows = await card.getByRole('listitem').allTextContents();
    expect(rows.find((row) => row.includes(WORK))).toMatch(/checked .*, in no known breach/);
    expect(rows.find((row) => row.startsWith(ALICE) || row.includes(`${ALICE}checked`))).toMatch(/checked .*, in 2 breaches/);
    expect(rows.find((row) => row.includes(NET))).toMatch(/checked .*, in 1 breach/);
    await page.getByRole('group', { name: 'Stealer logs' }).getByText('An infostealer captured your passwords for netflix.com, spotify.com').waitFor();
    expect(await banner.count()).toBe(0);
    // What a first check found is the starting point, not news: no "new breaches" banner, no notification.
    expect(await page.getByRole('region', { name: 'New breaches' }).count()).toBe(0);
    expect(e2e.events.filter((event) => event.event === 'breaches-new')).toEqual([]);
    expect(await page.getByRole('status').filter({ hasText: 'Demo data' }).count()).toBe(0);
    expect(await card.getByRole('link', { name: 'Have I Been Pwned' }).count()).toBeGreaterThan(0);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await settle(page);
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, `hibp-checked-${theme}.png`) });
      audits.push({ screen: 'hibp-checked', theme, findings: await runAxe(page) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(seriousFindings(audits)).toEqual([]);
  }, 200_000);

  it('the list holds exactly the breaches the stand-in holds for these addresses', async () => {
    await eventually('the list to follow the checks', async () => (await e2e.call('breaches-list', { includeSensitive: true })).total === 3, 30_000);
    const list = await e2e.call('breaches-list', { includeSensitive: true });
    const byEmail: Record<string, string[]> = {};
    for (const row of list.rows) for (const email of row.emails) (byEmail[email] ??= []).push(row.breach.id);
    for (const ids of Object.values(byEmail)) ids.sort();
    expect(byEmail).toEqual({ [ALICE]: ['Adobe', 'LinkedIn'], [NET]: ['Dropbox'] });
    // Every lookup carried the key and a user agent, and the budget held.
    expect(hibp.requests.every((request) => request.userAgent !== undefined && request.userAgent !== '')).toBe(true);
    expect(hibp.busiestMinute(KEY)).toBeLessThanOrEqual(10);
  });

  it('the Graph page credits Have I Been Pwned for its breaches and labels nothing as demo', async () => {
    await page.evaluate(`location.hash = ${JSON.stringify(`#/graph?nodes=Adobe&property=${encodeURIComponent('->dataClass')}`)}`);
    await page.getByRole('heading', { name: 'Graph', level: 1 }).waitFor();
    const answer = page.getByRole('region', { name: 'The data this breach exposed: Adobe' });
    await answer.getByRole('table').waitFor();
    expect(
      await page
        .locator('.graph-credit')
        .getByRole('link', { name: /Have I Been Pwned/ })
        .count(),
    ).toBe(1);
    expect(await page.getByText(/Demo data/).count()).toBe(0);
  });
});
