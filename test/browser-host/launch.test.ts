// Opening the browser host: a one-time link the page strips from its address bar, handed to
// the browser through a private page so no code shows on a command line.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/app.ts';
import { createBrowserHostBridge } from '../../electron/browser-host/browserHostBridge.ts';
import { startBrowserHost, type BrowserHost } from '../../electron/browser-host/BrowserHost.ts';
import { openLaunchPage } from '../../electron/browser-host/launchPage.ts';
import { LAUNCH_CODE_TTL_MS } from '../../electron/browser-host/guards.ts';
import { launchResolvedBrowser } from '../support/browser.ts';

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

/** A name that resolves to loopback in the test browser only: a DNS-rebinding attacker's name for the host. */
const REBOUND = 'rebound.test';

/**
 * The built renderer's shape in miniature: a stylesheet and a module script named by relative
 * URLs, as Vite writes them (`base: './'`). The script draws into #root and says whether the
 * style sheet was already applied when it ran, and with which session.
 */
function writeRenderer(dir: string): void {
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Breach Monitor</title>
    <link rel="icon" type="image/svg+xml" href="./favicon.svg" />
    <script type="module" crossorigin src="./assets/app.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/app.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`,
  );
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dir, 'assets', 'app.css'), ':root { --app-styled: yes; }\n');
  writeFileSync(
    path.join(dir, 'assets', 'app.js'),
    `const styled = getComputedStyle(document.documentElement).getPropertyValue('--app-styled').trim() || 'no';
const heading = document.createElement('h1');
heading.textContent = 'The app';
const facts = document.createElement('p');
facts.id = 'facts';
facts.textContent = 'styled: ' + styled + '; session held: ' + (sessionStorage.getItem('monitor-secret') ? 'yes' : 'no');
document.getElementById('root').replaceChildren(heading, facts);
// An inline script the app did not ship (as an injection would add one): the page's policy must refuse it.
const injected = document.createElement('script');
injected.text = 'document.documentElement.dataset.injected = "ran";';
document.head.append(injected);
`,
  );
}

describe('the launch link in a real browser', () => {
  let dir: string;
  let core: Core;
  let host: BrowserHost;
  let browser: Browser;
  let now = Date.now();
  /** Another local web server, on another port: a page the person opened that is not the app. */
  let foreign: Server;
  let foreignOrigin: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bm-launch-'));
    const rendererDir = path.join(dir, 'renderer');
    writeRenderer(rendererDir);
    core = await startCore({ dataDir: path.join(dir, 'data'), keychain: false, host: createBrowserHostBridge({ log: () => {} }) });
    host = await startBrowserHost({ router: core.router, bus: core.bus, rendererDir, secret: SECRET, now: () => now });
    browser = await launchResolvedBrowser([`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`]);
    foreign = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>another site</title><p>another site</p>'));
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await core?.close();
    await new Promise((resolve) => foreign?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * What the host answered the page, as "METHOD /path status", read from the browser's network
   * log (DevTools protocol): a page may not read a refused cross-origin answer, the test may.
   */
  async function hostAnswers(page: Page, hostOrigin: string): Promise<() => string[]> {
    const cdp = await page.context().newCDPSession(page);
    const requests = new Map<string, { method: string; url: string }>();
    const statuses = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (event) => requests.set(event.requestId, { method: event.request.method, url: event.request.url }));
    cdp.on('Network.responseReceivedExtraInfo', (event) => statuses.set(event.requestId, event.statusCode));
    await cdp.send('Network.enable');
    return () =>
      [...statuses].flatMap(([id, status]) => {
        const request = requests.get(id);
        return request?.url.startsWith(hostOrigin + '/') ? [`${request.method} ${new URL(request.url).pathname} ${status}`] : [];
      });
  }

  /** A fresh profile's tab, and every document it navigated to (not same-document changes) in order. */
  async function freshTab(): Promise<{ page: Page; documents: string[]; close(): Promise<void> }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(request.url());
    });
    return { page, documents, close: () => context.close() };
  }

  it('loads the app into the page that exchanged the code: one document, the code gone from the address bar and history', async () => {
    const link = host.launchUrl();
    const code = new URL(link).hash.slice('#code='.length);
    const tab = await freshTab();
    const answers = await hostAnswers(tab.page, host.origin);
    await tab.page.goto(link);
    await expect.poll(() => tab.page.getByRole('heading', { name: 'The app' }).count(), { timeout: 10_000 }).toBe(1);
    // The exchange is the page's own inline script: nothing but the app's public files (preloaded) is asked between the page and the exchange.
    await expect
      .poll(
        () =>
          answers()
            .filter((answer) => !/^GET \/app\/assets\//.test(answer))
            .slice(0, 2),
        { timeout: 5_000 },
      )
      .toEqual(['GET / 200', 'POST /__session 200']);
    // (Besides the app's files, and the browser's own look for a /favicon.ico.)
    expect(answers().filter((answer) => !/^GET \/app\/\S+ 200$|^GET \/favicon\.ico /.test(answer))).toEqual(['GET / 200', 'POST /__session 200']);
    // Its policy allows that one script by hash, not inline scripts: one the app adds does not run.
    expect(await tab.page.evaluate(() => (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document.documentElement.dataset.injected)).toBeUndefined();
    // The app's style sheet was applied before its script ran (no unstyled first frame).
    expect(await tab.page.locator('#facts').textContent()).toBe('styled: yes; session held: yes');
    // Loaded once, from the head, where the page had it from its first moment.
    expect(await tab.page.locator('link[rel="stylesheet"]').count()).toBe(1);
    expect(answers().filter((answer) => answer === 'GET /app/assets/app.css 200')).toHaveLength(1);
    expect(answers().filter((answer) => answer === 'GET /app/assets/app.js 200')).toHaveLength(1);
    // One document: the bootstrap page became the app (no second page load after the exchange).
    expect(tab.documents).toEqual([`${host.origin}/`]);
    // Its address is the app's, as a reload needs it, and names no code.
    expect(new URL(tab.page.url()).pathname).toBe('/app/');
    expect(tab.page.url()).not.toContain(code);
    expect(await tab.page.evaluate(() => (globalThis as unknown as { history: { length: number } }).history.length)).toBe(2); // about:blank, then this page
    const held = await tab.page.evaluate(() => sessionStorage.getItem('monitor-secret'));
    expect(held).toBeTruthy();
    expect(held).not.toBe(SECRET);
    // Back in history is the tab's blank start, never the link.
    await tab.page.goBack();
    expect(tab.page.url()).not.toContain(code);
    await tab.close();
  });

  it('a reload keeps the session: the app page loads directly, and the bootstrap page renews the cookie', async () => {
    const tab = await freshTab();
    await tab.page.goto(host.launchUrl());
    await tab.page.getByRole('heading', { name: 'The app' }).waitFor({ timeout: 10_000 });
    await tab.page.reload();
    await tab.page.getByRole('heading', { name: 'The app' }).waitFor({ timeout: 10_000 });
    expect(new URL(tab.page.url()).pathname).toBe('/app/');
    // The bootstrap address without a code: the token in sessionStorage renews the cookie.
    await tab.page.goto(host.origin + '/');
    await tab.page.getByRole('heading', { name: 'The app' }).waitFor({ timeout: 10_000 });
    expect(new URL(tab.page.url()).pathname).toBe('/app/');
    await tab.close();
  });

  it('refuses a link used twice, and one older than two minutes; neither page loads the app', async () => {
    const link = host.launchUrl();
    const first = await freshTab();
    await first.page.goto(link);
    await first.page.getByRole('heading', { name: 'The app' }).waitFor({ timeout: 10_000 });
    await first.close();

    const stale = host.launchUrl();
    for (const [name, url] of [
      ['used', link],
      ['expired', stale],
    ] as const) {
      if (name === 'expired') now += LAUNCH_CODE_TTL_MS;
      const tab = await freshTab();
      const answers = await hostAnswers(tab.page, host.origin);
      await tab.page.goto(url);
      await expect.poll(() => tab.page.getByRole('status').textContent(), { timeout: 10_000 }).toMatch(/already used, has expired/);
      expect(tab.page.url(), name).not.toContain(new URL(url).hash.slice(1));
      expect(await tab.page.evaluate(() => sessionStorage.getItem('monitor-secret')), name).toBeNull();
      // The app's public code was fetched all the same (the page's preload hints ask for it
      // while the exchange runs, not after it) but never ran, and nothing else
      // of the app was asked or given: no app page, no API call.
      expect(await tab.page.getByRole('heading', { name: 'The app' }).count(), name).toBe(0);
      expect(
        answers()
          .filter((answer) => !answer.startsWith('GET /favicon.ico '))
          .sort(),
        name,
      ).toEqual(['GET / 200', 'GET /app/assets/app.css 200', 'GET /app/assets/app.js 200', 'POST /__session 401']);
      await tab.close();
    }
  });

  it('refuses a foreign Host (DNS rebinding) before spending the code', async () => {
    const link = new URL(host.launchUrl());
    const tab = await freshTab();
    const response = await tab.page.goto(`http://${REBOUND}:${link.port}/${link.hash}`);
    expect(response?.status()).toBe(403);
    expect(await response?.text()).toMatch(/unexpected Host header/);
    // The code was never exchanged: it still opens the app at the right address.
    await tab.page.goto(link.href);
    await tab.page.getByRole('heading', { name: 'The app' }).waitFor({ timeout: 10_000 });
    await tab.close();
  });

  it('refuses every request from a page of another origin, even one holding a valid code', async () => {
    const link = new URL(host.launchUrl());
    const code = link.hash.slice('#code='.length);
    for (const origin of [foreignOrigin, `http://${REBOUND}:${new URL(foreignOrigin).port}`]) {
      const tab = await freshTab();
      const answers = await hostAnswers(tab.page, host.origin);
      await tab.page.goto(origin + '/');
      const outcomes = await tab.page.evaluate(
        async ({ target, code }) => {
          const attempt = (url: string, init: RequestInit) =>
            fetch(url, init).then(
              (response) => `answered ${response.type} ${response.status}`,
              () => 'failed',
            );
          return [
            // A cross-origin request with the code header is preflighted; the preflight is refused.
            await attempt(`${target}/__session`, { method: 'POST', headers: { 'x-monitor-code': code } }),
            // Simple requests go out without a preflight: the host refuses them by their Origin.
            await attempt(`${target}/__session`, { method: 'POST', mode: 'no-cors' }),
            await attempt(`${target}/api/invoke`, { method: 'POST', mode: 'no-cors', body: '{"type":"request","id":1,"channel":"auth-status","args":{}}' }),
            await attempt(`${target}/app/`, { mode: 'no-cors' }),
            // The app's public code, served without a session, is still not another site's.
            await attempt(`${target}/app/assets/app.js`, { mode: 'no-cors' }),
          ];
        },
        { target: host.origin, code },
      );
      // The page learns nothing (a refused preflight; the other answers are not its to read)…
      expect(outcomes, origin).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
      // …and the host answered each with its refusal of the Origin, not with a missing session.
      await expect.poll(() => answers().length, { timeout: 5_000 }).toBe(5);
      expect(answers().sort(), origin).toEqual(['GET /app/ 403', 'GET /app/assets/app.js 403', 'OPTIONS /__session 403', 'POST /__session 403', 'POST /api/invoke 403']);
      await tab.close();
    }
    // The code survived both pages' attempts: the person's own tab still opens the app with it.
    const tab = await freshTab();
    await tab.page.goto(link.href);
    await tab.page.getByRole('heading', { name: 'The app' }).waitFor({ timeout: 10_000 });
    await tab.close();
  });
});
