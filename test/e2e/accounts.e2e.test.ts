// Nothing of one person reaches the next on the same machine: alice fills every page (a search,
// filters naming her email, an open breach, the graph, the report preview, a remote search
// token), signs out, bob signs in, and no page of bob's shows any of alice's breaches or emails
// (in its DOM, its fields' values or its address). Debian Chromium on the browser host, the real
// core, the real reference service with its demo users.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { E2E, ensureRendererBuilt, eventually, launchChromium, settle } from './harness.ts';

/** Where to keep screenshots of bob's pages for a person to look at (outside the repository); none when unset. */
const SHOTS = process.env.BREACH_MONITOR_SHOTS;

const PAGES = [
  { link: 'Overview', heading: 'Overview' },
  { link: 'Fix step by step', heading: 'Fix step by step' },
  { link: 'Breaches', heading: 'Breaches' },
  { link: 'Search', heading: 'Search' },
  { link: 'Graph', heading: 'Graph' },
  { link: 'Reports', heading: 'Reports' },
  { link: 'Settings', heading: 'Settings' },
] as const;

describe('one account after another in the same window', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  /** Breaches alice has and bob does not, and alice's emails. */
  let aliceOnly: string[];
  let aliceEmails: string[];
  let sensitive: string | undefined;

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  async function signIn(email: string): Promise<void> {
    e2e.email = email;
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    const remote = await e2e.serviceBreaches({ includeSensitive: true });
    await eventually(`${email}'s first sync`, async () => (await e2e.call('breaches-list', { includeSensitive: true })).total === remote.length);
  }

  /** Everything a person (or a screen reader) could read on the page, and where it is. */
  async function pageText(): Promise<string> {
    return page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { body: { innerHTML: string; innerText: string }; querySelectorAll(s: string): ArrayLike<{ value: string }> }; location: { hash: string } })
        .document;
      const values = Array.from(doc.querySelectorAll('input, textarea, select')).map((field) => field.value);
      return [doc.body.innerHTML, doc.body.innerText, ...values, (globalThis as unknown as { location: { hash: string } }).location.hash].join('\n');
    });
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: 'bob@example.com' });
    await e2e.startService();
    // The service knows a person once their app has called POST /user (it does at sign-in); the test asks first.
    for (const email of ['bob@example.com', 'alice@example.com']) {
      e2e.email = email;
      const response = await fetch(`${e2e.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${await e2e.serviceToken()}` } });
      expect(response.ok).toBe(true);
      e2e.email = 'bob@example.com';
    }
    const bobIds = new Set((await e2e.serviceBreaches({ includeSensitive: true })).map((item) => item.breach.id));
    e2e.email = 'alice@example.com';
    const alice = await e2e.serviceBreaches({ includeSensitive: true });
    aliceOnly = alice.map((item) => item.breach.id).filter((id) => !bobIds.has(id));
    aliceEmails = [...new Set(alice.flatMap((item) => item.breachedAccounts.map((account) => account.email)))];
    sensitive = alice.find((item) => item.breach.isSensitive && !bobIds.has(item.breach.id))?.breach.id;
    await e2e.startApp();
    page = await e2e.openApp();
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
  });

  it('alice and bob have breaches of their own (the test would prove nothing otherwise)', () => {
    expect(aliceOnly.length).toBeGreaterThan(0);
    expect(aliceEmails).toContain('alice@example.com');
  });

  it('alice fills every page', { timeout: 90_000 }, async () => {
    await signIn('alice@example.com');
    // Opted in to sensitive breaches (one setting for the app), so her pages hold all of hers.
    await nav('Settings');
    await page.getByRole('checkbox', { name: 'Show sensitive breaches' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await eventually('the setting saved', async () => (await e2e.call('settings-get', {})).showSensitive === true);
    const target = sensitive ?? aliceOnly[0]!;
    const email = aliceEmails[0]!;

    // Breaches: her email as a filter, sensitive shown, her breach open.
    await page.goto(`${new URL(page.url()).origin}${new URL(page.url()).pathname}#/breaches/${encodeURIComponent(target)}?includeSensitive=true&email=${encodeURIComponent(email)}`);
    await page
      .getByRole('article', { name: target })
      .or(page.getByRole('heading', { level: 2, name: target }))
      .first()
      .waitFor();

    // Search: her breach found by its id.
    await nav('Search');
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill(target);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('list', { name: 'Matching breaches' }).waitFor();
    // A remote instance with her API token.
    const { token } = await e2e.service!.search.tokens.create('local', { scopes: ['ai-search:read', 'ai-search:run'] });
    const form = page.getByRole('region', { name: 'Remote search instance' });
    await form.getByRole('textbox', { name: 'API base URL' }).fill(`${e2e.serviceOrigin}/client/v4`);
    await form.getByRole('textbox', { name: 'Account ID' }).fill('local');
    await form.getByRole('textbox', { name: 'Instance name' }).fill('breaches');
    await form.getByLabel('API token').fill(token);
    await form.getByRole('button', { name: 'Save instance' }).click();
    await form.getByText(/^Saved\./).waitFor();
    expect((await e2e.call('search-remote-get', {})).hasToken).toBe(true);

    // Graph: her breach as the start node, answered.
    await page.goto(`${new URL(page.url()).origin}${new URL(page.url()).pathname}#/graph?nodes=${encodeURIComponent(target)}`);
    await page
      .getByRole('region', { name: `Everything about this breach: ${target}`, exact: true })
      .getByRole('table')
      .waitFor();

    // Reports: the preview of her report; Fix and Overview with her data.
    await nav('Reports');
    await page.locator('.printable-report').waitFor();
    await nav('Fix step by step');
    await page.getByRole('heading', { level: 1, name: 'Fix step by step' }).waitFor();
    await nav('Overview');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await settle(page);
    expect(await pageText()).toContain(email);
  });

  it('bob, signing in after alice signed out, sees none of her breaches or emails on any page', { timeout: 120_000 }, async () => {
    await nav('Settings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn('bob@example.com');
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });

    // The page bob lands on first, before he goes anywhere.
    await settle(page);
    const leaks: string[] = [];
    const check = async (where: string) => {
      const text = await pageText();
      for (const id of aliceOnly) {
        const at = new RegExp(`\\b${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).exec(text);
        if (at) leaks.push(`${where}: breach ${id} in “…${text.slice(Math.max(0, at.index - 80), at.index + id.length + 40)}…”`);
      }
      for (const email of aliceEmails) if (text.includes(email)) leaks.push(`${where}: email ${email}`);
    };
    await check('first screen');
    for (const { link, heading } of PAGES) {
      await nav(link);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await settle(page);
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `bob-after-alice-${link.toLowerCase().replace(/\W+/g, '-')}.png`), fullPage: true });
      await check(link);
    }
    expect(leaks).toEqual([]);
    // Alice's token is hers: bob's search settings have none.
    expect((await e2e.call('search-remote-get', {})).hasToken).toBe(false);
  });
});
