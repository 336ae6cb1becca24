// The whole app for end-to-end tests: the real reference service (with its OpenID provider) on a
// fixed port so it can be stopped and started again, the real core and the browser host serving
// the built renderer (tools/browserApp.ts), one Debian Chromium for both the app's page and the
// person's "system browser", and helpers that find things the way a person does: by role and name.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Writable } from 'node:stream';
import { startService, type RunningService } from '../../server/app.ts';
import { createLogger } from '../../server/log.ts';
import type { AuthLogger } from '../../electron/core/auth/log.ts';
import { ROOT, RENDERER_DIR, startBrowserApp, type BrowserApp } from '../../tools/browserApp.ts';
import type { ChannelInput, ChannelName, ChannelResult } from '../../shared/ipc/contract.ts';
import type { EventName } from '../../shared/ipc/events.ts';
import type { BreachQueryInput } from '../../shared/api/query.ts';
import { toBreachSearchParams } from '../../shared/api/query.ts';
import { driveBrowser, freePort, launchChromium, signInAs, tempDir } from '../core/auth/harness.ts';
import { runAxe, type AxeFinding } from './axe.ts';
import { eventually } from '../support/waitFor.ts';
import { KEYCHAIN_MISSING } from '../support/keychain.ts';

export { launchChromium };

/** Where screenshots go (test-results/ is not committed). */
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

// ---------------------------------------------------------------------------------------------
// The renderer build

const RENDERER_SOURCES = ['renderer', 'shared'].map((dir) => path.join(ROOT, dir));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function rendererIsFresh(): boolean {
  const index = path.join(RENDERER_DIR, 'index.html');
  if (!existsSync(index)) return false;
  const built = statSync(index).mtimeMs;
  return RENDERER_SOURCES.every((dir) => !existsSync(dir) || newestMtime(dir) <= built);
}

/** Blocks the thread for `ms` (the build must be done before the caller goes on). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds `out/renderer` when it is missing or older than the renderer's sources (a clean clone,
 * an edited component); otherwise does nothing. Test files run in parallel processes, and a
 * build empties the folder first, so one process builds at a time (a lock folder) and the others
 * wait and then find it fresh. Returns whether this call built.
 */
export function ensureRendererBuilt(): boolean {
  if (rendererIsFresh()) return false;
  const lock = path.join(ROOT, 'out', '.renderer-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a process that died mid-build: a build takes seconds, not minutes.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`waited 3 minutes for another process to build the renderer (${lock})`, { cause: error });
      else sleepSync(100);
    }
  }
  try {
    if (rendererIsFresh()) return false;
    const vite = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'vite.cmd' : 'vite');
    const result = spawnSync(vite, ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`building the renderer failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Small waiting helpers: poll for a condition, never sleep for a fixed time (test/support/waitFor.ts).
export { eventually };

/** Repeats `check` (which throws while the state is not there yet) until it passes. */
export async function until(what: string, check: () => Promise<void> | void, timeoutMs = 15_000): Promise<void> {
  await eventually(
    what,
    async () => {
      await check();
      return true;
    },
    timeoutMs,
  );
}

// ---------------------------------------------------------------------------------------------
// The app

export interface RecordedEvent {
  event: EventName;
  payload: unknown;
}

export interface E2EOptions {
  browser: Browser;
  /** The person who signs in when the app opens the "system browser". */
  email?: string;
  /** A catalog file for the service (`--catalog`), e.g. the real HIBP fixture. */
  catalogFile?: string;
  /** Keep every line the core and the service log, at their most detailed level, in `logLines` (off by default: it costs time). */
  captureLogs?: boolean;
}

/** The keychain when the run has a private one (tools/with-keyring.sh) and keytar; never the person's own. */
export const USE_KEYCHAIN = KEYCHAIN_MISSING === undefined;

export class E2E {
  readonly browser: Browser;
  readonly serviceDir = tempDir('bm-e2e-service');
  readonly appDir = tempDir('bm-e2e-app');
  email: string;
  /** The `--catalog` file of the next `startService` (a test may switch it between starts). */
  catalogFile: string | undefined;
  servicePort = 0;
  service: RunningService | undefined;
  app: BrowserApp | undefined;
  context: BrowserContext | undefined;
  page!: Page;
  /** Every event of the current core, in order. */
  events: RecordedEvent[] = [];
  /** Sign-ins the app asked the system browser for. */
  signIns = 0;
  /**
   * Every message between the page and the core, as it crossed the browser host (request bodies,
   * answers, event-stream frames), in order, across restarts of the app.
   */
  readonly traffic: { direction: 'page-to-core' | 'core-to-page'; text: string }[] = [];
  /** With `captureLogs`: every line the core (its logger and its host's) and the service logged, as written. */
  readonly logLines: string[] = [];
  readonly #captureLogs: boolean;
  #finished: Promise<string>[] = [];
  #subscription: { dispose(): void } | undefined;

  constructor(options: E2EOptions) {
    this.browser = options.browser;
    this.email = options.email ?? 'alice@example.com';
    this.catalogFile = options.catalogFile;
    this.#captureLogs = options.captureLogs ?? false;
  }

  /** A core logger that keeps each line as JSON, as a file logger would write it. */
  #coreLogger(): AuthLogger {
    const line = (level: string) => (message: string, fields?: Record<string, unknown>) => void this.logLines.push(JSON.stringify({ source: 'core', level, message, ...fields }));
    return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  }

  /** The reference service on the same port and data folder every time. */
  async startService(): Promise<RunningService> {
    if (this.service) return this.service;
    if (!this.servicePort) {
      // 6060 is the welcome screen's "local reference service": keep clear of it.
      do this.servicePort = await freePort();
      while (this.servicePort === 6060);
    }
    const logger = this.#captureLogs
      ? createLogger({
          level: 'trace',
          destination: new Writable({
            write: (chunk: Buffer, _encoding, done) => {
              this.logLines.push(chunk.toString('utf8'));
              done();
            },
          }),
        })
      : undefined;
    this.service = await startService(
      { port: this.servicePort, dataDir: this.serviceDir, dev: true, logLevel: 'silent', ...(this.catalogFile ? { catalogFile: this.catalogFile } : {}) },
      logger ? { logger } : {},
    );
    return this.service;
  }

  async stopService(): Promise<void> {
    const service = this.service;
    this.service = undefined;
    await service?.close();
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.servicePort}/oidc`;
  }

  get apiBaseUrl(): string {
    return `http://127.0.0.1:${this.servicePort}/api/v1`;
  }

  get serviceOrigin(): string {
    return `http://127.0.0.1:${this.servicePort}`;
  }

  /**
   * The core and the browser host (not the service, which lives on its own). The person's
   * "system browser" is a browser profile of its own unless `opener` says otherwise: 'host' is
   * the browser host's own (the app's page opens the sign-in, in this same browser), a function
   * replaces it (e.g. one that fails as `xdg-open` does on a machine without a desktop).
   */
  async startApp(options: { keychain?: boolean; opener?: 'host' | ((url: string) => Promise<void>); host?: { port?: number; secret: string } } = {}): Promise<BrowserApp> {
    if (!this.servicePort) throw new Error('start the service once first: its port is the issuer');
    const keychain = options.keychain ?? USE_KEYCHAIN;
    this.app = await startBrowserApp({
      dataDir: this.appDir,
      service: false,
      config: { issuer: this.issuer, apiBaseUrl: this.apiBaseUrl },
      keychain,
      log: (line) => void (this.#captureLogs && this.logLines.push(line)),
      ...(this.#captureLogs ? { logger: this.#coreLogger() } : {}),
      onTraffic: (direction, text) => this.traffic.push({ direction, text }),
      // As `npm start` does with browser-host.json: the same port and secret as the last run.
      ...(options.host ? { hostSecret: options.host.secret, ...(options.host.port ? { hostPort: options.host.port } : {}) } : {}),
      ...(options.opener === 'host'
        ? {}
        : {
            openExternal:
              typeof options.opener === 'function'
                ? options.opener
                : async (url: string) => {
                    // The person, in a browser profile of their own, signs in and allows access.
                    this.signIns += 1;
                    const driven = driveBrowser(this.browser, signInAs(this.email));
                    this.#finished.push(driven.finished);
                    await driven.opener(url);
                  },
          }),
    });
    this.events = [];
    this.#subscription = this.app.core.bus.subscribe((event, payload) => this.events.push({ event, payload }));
    return this.app;
  }

  async stopApp(): Promise<void> {
    const app = this.app;
    this.app = undefined;
    this.#subscription?.dispose();
    await app?.close();
  }

  get core(): BrowserApp['core'] {
    if (!this.app) throw new Error('the app is not running');
    return this.app.core;
  }

  /** One of the core's channels, as the UI would call it. */
  call<C extends ChannelName>(channel: C, args: ChannelInput<C>): Promise<ChannelResult<C>> {
    return this.core.router.invoke(channel, args);
  }

  /** Opens the app's page at the address it printed, as a person would. */
  async openApp(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
    if (!this.app) throw new Error('the app is not running');
    if (!this.context) {
      this.context = await this.browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: options.colorScheme ?? 'light', reducedMotion: 'reduce' });
      this.page = await this.context.newPage();
      this.page.on('pageerror', (error) => this.pageErrors.push(error.message));
      this.page.on('console', (message) => {
        // Network errors are expected here (the tests stop the core and the service); a
        // refused script or style is not.
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) this.pageErrors.push(message.text());
      });
    }
    await this.page.goto(this.app.launchUrl());
    await this.page.waitForURL((url) => url.pathname.startsWith('/app/'));
    return this.page;
  }

  /** Errors the page threw or logged (CSP violations included). */
  pageErrors: string[] = [];

  /** Whether every sign-in the person did in the browser got to the app's callback page. */
  async signInsFinished(): Promise<string[]> {
    return Promise.all(this.#finished);
  }

  /** An access token for the person, minted by the provider itself: the service's own view. */
  async serviceToken(): Promise<string> {
    const identity = this.service?.identity;
    if (!identity) throw new Error('the service is not running');
    const sub = this.service!.demoUsers.find((user) => user.email === this.email)?.sub ?? 'alice';
    return identity.mintAccessToken({ sub, email: this.email });
  }

  /** `GET /user/breaches` with the same filters the list uses. */
  async serviceBreaches(query: BreachQueryInput = {}): Promise<ServiceBreach[]> {
    const token = await this.serviceToken();
    const response = await fetch(`${this.apiBaseUrl}/user/breaches?${toBreachSearchParams(query).toString()}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET /user/breaches answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as ServiceBreach[];
  }

  async close(): Promise<void> {
    await this.context?.close().catch(() => {});
    await this.stopApp().catch(() => {});
    await this.stopService().catch(() => {});
    rmSync(this.appDir, { recursive: true, force: true });
    rmSync(this.serviceDir, { recursive: true, force: true });
  }
}

export interface ServiceBreach {
  breach: { id: string; domain: string; breachDate: string; isSensitive: boolean; dataClasses: string[] };
  breachedAccounts: { email: string; resolvedDataClasses: Record<string, unknown> }[];
}

/** A call to the service's development surface that must succeed. */
export async function devCall(origin: string, method: 'POST' | 'PUT', pathname: string, body: unknown): Promise<unknown> {
  const response = await fetch(origin + pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response.json();
}

// ---------------------------------------------------------------------------------------------
// Reading the page

export interface ListView {
  /** The counts line, e.g. "58 breaches · 31 with unresolved Passwords". */
  counts: string;
  /** aria-setsize of the rows: how many rows the list has (it is virtualized). */
  size: number;
  /** Ids of the first rendered rows, in order (by aria-posinset). */
  firstIds: string[];
  empty: boolean;
}

/** What the breaches list shows now. */
export async function readList(page: Page, first = 6): Promise<ListView> {
  const counts = ((await page.locator('p.counts').textContent()) ?? '').replace('Updating…', '').trim();
  const listbox = page.getByRole('listbox', { name: 'Breaches' });
  if ((await listbox.count()) === 0) {
    const empty = await page.getByRole('heading', { name: 'No breaches match these filters' }).count();
    return { counts, size: 0, firstIds: [], empty: empty > 0 };
  }
  const rows = await listbox
    .getByRole('option')
    .evaluateAll((nodes) =>
      nodes.map((node) => ({ pos: Number(node.getAttribute('aria-posinset')), size: Number(node.getAttribute('aria-setsize')), id: node.querySelector('.breach-row-name')?.textContent ?? '' })),
    );
  rows.sort((a, b) => a.pos - b.pos);
  return { counts, size: rows[0]?.size ?? 0, firstIds: rows.filter((row) => row.pos <= first).map((row) => row.id), empty: false };
}

/** Waits until the list shows exactly what the core answers for the same filters. */
export async function expectListMatchesCore(e2e: E2E, query: ChannelInput<'breaches-list'>, timeoutMs = 10_000): Promise<ChannelResult<'breaches-list'>> {
  const answer = await e2e.call('breaches-list', query);
  const wantIds = answer.rows.slice(0, 6).map((row) => row.breach.id);
  const countsPrefix = `${answer.total.toLocaleString('en')} ${answer.total === 1 ? 'breach' : 'breaches'}`;
  let seen: ListView | undefined;
  try {
    await until(
      'the list to show the core’s answer',
      async () => {
        seen = await readList(e2e.page);
        if (!seen.counts.startsWith(countsPrefix + ' ') && seen.counts !== countsPrefix) throw new Error('counts differ');
        if (answer.total === 0) {
          if (!seen.empty) throw new Error('expected the empty state');
          return;
        }
        if (seen.size !== answer.total) throw new Error('size differs');
        if (seen.firstIds.join() !== wantIds.slice(0, seen.firstIds.length).join() || seen.firstIds.length < Math.min(3, answer.total)) throw new Error('rows differ');
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n  core: ${countsPrefix}, first ${wantIds.join(', ')}\n  page: ${JSON.stringify(seen)}\n  url: ${e2e.page.url()}`, { cause: error });
  }
  return answer;
}

/** Picks options of a filter popover ("Data classes", "Unresolved data classes") by name. */
export async function pickInPopover(page: Page, label: 'Data classes' | 'Unresolved data classes', choose: Record<string, boolean>): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${label}`) }).click();
  const group = page.getByRole('group', { name: label });
  await group.waitFor();
  for (const [name, checked] of Object.entries(choose)) await group.getByRole('checkbox', { name, exact: true }).setChecked(checked);
  await group.getByRole('button', { name: 'Done' }).click();
  await group.waitFor({ state: 'detached' });
}

/** The hash part of the page's address, decoded into its parameters. */
export function hashParams(page: Page): URLSearchParams {
  const hash = new URL(page.url()).hash;
  const question = hash.indexOf('?');
  return new URLSearchParams(question === -1 ? '' : hash.slice(question + 1));
}

/** Waits for a checkbox to show a state (the UI updates it from the core's answer). */
export async function expectChecked(box: Locator, checked: boolean): Promise<void> {
  await until(`${box.toString()} to be ${checked ? 'checked' : 'unchecked'}`, async () => {
    if ((await box.isChecked()) !== checked) throw new Error('not yet');
  });
}

/** No skeletons or busy regions left, and the fonts and layout settled for two frames. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const doc = (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document;
      return !doc.querySelector('[aria-busy="true"]') && !doc.querySelector('.skeleton') && !doc.querySelector('.counts-updating.is-visible');
    },
    undefined,
    { timeout: 10_000 },
  );
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const raf = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number }).requestAnimationFrame;
        raf(() => raf(() => resolve()));
      }),
  );
}

export interface ScreenAudit {
  screen: string;
  theme: 'light' | 'dark';
  findings: AxeFinding[];
}

/**
 * A main screen in light and dark: a screenshot of each into test-results/screenshots/ and an
 * axe-core run of each (with colour contrast). Returns every finding; the caller decides.
 */
export async function captureScreen(page: Page, screen: string): Promise<ScreenAudit[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const audits: ScreenAudit[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await settle(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${screen}-${theme}.png`) });
    audits.push({ screen, theme, findings: await runAxe(page) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return audits;
}

/** Serious and critical findings, in words for a failure message. */
export function seriousFindings(audits: ScreenAudit[]): string[] {
  return audits.flatMap((audit) =>
    audit.findings
      .filter((finding) => finding.impact === 'serious' || finding.impact === 'critical')
      .map((finding) => `${audit.screen} (${audit.theme}): ${finding.impact} ${finding.id} — ${finding.help}: ${finding.targets.join(' | ')}`),
  );
}

/** Controls without an accessible name, found in the accessibility tree Chromium exposes. */
export async function unnamedControls(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot();
  const roles = ['button', 'checkbox', 'radio', 'textbox', 'searchbox', 'combobox', 'link', 'listbox', 'option', 'spinbutton', 'slider', 'switch', 'tab', 'menuitem'];
  return snapshot
    .split('\n')
    .map((line) => line.trim().replace(/^- /, ''))
    .filter((line) => roles.some((role) => line === role || line.startsWith(`${role}:`) || line.startsWith(`${role} [`)));
}

/**
 * Presses the status bar's "Sync now" once it is enabled and waits for that sync to end. When the
 * button stays disabled, the error says why as the page and the core each see it (the line, the
 * core's phase, the last sync events), so a failure on a loaded machine explains itself.
 */
export async function pressSyncNow(page: Page, e2e: E2E, timeoutMs = 30_000): Promise<void> {
  const bar = page.getByRole('banner');
  const button = bar.getByRole('button', { name: 'Sync now' });
  try {
    await until(
      'Sync now to be enabled',
      async () => {
        if (!(await button.isEnabled())) throw new Error('disabled');
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await syncDiagnosis(page, e2e)}`, { cause: error });
  }
  await button.click();
  await eventually('the sync to finish', async () => (await e2e.call('sync-status', {})).phase === 'idle' && (await button.isEnabled()), timeoutMs);
}

/** What the page's status line says and what the core reports, for a failure message. */
export async function syncDiagnosis(page: Page, e2e: E2E): Promise<string> {
  const line = await page
    .getByRole('banner')
    .innerText({ timeout: 2_000 })
    .catch((error: unknown) => `(unreadable: ${(error as Error).message})`);
  const core = await e2e.call('sync-status', {}).then(
    (status) => JSON.stringify(status),
    (error: unknown) => `(no answer: ${(error as Error).message})`,
  );
  const recent = e2e.events
    .filter((event) => event.event === 'sync-changed' || event.event === 'auth-changed')
    .slice(-6)
    .map((event) => `  ${event.event} ${JSON.stringify(event.payload)}`);
  return [`the page's status bar: ${line.replace(/\s+/g, ' ')}`, `the core's sync-status: ${core}`, 'the last sync and sign-in events:', ...recent].join('\n');
}
