// Where breach data comes from, end to end in Chromium: the real reference service started with
// `--dev` (so it serves invented data and says `breach-data: demo`), the real core and the
// browser host. The first-run screen's three choices by role and name; the demo label on every
// screen that shows exposures (the Graph page and its answers too, never credited to Have I
// Been Pwned) and on none that does not; "Check a password" against the
// Pwned Passwords stand-in, asserting what reached it; screenshots in light and dark with axe.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { runAxe } from './axe.ts';
import { E2E, ensureRendererBuilt, eventually, launchChromium, SCREENSHOT_DIR, seriousFindings, settle, unnamedControls, type ScreenAudit } from './harness.ts';
import { sha1Hex, startPwnedPasswordsStandIn, type PwnedPasswordsStandIn } from '../support/pwnedPasswordsStandIn.ts';

const OUT = path.join(SCREENSHOT_DIR, 'breach-data');
const DEMO_LABEL = 'Demo data — these breaches are invented.';
const PASSWORD = 'P@ssw0rd';

describe('breach data in Chromium against the real stack', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  let pwned: PwnedPasswordsStandIn;
  const audits: ScreenAudit[] = [];

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const demoLabel = () => page.getByRole('status').filter({ hasText: DEMO_LABEL });

  async function capture(name: string): Promise<void> {
    mkdirSync(OUT, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await settle(page);
      await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`) });
      audits.push({ screen: name, theme, findings: await runAxe(page) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(seriousFindings(audits.filter((audit) => audit.screen === name)), `axe on ${name}`).toEqual([]);
    expect(await unnamedControls(page), `controls without a name on ${name}`).toEqual([]);
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    pwned = await startPwnedPasswordsStandIn({ [PASSWORD]: 52256 });
    e2e = new E2E({ browser, email: 'alice@example.com' });
    await e2e.startService();
    await e2e.startApp();
    page = await e2e.openApp();
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
    await pwned?.close();
  });

  it('first run: three honest choices, found by role and name; the key is asked for with where to get one', async () => {
    const group = page.getByRole('group', { name: 'Breach data' });
    await group.waitFor();
    const hibp = group.getByRole('radio', { name: /Check my addresses with Have I Been Pwned/ });
    const service = group.getByRole('radio', { name: /Connect to a breach-alert service/ });
    const demo = group.getByRole('radio', { name: /Try it with demo data/ });
    // The harness's service is not on the local port: the existing flow (connect to a service) is
    // preselected, with its contract's two choices under it; the other choices raise no contract.
    // (chosen once the host has said whether it runs the local service: until then, nothing moves)
    await expect.poll(() => service.isChecked()).toBe(true);
    await expect(group.getByRole('radio').count()).resolves.toBe(5);
    await hibp.check();
    await expect(group.getByRole('radio').count()).resolves.toBe(3);
    const key = page.getByLabel('Have I Been Pwned API key');
    await key.waitFor();
    expect(await key.getAttribute('type')).toBe('password');
    expect(await page.getByRole('link', { name: 'Get an API key from Have I Been Pwned' }).getAttribute('href')).toBe('https://haveibeenpwned.com/API/Key');
    await capture('welcome-hibp');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Paste your API key.').waitFor();
    await demo.check();
    expect(await key.count()).toBe(0);
    await service.check();
    expect(await page.getByRole('textbox', { name: 'Service URL' }).inputValue()).toBe(e2e.apiBaseUrl);
  });

  it('signed in with the service’s demo data: the label is on every screen that shows exposures, and only there', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    await eventually('the service to say its data is demo', async () => (await e2e.call('checks-get', {})).source === 'demo', 20_000);
    const list = await e2e.call('breaches-list', { includeSensitive: true });
    expect(list.total).toBeGreaterThan(0);

    for (const [link, heading] of [
      ['Overview', 'Overview'],
      ['Breaches', 'Breaches'],
      ['Fix step by step', 'Fix step by step'],
      ['Reports', 'Reports'],
    ] as const) {
      await nav(link);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await demoLabel().waitFor();
      expect(await demoLabel().count(), link).toBe(1);
      expect(await demoLabel().getAttribute('aria-live'), link).toBe('polite');
      if (link === 'Overview') await capture('overview-demo');
    }
    // The printed report carries its own label (the screen's band is not printed).
    await page.getByRole('note').filter({ hasText: DEMO_LABEL }).waitFor();
    await page.emulateMedia({ media: 'print' });
    expect(await demoLabel().isVisible()).toBe(false);
    expect(await page.getByRole('note').filter({ hasText: DEMO_LABEL }).isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });

    // The Graph page and each of its answers: the embedded engine answers from these invented
    // breaches, so the page carries the band, each answer its own label, and nothing credits
    // Have I Been Pwned with them.
    const breach = list.rows.find((row) => !row.breach.isSensitive)!.breach.id;
    await page.evaluate(`location.hash = ${JSON.stringify(`#/graph?nodes=${encodeURIComponent(breach)}&property=${encodeURIComponent('->dataClass')}`)}`);
    await page.getByRole('heading', { name: 'Graph', level: 1 }).waitFor();
    const answer = page.getByRole('region', { name: `The data this breach exposed: ${breach}` });
    await answer.getByRole('table').waitFor();
    expect(await demoLabel().count()).toBe(1);
    expect(await answer.getByText('Demo data (invented)').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /Have I Been Pwned/ }).count()).toBe(0);
    expect(await page.getByText('CC BY 4.0').count()).toBe(0);
    await capture('graph-demo');

    // The detail of one breach, beside the list.
    await nav('Breaches');
    await page.getByRole('listbox', { name: 'Breaches' }).getByRole('option').first().click();
    await page.getByRole('region', { name: 'Breach detail' }).getByRole('article').waitFor();
    expect(await demoLabel().count()).toBe(1);
    await capture('detail-demo');

    for (const [link, heading] of [
      ['Settings', 'Settings'],
      ['Check a password', 'Check a password'],
    ] as const) {
      await nav(link);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      expect(await demoLabel().count(), link).toBe(0);
    }
  });

  it('Check a password: only 5 hash characters reach Pwned Passwords; the count is shown and the field cleared', async () => {
    await e2e.call('settings-set', { pwnedPasswordsUrl: pwned.origin });
    await nav('Check a password');
    const field = page.getByLabel('Password', { exact: true });
    await field.fill(PASSWORD);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByText('Seen 52,256 times in breaches — never use it.').waitFor();
    expect(await field.inputValue()).toBe('');
    await capture('password-pwned');

    const hash = sha1Hex(PASSWORD);
    expect(pwned.requests).toHaveLength(1);
    const [received] = pwned.requests;
    expect(received!.path).toMatch(/^\/range\/[0-9A-F]{5}$/);
    expect(received!.path).toBe(`/range/${hash.slice(0, 5)}`);
    expect(received!.query).toBe('');
    expect(received!.body).toBe('');
    expect(received!.headers['add-padding']).toBe('true');
    const everything = JSON.stringify(received);
    expect(everything).not.toContain(PASSWORD);
    expect(everything.toUpperCase()).not.toContain(hash.slice(5, 12));
    // Nor did the page put it in its address.
    expect(page.url()).not.toContain(PASSWORD);
    expect(page.url().toUpperCase()).not.toContain(hash.slice(0, 12));

    await field.fill('not one anybody used, surely');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByText('Not found in any known breach.').waitFor();
    pwned.behaviour = 'server-error';
    await field.fill('a third');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The password couldn’t be checked.' }).waitFor();
    pwned.behaviour = 'answer';
  });

  it('Settings → Breach data offers the same three choices, the key only as its last characters', async () => {
    await nav('Settings');
    const section = page.getByRole('form', { name: 'Breach data' });
    await section.waitFor();
    await expect(section.getByRole('radio').count()).resolves.toBe(3);
    await section.getByRole('radio', { name: /Have I Been Pwned, with my API key/ }).check();
    await section.getByText('Switching removes the invented demo breaches from this computer.').waitFor();
    await capture('settings-breach-data');
  });
});
