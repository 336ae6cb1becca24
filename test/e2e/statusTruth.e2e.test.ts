// What the window says is what happened: the service's port held by another program gives a
// sign-in error that names the port and what to do; after an outage one press of "Sync now"
// shows progress at once and brings "Online" back. Debian Chromium on the browser host, the real
// core, the real reference service; "another program" is a plain HTTP server on the port.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from '../../tools/browserApp.ts';
import { tempDir } from '../core/auth/harness.ts';
import { E2E, ensureRendererBuilt, launchChromium } from './harness.ts';
import { eventually } from '../support/waitFor.ts';

const SHOTS = process.env.BREACH_MONITOR_SHOTS;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

describe('status and errors in words a person can act on', { timeout: 60_000 }, () => {
  let browser: Browser;

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('another program on the service port: the sign-in error names the port and what to do', { timeout: 60_000 }, async () => {
    const other: Server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    let app: BrowserApp | undefined;
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
    try {
      app = await startBrowserApp({
        dataDir: tempDir('bm-e2e-port'),
        service: false,
        config: { issuer: `http://127.0.0.1:${port}/oidc`, apiBaseUrl: `http://127.0.0.1:${port}/api/v1` },
        keychain: false,
        log: () => {},
      });
      const page = await context.newPage();
      await page.goto(app.launchUrl());
      await page.getByRole('button', { name: 'Sign in' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      await shot(page, 'port-taken-sign-in');
      const text = (await alert.textContent()) ?? '';
      expect(text).toContain(`Another program is probably using port ${port}`);
      expect(text).toContain('answered HTTP 404');
      expect(text).toContain('Settings → Service');
      expect(text).not.toMatch(/OAUTH_|unexpected HTTP response status code/);
    } finally {
      await context.close();
      await app?.close();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  describe('after an outage', () => {
    let e2e: E2E;
    let page: Page;
    beforeAll(async () => {
      e2e = new E2E({ browser, email: 'alice@example.com' });
      await e2e.startService();
      await e2e.startApp();
      page = await e2e.openApp();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    }, 60_000);
    afterAll(async () => {
      await e2e?.close();
    });

    it('one press of Sync now, once the service is back: progress at once, then Online', { timeout: 90_000 }, async () => {
      const bar = page.getByRole('banner');
      const syncNow = bar.getByRole('button', { name: 'Sync now' });
      // The first sync after sign-in, through the core first: on a loaded machine (the whole suite
      // in parallel) it can take longer than a locator's patience.
      await eventually('the first sync', async () => ((await e2e.call('sync-status', {})).lastSyncAt !== undefined ? true : undefined), 60_000);
      await bar.getByText(/Last synced/).waitFor({ timeout: 30_000 });
      await e2e.stopService();
      await syncNow.click();
      await bar.getByText('Offline', { exact: true }).waitFor();
      // The scheduler retries by itself meanwhile, each wait longer than the last.
      await page.waitForTimeout(8_000);
      await shot(page, 'sync-offline');
      await e2e.startService();

      // Every text the sync line shows from the press on (a sync over loopback lasts milliseconds).
      await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document;
        const g = globalThis as unknown as { __lines: string[]; MutationObserver: new (callback: () => void) => { observe(target: unknown, options: unknown): void } };
        g.__lines = [];
        const line = doc.querySelector('.statusbar-sync')!;
        new g.MutationObserver(() => g.__lines.push(line.textContent ?? '')).observe(line, { subtree: true, childList: true, characterData: true });
      });
      const pressedAt = Date.now();
      await syncNow.click();
      // At once, before the core's answer: the line says a sync is running.
      await page.waitForFunction(() => (globalThis as unknown as { __lines: string[] }).__lines.some((text) => /Syncing…|Sending your changes|Fetching breaches|Saving/.test(text)), undefined, {
        timeout: 1_000,
      });
      expect(Date.now() - pressedAt).toBeLessThan(1_000);
      await bar.getByText('Online', { exact: true }).waitFor({ timeout: 5_000 });
      await bar.getByText(/Last synced just now/).waitFor({ timeout: 5_000 });
      expect(await bar.getByText(/Last sync failed/).count()).toBe(0);
      await shot(page, 'sync-after-one-press');
    });
  });
});
