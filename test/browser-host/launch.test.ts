// Opening the browser host: a one-time link the page strips from its address bar, handed to
// the browser through a private page so no code shows on a command line.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/app.ts';
import { createBrowserHostBridge } from '../../electron/browser-host/browserHostBridge.ts';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/BrowserHost.ts';
import { openLaunchPage } from '../../electron/browser-host/launchPage.ts';
import { launchChromium } from '../core/auth/harness.ts';

const SECRET = 'launch-secret-0123456789abcdefghijklmnopqrstuvwxyz';

describe('the launch page', () => {
  it('gives the opener only a private file path; the code is inside, readable by its owner only', async () => {
    const url = 'http://127.0.0.1:4567/#code=one-time-code-abc';
    const opened: string[] = [];
    const page = await openLaunchPage(url, async (file) => void opened.push(file));
    try {
      expect(opened).toEqual([page.file]);
      expect(page.file).not.toContain('one-time-code-abc');
      expect(readFileSync(page.file, 'utf8')).toContain('location.replace("http://127.0.0.1:4567/#code=one-time-code-abc")');
      if (process.platform !== 'win32') {
        expect(statSync(page.file).mode & 0o777).toBe(0o600);
        expect(statSync(path.dirname(page.file)).mode & 0o777).toBe(0o700);
      }
    } finally {
      page.remove();
    }
    expect(existsSync(page.file)).toBe(false);
  });

  it('removes itself when the opener fails, and refuses anything but the local host', async () => {
    let file = '';
    await expect(
      openLaunchPage('http://127.0.0.1:4567/#code=x', async (given) => {
        file = given;
        throw new Error('no browser');
      }),
    ).rejects.toThrow('no browser');
    expect(existsSync(file)).toBe(false);
    await expect(openLaunchPage('https://evil.example/#code=x', async () => {})).rejects.toThrow(/only opens the local browser host/);
  });
});

describe('the launch link in a real browser', () => {
  let dir: string;
  let core: Core;
  let host: BrowserHost;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bm-launch-'));
    const rendererDir = path.join(dir, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>app</title><h1>app</h1>');
    core = await startCore({ dataDir: path.join(dir, 'data'), keychain: false, host: createBrowserHostBridge({ log: () => {} }) });
    host = await startBrowserHost({ router: core.router, bus: core.bus, rendererDir, secret: SECRET });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await core?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the app, strips the code from the address bar and history, and the link does not work twice', async () => {
    const link = host.launchUrl();
    const code = new URL(link).hash;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/app/', { timeout: 10_000 });
    expect(page.url()).not.toContain(code.slice(1));
    const held = await page.evaluate(() => sessionStorage.getItem('monitor-secret'));
    expect(held).toBeTruthy();
    expect(held).not.toBe(SECRET);
    // Back in history is the bootstrap page without its code (replaceState), never the link.
    await page.goBack();
    expect(page.url()).not.toContain(code.slice(1));
    // A reload keeps the session (the token in sessionStorage renews the cookie).
    await page.goto(new URL(link).origin + '/');
    await page.waitForURL((url) => url.pathname === '/app/', { timeout: 10_000 });

    const other = await (await browser.newContext()).newPage();
    await other.goto(link);
    await expect.poll(() => other.locator('#status').textContent(), { timeout: 10_000 }).toMatch(/already used, has expired/);
    expect(other.url()).not.toContain(code.slice(1));
    await context.close();
  });
});
