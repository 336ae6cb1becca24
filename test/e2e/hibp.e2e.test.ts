// Real breach data end to end, the way a person gets it: from an empty data folder they choose
// "Check my addresses with Have I Been Pwned" and paste their key; the app restarts its own
// reference service with the key and `--owner` (tools/localServiceRunner.ts), asking the HIBP
// stand-in (test/support/hibpStandIn.ts, which follows haveibeenpwned.com/API/v3); they sign in as
// its owner (no demo user, no password, no browser) and add their three addresses through the UI
// (test/e2e/ownService.ts). While the service has not checked them the app says "Checking N of your
// addresses…" (never "No breaches"); then each address reads "checked …", the clean one "in no
// known breach"; the list holds exactly the breaches the stand-in holds for them; Have I Been Pwned
// is credited; no demo user and no demo label anywhere.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HibpStandIn } from '../support/hibpStandIn.ts';
import { runAxe } from './axe.ts';
import { ensureRendererBuilt, eventually, launchChromium, SCREENSHOT_DIR, seriousFindings, settle, type ScreenAudit } from './harness.ts';
import { expectNoDemo, OwnServiceApp } from './ownService.ts';

const KEY = '0123456789abcdef0123456789abcdef';
/** In two breaches, and in stealer logs. */
const SAM = 'sam@example.org';
/** In no breach the stand-in knows. */
const WORK = 'sam.work@example.org';
/** In one breach. */
const NET = 'sam@example.net';
const OUT = path.join(SCREENSHOT_DIR, 'breach-data');

describe('real breach data from Have I Been Pwned (stand-in), end to end', { timeout: 60_000 }, () => {
  let browser: Browser;
  let own: OwnServiceApp;
  let page: Page;
  let hibp: HibpStandIn;
  const audits: ScreenAudit[] = [];
  /** Lets the stand-in answer the account searches it holds (see the first two tests). */
  let answerSearches: (() => void) | undefined;

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    hibp = await HibpStandIn.start({
      keys: { [KEY]: { rpm: 10, stealerLogs: true } },
      accounts: { [SAM]: ['Adobe', 'LinkedIn'], [NET]: ['Dropbox'] },
      stealerLogs: { [SAM]: ['netflix.com', 'spotify.com'] },
    });
    // The stand-in holds its answers a few seconds below; the service waits longer than that for them.
    own = await OwnServiceApp.start({ browser, hibpUrl: hibp.url, name: 'hibp', viewport: { width: 1360, height: 860 }, serviceEnv: { BREACH_SERVICE_HIBP_TIMEOUT: '60000' } });
    page = own.page;
  }, 120_000);

  afterAll(async () => {
    answerSearches?.();
    await own?.close();
    await browser?.close();
    await hibp?.close();
  });

  it('with the key the person signs in as the owner of their service and adds their addresses: no demo user anywhere', async () => {
    await own.enterKey(KEY);
    await own.continueToAddresses();
    // No browser tab, no sign-in form, no demo user.
    expect(own.opened).toEqual([]);
    await expectNoDemo(page);
    // Have I Been Pwned does not answer at once: until it does, the addresses are being checked.
    answerSearches = hibp.holdAccountSearches();
    for (const email of [SAM, WORK, NET]) await own.addAddress(email);
    // The person's own service: added and verified at once, as its operator.
    const listed = (await own.serviceGet('/user/emails')) as { email: string; verified: boolean; verifiedBy?: string }[];
    expect(listed.map(({ email, verified, verifiedBy }) => ({ email, verified, verifiedBy })).sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      [SAM, NET, WORK].sort().map((email) => ({ email, verified: true, verifiedBy: 'operator' })),
    );
    await page.getByRole('button', { name: 'Show my breaches' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
  }, 120_000);

  it('pending is shown as checking, then every address as checked, the clean one "in no known breach"', async () => {
    // The first answer on the main screen: the service has not heard back from HIBP yet.
    const banner = page.getByRole('region', { name: 'Breach checks' });
    const firstLook = await eventually('the first checks', async () => {
      const view = await own.call('checks-get', {});
      return view.source === 'hibp' ? view : undefined;
    });
    expect(firstLook.pending).toBe(3);
    await banner.getByText('Checking 3 of your addresses…').waitFor();
    expect(await page.getByText('No breaches found').count()).toBe(0);
    mkdirSync(OUT, { recursive: true });
    await settle(page);
    await page.screenshot({ path: path.join(OUT, 'hibp-pending-light.png') });
    answerSearches!();

    // The app looks again by itself while addresses are pending (no "Sync now" pressed).
    await eventually('every address checked', async () => (await own.call('checks-get', {})).pending === 0, 150_000);
    const card = page.getByRole('region', { name: 'Your addresses' });
    await card.getByText(/in no known breach/).waitFor({ timeout: 10_000 });
    const rows = await card.getByRole('listitem').allTextContents();
    expect(rows.find((row) => row.startsWith(WORK))).toMatch(/checked .*, in no known breach/);
    expect(rows.find((row) => row.startsWith(SAM))).toMatch(/checked .*, in 2 breaches/);
    expect(rows.find((row) => row.startsWith(NET))).toMatch(/checked .*, in 1 breach/);
    await page.getByRole('group', { name: 'Stealer logs' }).getByText('An infostealer captured your passwords for netflix.com, spotify.com').waitFor();
    expect(await banner.count()).toBe(0);
    // What a first check found is the starting point, not news: no "new breaches" banner, no notification.
    expect(await page.getByRole('region', { name: 'New breaches' }).count()).toBe(0);
    expect(own.events.filter((event) => event.event === 'breaches-new')).toEqual([]);
    expect(await page.getByRole('status').filter({ hasText: 'Demo data' }).count()).toBe(0);
    await expectNoDemo(page);
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

  it('the list holds exactly the breaches the stand-in holds for these addresses, at the app and at the service', async () => {
    await eventually('the list to follow the checks', async () => (await own.call('breaches-list', { includeSensitive: true })).total === 3, 30_000);
    const list = await own.call('breaches-list', { includeSensitive: true });
    const byEmail: Record<string, string[]> = {};
    for (const row of list.rows) for (const email of row.emails) (byEmail[email] ??= []).push(row.breach.id);
    for (const ids of Object.values(byEmail)) ids.sort();
    expect(byEmail).toEqual({ [SAM]: ['Adobe', 'LinkedIn'], [NET]: ['Dropbox'] });
    // The service answers the person the same (and nothing of anyone else's).
    const served = (await own.serviceGet('/user/breaches?includeSensitive=true')) as { breach: { id: string }; breachedAccounts: { email: string }[] }[];
    const servedByEmail: Record<string, string[]> = {};
    for (const item of served) for (const account of item.breachedAccounts) (servedByEmail[account.email] ??= []).push(item.breach.id);
    for (const ids of Object.values(servedByEmail)) ids.sort();
    expect(servedByEmail).toEqual(byEmail);
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
