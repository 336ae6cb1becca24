// A tab left open while the app restarts (README: "so a tab left open reconnects after a
// restart"): the browser host comes back on the same port with the same secret, as `npm start`
// keeps them in browser-host.json, and the open tab reconnects by itself — no "Refused", no new
// link. Debian Chromium, the real core and browser host, the real reference service.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newHostSecret } from '../../tools/hostState.ts';
import { E2E, ensureRendererBuilt, launchChromium } from './harness.ts';

const SHOTS = process.env.BREACH_MONITOR_SHOTS;

describe('an open tab across a restart of the app', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  const secret = newHostSecret();

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: 'alice@example.com' });
    await e2e.startService();
    await e2e.startApp({ host: { secret } });
    page = await e2e.openApp();
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
  });

  it('reconnects by itself once the app is back on the same port with the same secret', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    const port = Number(new URL(e2e.app!.origin).port);
    const address = page.url();

    await e2e.stopApp();
    const lost = page.getByRole('region', { name: 'Connection lost' });
    await lost.waitFor();
    await e2e.startApp({ host: { port, secret } });
    expect(new URL(e2e.app!.origin).port).toBe(String(port));

    // Within the reconnect backoff (at most 5 s between tries on loopback), without a new link.
    const reconnected = await lost.waitFor({ state: 'detached', timeout: 15_000 }).then(
      () => true,
      () => false,
    );
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, 'tab-after-restart.png') });
    }
    expect(reconnected).toBe(true);
    expect(page.url()).toBe(address);
    // The page talks to the new core: a screen change asks it for data.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Breaches', exact: true })
      .click({ timeout: 10_000 })
      .catch(async (error: unknown) => {
        throw new Error(`no navigation after the reconnect; page errors: ${JSON.stringify(e2e.pageErrors)}; body: ${(await page.locator('body').innerHTML()).slice(0, 600)}`, { cause: error });
      });
    await page.getByRole('listbox', { name: 'Breaches' }).waitFor();
    expect(await page.getByText(/Refused|no longer connected/).count()).toBe(0);
    // A reload keeps working too: the session is still one this host accepts.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  });
});
