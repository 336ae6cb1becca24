// Sign-in where no browser opens (RFC 8252: the app shows the authorization link instead), and
// in the browser host, where the app's own page opens the sign-in in the same browser. Debian
// Chromium, the real core, the real reference service and its OpenID provider.
import type { Browser, Page } from 'playwright-core';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { E2E, ensureRendererBuilt, launchChromium, seriousFindings, captureScreen, unnamedControls } from './harness.ts';

const ALICE = 'alice@example.com';

/** The person signs in on the provider's page the link opened, and allows access. */
async function signInOnProvider(tab: Page, email: string): Promise<void> {
  await tab.getByLabel('Email').fill(email);
  await tab.getByLabel('Password').fill('correct horse battery staple');
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await tab.getByRole('button', { name: 'Allow' }).click();
  await tab.waitForURL((target) => target.hostname === '127.0.0.1' && target.pathname === '/callback', { timeout: 10_000 });
  await tab.getByRole('heading').waitFor({ timeout: 10_000 });
}

describe('sign-in when no browser opens, in Chromium against the real stack', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E | undefined;

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    await e2e?.close();
    e2e = undefined;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the link when the opener fails; following it signs in', async () => {
    e2e = new E2E({ browser, email: ALICE });
    await e2e.startService();
    const tried: string[] = [];
    await e2e.startApp({
      opener: (url) => {
        tried.push(url);
        // What `xdg-open` does on a headless machine.
        return Promise.reject(new Error('xdg-open exited with code 3'));
      },
    });
    const page = await e2e.openApp();
    await e2e.context!.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.app!.origin });

    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'couldn’t open a web browser' }).waitFor();
    const link = page.getByRole('link', { name: 'Open the sign-in page' });
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe(tried[0]);
    expect(href.startsWith(`${e2e.issuer}/auth?`)).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Sign-in link' }).inputValue()).toBe(href);
    const results = await captureScreen(page, 'sign-in-link');
    expect(seriousFindings(results)).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);

    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(href);

    // The link is shown (waited for above); its click skips Playwright's "stable" check, which waits for
    // two animation frames and once timed out after 30 s on a loaded CI machine with nothing moving.
    await link.waitFor({ state: 'visible' });
    const [tab] = await Promise.all([e2e.context!.waitForEvent('page'), link.click({ force: true })]);
    await signInOnProvider(tab, ALICE);
    expect(await tab.locator('body').innerText()).toMatch(/signed in/i);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    expect(await e2e.call('auth-status', {})).toMatchObject({ state: 'signed-in', account: { email: ALICE } });
    expect((await e2e.call('auth-status', {})).signIn).toBeUndefined();
    expect(e2e.pageErrors).toEqual([]);
  });

  it('in the browser host, opens the sign-in in the same browser the app runs in', async () => {
    e2e = new E2E({ browser, email: ALICE });
    await e2e.startService();
    await e2e.startApp({ opener: 'host' });
    const page = await e2e.openApp();

    const [tab] = await Promise.all([e2e.context!.waitForEvent('page'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await tab.waitForURL((url) => url.href.startsWith(`${e2e!.issuer}/`));
    await page.getByText('Finish signing in in the new tab.').waitFor();
    await page.getByRole('link', { name: 'Open the sign-in page' }).waitFor();
    await signInOnProvider(tab, ALICE);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    expect(await e2e.call('auth-status', {})).toMatchObject({ state: 'signed-in', account: { email: ALICE } });
    expect(e2e.signIns).toBe(0);
    expect(e2e.pageErrors).toEqual([]);
  });
});
