// The guided fix and the reports end to end: Debian Chromium on the browser host, the real core,
// the real reference service and its OpenID provider. Completes the "passwords" group of one
// breach while the service is down, reconnects and compares the service's state; exports CSV and
// JSON and compares every row with the service; prints the report to PDF; and captures every
// screen at 1024×768 and 1440×900 in light and dark (axe on each new screen).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fixGroupOf } from '../../shared/report/fixGroups.ts';
import { plural } from '../../renderer/lib/format.ts';
import { summarizeReport } from '../../shared/report/summary.ts';
import { CSV_COLUMNS, CSV_DEMO_COLUMN, DEMO_NOTICE } from '../../shared/report/rows.ts';
import { runAxe } from './axe.ts';
import { E2E, ensureRendererBuilt, eventually, launchChromium, pressSyncNow, SCREENSHOT_DIR, seriousFindings, settle, unnamedControls, until, type ScreenAudit } from './harness.ts';
import { parseCsv } from '../support/csv.ts';

const ALICE = 'alice@example.com';
const OUT = path.join(SCREENSHOT_DIR, 'fix');
const SIZES = [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const;

describe('guided fix and reports in Chromium against the real stack', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  let target: string;
  const audits: ScreenAudit[] = [];

  const statusBar = () => page.getByRole('banner');
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  /** "breach|email|class" → resolvedAt ('' when the service has none) of everything the service has resolved. */
  async function serviceState(): Promise<Map<string, string>> {
    const state = new Map<string, string>();
    for (const item of await e2e.serviceBreaches({ includeSensitive: true }))
      for (const account of item.breachedAccounts)
        for (const [dataClass, value] of Object.entries(account.resolvedDataClasses)) state.set(`${item.breach.id}|${account.email}|${dataClass}`, (value as { resolvedAt?: string }).resolvedAt ?? '');
    return state;
  }

  /** What the list and the detail call a breach: its title from the details feed, else its id. */
  async function shownName(id: string): Promise<string> {
    const detail = await e2e.call('breach-get', { id });
    return detail.details?.title ?? id;
  }

  /** Opens a breach from the list by searching for its id. */
  async function openBreach(id: string) {
    const name = await shownName(id);
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill(id);
    await page.getByRole('option', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},`) }).click();
    const article = page.getByRole('article', { name, exact: true });
    await article.waitFor();
    return article;
  }

  const syncNow = () => pressSyncNow(page, e2e);

  /** Every size and theme of the screen now showing; axe on each when `audit`. */
  async function capture(name: string, options: { audit?: boolean } = {}): Promise<void> {
    mkdirSync(OUT, { recursive: true });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await settle(page);
        await page.screenshot({ path: path.join(OUT, `${name}-${size.width}x${size.height}-${theme}.png`) });
        if (options.audit && size.width === 1024) audits.push({ screen: name, theme, findings: await runAxe(page) });
      }
    }
    await page.setViewportSize(SIZES[1]);
    await page.emulateMedia({ colorScheme: 'light' });
    if (options.audit) {
      expect(seriousFindings(audits.filter((audit) => audit.screen === name)), `axe on ${name}`).toEqual([]);
      expect(await unnamedControls(page), `controls without a name on ${name}`).toEqual([]);
    }
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: ALICE });
    await e2e.startService();
    await e2e.startApp();
    page = await e2e.openApp();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    const remote = await e2e.serviceBreaches({ includeSensitive: true });
    await eventually('the first sync', async () => (await e2e.call('breaches-list', { includeSensitive: true })).total === remote.length);
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
  }, 90_000);

  it('the Overview leads with what to do next and links into the guided fix', async () => {
    await nav('Overview');
    const next = page.getByRole('region', { name: 'What to do next' });
    const link = next.getByRole('link', { name: /^Start with / });
    await link.waitFor();
    await page.getByRole('table', { name: 'Items fixed per week' }).waitFor({ state: 'attached' });
    // The core summarizes the report (the megabyte of a heavy account never crosses to the page);
    // what the page shows is the whole report's summary.
    const summary = summarizeReport(await e2e.call('report-get', {}), Date.now());
    expect(await e2e.call('report-summary', {})).toEqual(summary);
    expect(summary.next).toBeDefined();
    expect(await next.locator('.next-group').textContent()).toBe(
      `${summary.next!.title}: ${plural(summary.next!.unresolved, 'item')} left in ${plural(summary.next!.breaches, 'breach', 'breaches')}.`,
    );
    await capture('overview', { audit: true });
    await link.click();
    await page.getByRole('heading', { name: 'Fix step by step', level: 1 }).waitFor();
    const group = new URL(page.url()).hash.match(/group=([\w-]+)/)?.[1];
    expect(group).toBeTruthy();
    // The group the Overview named has its heading focused, so the keyboard starts there.
    await until('the group heading to have focus', async () => {
      expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document.activeElement?.tagName)).toBe('H2');
    });
    await capture('fix-all', { audit: true });
  }, 90_000);

  it('completes the "passwords" group for one breach offline; after reconnecting the service has exactly that', async () => {
    const report = await e2e.call('report-get', {});
    const before = await serviceState();
    // A breach that exposed passwords and that has them unresolved for every one of its emails.
    const candidate = report.breaches.find(
      (item) =>
        !item.breach.isSensitive &&
        item.accounts.length > 1 &&
        item.breach.dataClasses.some((name) => fixGroupOf(name) === 'passwords') &&
        item.accounts.every((account) => item.breach.dataClasses.every((name) => !account.cells[name]!.resolved)),
    );
    expect(candidate, 'the demo data has a breach with passwords for two emails').toBeDefined();
    target = candidate!.breach.id;
    const classes = candidate!.breach.dataClasses.filter((name) => fixGroupOf(name) === 'passwords');
    const emails = candidate!.accounts.map((account) => account.email);

    await e2e.stopService();
    await syncNow();
    await statusBar().getByText('Offline', { exact: true }).waitFor();
    // The reason is in words, never a Node error code.
    const bar = (await statusBar().textContent()) ?? '';
    expect(bar).toContain('Last sync failed');
    expect(bar).not.toMatch(/ECONN|ENOTFOUND|fetch failed|UND_ERR/);

    // From the breach's detail, as a person would.
    await nav('Breaches');
    await (await openBreach(target)).getByRole('link', { name: 'Fix step by step' }).click();
    await page.getByRole('heading', { name: `Fix ${target}`, level: 1 }).waitFor();
    const passwords = page.getByRole('region', { name: 'Passwords and security questions' });
    await passwords.getByText(`Change your password at ${candidate!.breach.domain}.`).waitFor();
    expect(await passwords.getByRole('link', { name: `Open ${candidate!.breach.domain}` }).getAttribute('href')).toBe(`https://${candidate!.breach.domain}`);
    for (const email of emails) expect(await passwords.getByRole('checkbox', { name: email }).isChecked()).toBe(true);
    await capture('fix-breach', { audit: true });

    await passwords.getByText(`${classes.length * emails.length} ${classes.length * emails.length === 1 ? 'item' : 'items'} will be marked fixed`).waitFor();
    await passwords.getByRole('button', { name: 'Mark done: Passwords and security questions' }).click();
    await passwords
      .getByRole('status')
      .getByText(/You’re offline: they’ll be sent when the service can be reached\./)
      .waitFor();
    await passwords.getByText('Done', { exact: true }).waitFor();
    expect((await e2e.call('sync-status', {})).pending).toBe(classes.length * emails.length);
    await capture('fix-breach-done');

    await e2e.startService();
    await syncNow();
    await eventually('the outbox to empty', async () => (await e2e.call('sync-status', {})).pending === 0);
    const after = await serviceState();
    const added = [...after.keys()].filter((key) => !before.has(key)).sort();
    expect(added).toEqual(emails.flatMap((email) => classes.map((name) => `${target}|${email}|${name}`)).sort());
    for (const key of added) expect(after.get(key), `resolvedAt of ${key}`).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect([...before.keys()].filter((key) => !after.has(key))).toEqual([]);
  }, 90_000);

  it('exports CSV and JSON whose rows are the service’s breaches × emails × data classes', async () => {
    await nav('Reports');
    const csvButton = page.getByRole('button', { name: 'Export CSV' });
    await page.getByRole('article', { name: 'Breach Monitor report' }).waitFor();
    await until('the report to show the synced fix', async () => {
      const report = await e2e.call('report-get', {});
      const item = report.breaches.find((entry) => entry.breach.id === target)!;
      if (item.accounts.some((account) => Object.values(account.cells).some((cell) => cell.pending))) throw new Error('still pending');
    });
    await page.reload();
    await page.getByRole('article', { name: 'Breach Monitor report' }).waitFor();

    const [csvDownload] = await Promise.all([page.waitForEvent('download'), csvButton.click()]);
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    // The --dev service's data is invented: the file names say so, and so does each file inside.
    expect(csvDownload.suggestedFilename()).toMatch(/^breach-monitor-DEMO-report-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(jsonDownload.suggestedFilename()).toMatch(/^breach-monitor-DEMO-report-\d{4}-\d{2}-\d{2}\.json$/);
    const csvText = readFileSync((await csvDownload.path())!, 'utf8');
    const json = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8')) as { rows: Record<string, unknown>[]; credit?: string; demo?: boolean; notice?: string };
    expect(json).toMatchObject({ demo: true, notice: 'Demo data — these breaches are invented' });
    mkdirSync(OUT, { recursive: true });
    writeFileSync(path.join(OUT, 'export.csv'), csvText);

    // The service's own view, one row per breach × email × data class — of the breaches the one
    // sensitive policy shows: sensitive ones are left out until the person opts in (Settings).
    const remote = await e2e.serviceBreaches({ includeSensitive: false });
    const expected = remote.flatMap((item) =>
      item.breachedAccounts.flatMap((account) =>
        item.breach.dataClasses.map((dataClass) => {
          const resolved = (account.resolvedDataClasses as Record<string, { resolvedAt?: string }>)[dataClass];
          return [
            item.breach.id,
            item.breach.domain,
            item.breach.breachDate,
            String(item.breach.isSensitive),
            account.email,
            dataClass,
            String(resolved !== undefined),
            resolved?.resolvedAt ?? '',
            'false',
          ];
        }),
      ),
    );
    const rowsRead = parseCsv(csvText);
    // The CSV's first column, shown by any spreadsheet, says on every row that the data is invented.
    expect(rowsRead[0]).toEqual([CSV_DEMO_COLUMN, ...CSV_COLUMNS]);
    expect(rowsRead.slice(1).every((row) => row[0] === DEMO_NOTICE)).toBe(true);
    const table = rowsRead.map((row) => row.slice(1));
    const key = (row: string[]) => `${row[0]}|${row[4]}|${row[5]}`;
    const sort = (rows: string[][]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sort(table.slice(1))).toEqual(sort(expected));
    expect(sort(json.rows.map((row) => CSV_COLUMNS.map((column) => String(row[column]))))).toEqual(sort(expected));
    // The demo catalog is the service's own: nobody else to credit.
    expect(json.credit).toBeUndefined();
    expect(await page.getByRole('link', { name: /Have I Been Pwned/ }).count()).toBe(0);
    await capture('reports', { audit: true });
  }, 90_000);

  it('the printable report renders for paper and prints to PDF', async () => {
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    await settle(page);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Export CSV' }).isVisible()).toBe(false);
    await page.getByRole('region', { name: target }).getByRole('cell', { name: 'Fixed' }).first().waitFor();
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: path.join(OUT, 'report-print.png'), fullPage: true });
    await page.screenshot({ path: path.join(OUT, 'report-print-first-page.png') });
    const pdf = await page.pdf({ path: path.join(OUT, 'report.pdf'), format: 'A4', printBackground: true });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.emulateMedia({ media: 'screen' });
  }, 90_000);

  it('each page keeps its own scroll position; a page not seen yet starts at its top', async () => {
    await page.setViewportSize(SIZES[0]);
    const main = page.locator('main#main');
    const scrollTop = () => main.evaluate((node) => node.scrollTop);
    await nav('Overview');
    await page.getByRole('region', { name: 'What to do next' }).getByRole('link').waitFor();
    await main.evaluate((node) => node.scrollTo(0, 200));
    await until('the overview to scroll', async () => expect(await scrollTop()).toBe(200));
    await nav('Fix step by step');
    await page.getByRole('heading', { name: 'Fix step by step', level: 1 }).waitFor();
    expect(await scrollTop(), 'a new page starts at its top').toBe(0);
    await main.evaluate((node) => node.scrollTo(0, 300));
    await nav('Overview');
    await page.getByRole('region', { name: 'What to do next' }).waitFor();
    await until('the overview to be back where it was', async () => expect(await scrollTop()).toBe(200));
    await page.goBack();
    await page.getByRole('heading', { name: 'Fix step by step', level: 1 }).waitFor();
    await until('the fix page to be back where it was', async () => expect(await scrollTop()).toBe(300));
    await page.setViewportSize(SIZES[1]);
  }, 60_000);

  it('every other screen, at both sizes and in both themes', async () => {
    await nav('Breaches');
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill('');
    await page.getByRole('listbox', { name: 'Breaches' }).waitFor();
    await capture('breaches');
    const article = await openBreach(target);
    await capture('detail');

    // At 1024×768 the detail fits: no sideways scrolling, the close button and "Mark all
    // resolved" wholly in the window, the domain unbroken.
    await page.setViewportSize(SIZES[0]);
    await settle(page);
    const fit = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { querySelector(selector: string): { scrollWidth: number; clientWidth: number } | null } }).document;
      const pane = doc.querySelector('.detail-pane')!;
      return { scroll: pane.scrollWidth, client: pane.clientWidth, page: doc.querySelector('.content')!.scrollWidth - doc.querySelector('.content')!.clientWidth };
    });
    expect(fit.scroll, 'the detail scrolls sideways').toBeLessThanOrEqual(fit.client);
    expect(fit.page).toBeLessThanOrEqual(0);
    for (const control of [page.getByRole('button', { name: 'Close breach detail' }), page.getByRole('button', { name: 'Mark all resolved' })]) {
      const box = (await control.boundingBox())!;
      expect(box.x + box.width, `${control.toString()} is clipped`).toBeLessThanOrEqual(SIZES[0].width);
    }
    // Each label of the domain ("juniperhealthdirect.", "com") on one line; wrapping only after a dot.
    const linesPerLabel = await article.locator('.facts .domain').evaluate((node) =>
      [...node.childNodes]
        .filter((child) => child.nodeType === 3)
        .map((text) => {
          const range = (globalThis as unknown as { document: { createRange(): { selectNodeContents(node: unknown): void; getClientRects(): { length: number } } } }).document.createRange();
          range.selectNodeContents(text);
          return range.getClientRects().length;
        }),
    );
    expect(linesPerLabel.length).toBeGreaterThan(1);
    expect(
      linesPerLabel.every((lines) => lines === 1),
      `a domain label broke across lines: ${linesPerLabel.join()}`,
    ).toBe(true);
    await page.setViewportSize(SIZES[1]);

    // Resolving does not move what is under the pointer: the matrix keeps its place every frame
    // while the "queued" notice comes and goes.
    const heading = article.getByRole('heading', { name: 'What it exposed' });
    await heading.evaluate((node) => {
      const tops: number[] = [];
      const scope = globalThis as unknown as { __tops: number[]; __stop: boolean; requestAnimationFrame(callback: () => void): number };
      scope.__tops = tops;
      scope.__stop = false;
      const frame = () => {
        // Within the scrolled pane's content, so scrolling to the checkbox is not counted as a jump.
        const pane = (node as unknown as { closest(selector: string): { getBoundingClientRect(): { top: number }; scrollTop: number } }).closest('.detail-pane');
        tops.push(node.getBoundingClientRect().top - pane.getBoundingClientRect().top + pane.scrollTop);
        if (!scope.__stop) scope.requestAnimationFrame(frame);
      };
      frame();
    });
    // With the service away the notice surely shows (online, the change could be sent first).
    await e2e.stopService();
    const box = article.getByRole('checkbox', { checked: false }).first();
    await box.check();
    await article.getByText(/queued\./).waitFor();
    await e2e.startService();
    await syncNow();
    await eventually('the change to be sent', async () => (await e2e.call('sync-status', {})).pending === 0);
    await article.getByText(/queued\./).waitFor({ state: 'detached' });
    const tops = await page.evaluate(() => {
      const scope = globalThis as unknown as { __tops: number[]; __stop: boolean };
      scope.__stop = true;
      return scope.__tops;
    });
    expect(tops.length).toBeGreaterThan(2);
    expect(new Set(tops), 'the matrix moved while resolving').toEqual(new Set([tops[0]]));
    await page.getByRole('button', { name: 'Close breach detail' }).click();
    await nav('Graph');
    await page.getByRole('heading', { name: 'Graph', level: 1 }).first().waitFor();
    await capture('graph');
    await nav('Settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    // The browser host has no tray and no login item: no switches that would do nothing.
    await page.getByText('Start at login and the tray icon come with the desktop app').waitFor();
    expect(await page.getByRole('checkbox', { name: /Start at login|Close to tray/ }).count()).toBe(0);
    await capture('settings', { audit: true });
    expect(e2e.pageErrors).toEqual([]);
  }, 90_000);
});
