// The app as a person with their own Have I Been Pwned key runs it, for end-to-end tests: the
// local reference service as its own process (tools/localServiceRunner.ts: the quick start on demo
// data, restarted with `--owner` and the key once the person chooses it; its HIBP base pointed at
// the stand-in, test/support/hibpStandIn.ts, or wherever a test says), the real core and the
// browser host, the built renderer in Chromium. And the steps and checks such a person's tests
// share: choosing the key on the first screen and signing in as the service's owner (no demo user,
// no password, no browser), adding addresses through the UI, reading the service as that person.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROOT, startBrowserApp, type BrowserApp } from '../../tools/browserApp.ts';
import { LocalServiceRunner } from '../../tools/localServiceRunner.ts';
import { HIBP_URL_VARIABLE } from '../../tools/referenceService.ts';
import { readAccountRecord } from '../../electron/core/auth/accountRecord.ts';
import type { EventName } from '../../shared/ipc/events.ts';
import { freePort, tempDir } from '../core/auth/harness.ts';
import { runAxe } from './axe.ts';
import { seriousFindings, settle, unnamedControls, type ScreenAudit } from './harness.ts';

export interface OwnServiceOptions {
  browser: Browser;
  /** The Have I Been Pwned base the service is started with (`BREACH_SERVICE_HIBP_URL`). */
  hibpUrl: string;
  /** A short name for the data folders. */
  name: string;
  /** More of the service's environment, e.g. `BREACH_SERVICE_HIBP_TIMEOUT` (set while the app runs). */
  serviceEnv?: Record<string, string>;
  viewport?: { width: number; height: number };
}

/** The person's app and their own service, from empty data folders. */
export class OwnServiceApp {
  readonly serviceDir: string;
  readonly appDir: string;
  /** Addresses the app asked the person's system browser to open (the owner never needs one). */
  readonly opened: string[] = [];
  /** Every event of the core, in order. */
  readonly events: { event: EventName; payload: unknown }[] = [];
  port = 0;
  runner!: LocalServiceRunner;
  app!: BrowserApp;
  context!: BrowserContext;
  page!: Page;
  /** The environment variables it set, with what they were before. */
  readonly #savedEnv = new Map<string, string | undefined>();

  private constructor(name: string) {
    this.serviceDir = tempDir(`bm-${name}-service`);
    this.appDir = tempDir(`bm-${name}-app`);
  }

  /** As `npm start` does on a first run (nothing chosen yet): the quick start, until the person chooses. */
  static async start(options: OwnServiceOptions): Promise<OwnServiceApp> {
    const own = new OwnServiceApp(options.name);
    // The service's HIBP base, inherited by the process the runner starts (now and when it restarts with the key).
    for (const [name, value] of Object.entries({ ...options.serviceEnv, [HIBP_URL_VARIABLE]: options.hibpUrl })) {
      own.#savedEnv.set(name, process.env[name]);
      process.env[name] = value;
    }
    own.port = await freePort();
    own.runner = new LocalServiceRunner({ port: own.port, dataDir: own.serviceDir, log: () => {} });
    const endpoints = await own.runner.start({ source: 'demo' });
    own.app = await startBrowserApp({
      dataDir: own.appDir,
      service: false,
      ...(endpoints ? { config: endpoints } : {}),
      localService: own.runner,
      keychain: false,
      log: () => {},
      // The person's system browser: the local person never needs it to sign in.
      openExternal: async (url) => void own.opened.push(url),
    });
    own.app.core.bus.subscribe((event, payload) => own.events.push({ event, payload }));
    own.context = await options.browser.newContext({ viewport: options.viewport ?? { width: 1024, height: 768 }, colorScheme: 'light', reducedMotion: 'reduce' });
    own.page = await own.context.newPage();
    await own.page.goto(own.app.launchUrl());
    await own.page.waitForURL((url) => url.pathname.startsWith('/app/'));
    return own;
  }

  async close(): Promise<void> {
    await this.context?.close().catch(() => {});
    await this.app?.close().catch(() => {});
    await this.runner?.stop().catch(() => {});
    for (const [name, value] of this.#savedEnv) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(this.serviceDir, { recursive: true, force: true });
    rmSync(this.appDir, { recursive: true, force: true });
  }

  /** On the first screen: "Check my addresses with Have I Been Pwned", and the key pasted. */
  async enterKey(key: string): Promise<void> {
    await this.page
      .getByRole('group', { name: 'Breach data' })
      .getByRole('radio', { name: /Check my addresses with Have I Been Pwned/ })
      .check();
    await this.page.getByLabel('Have I Been Pwned API key').fill(key);
  }

  /**
   * "Continue" (the core knows it signs the person in as the owner of their own service; "Sign in"
   * where it does not), up to the first run's addresses step.
   */
  async continueToAddresses(): Promise<void> {
    await this.page.getByRole('button', { name: /^(Sign in|Continue)$/ }).click();
    await this.page.getByRole('heading', { name: 'Which addresses should Breach Monitor watch?', level: 1 }).waitFor({ timeout: 60_000 });
  }

  /** Adds an address through the UI (the first run's step or Settings → Your addresses) and waits for its row. */
  async addAddress(email: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Email address to add' }).fill(email);
    await this.page.getByRole('button', { name: 'Add address' }).click();
    await addressRow(this.page, email).waitFor();
  }

  /** One of the core's channels, as the UI would call it. */
  call: BrowserApp['core']['router']['invoke'] = (channel, args) => this.app.core.router.invoke(channel, args);

  /** An access token of the person, minted by the service's own command from its data folder (`server token`). */
  serviceToken(): string {
    const record = readAccountRecord(path.join(this.appDir, 'auth'));
    if (!record) throw new Error('nobody is signed in');
    const minted = spawnSync(process.execPath, ['server/main.ts', 'token', '--data', this.serviceDir, '--sub', record.subject, '--port', String(this.port)], { cwd: ROOT, encoding: 'utf8' });
    if (minted.status !== 0) throw new Error(`server token failed: ${minted.stderr}`);
    return minted.stdout.trim().split('\n').at(-1)!;
  }

  /** `GET /api/v1<pathname>` at the person's service, as the person. */
  async serviceGet(pathname: string): Promise<unknown> {
    const response = await fetch(`http://127.0.0.1:${this.port}/api/v1${pathname}`, { headers: { authorization: `Bearer ${this.serviceToken()}` } });
    if (!response.ok) throw new Error(`GET ${pathname} answered ${response.status}: ${await response.text()}`);
    return response.json();
  }
}

/** A row of the addresses list (the first run's step, Settings → Your addresses), by its address. */
export function addressRow(page: Page, email: string) {
  return page.getByRole('list', { name: 'Addresses you monitor' }).getByRole('listitem', { name: email });
}

/** Nothing of the demo on the page: no demo user, no demo label. */
export async function expectNoDemo(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toContain('alice@example.com');
  expect(text).not.toMatch(/\bDemo\b/);
}

/** Screenshots of the page in light and dark into `dir`, each checked with axe and for unnamed controls. */
export async function captureScreen(page: Page, options: { dir: string; name: string; audits: ScreenAudit[] }): Promise<void> {
  const { dir, name, audits } = options;
  mkdirSync(dir, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await settle(page);
    await page.screenshot({ path: path.join(dir, `${name}-1024x768-${theme}.png`) });
    audits.push({ screen: name, theme, findings: await runAxe(page) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(seriousFindings(audits.filter((audit) => audit.screen === name)), `axe on ${name}`).toEqual([]);
  expect(await unnamedControls(page), `controls without a name on ${name}`).toEqual([]);
}
