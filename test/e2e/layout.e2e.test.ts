// Layout and counts in Chromium against the real stack (issue 25, finding 7): at 1024×768 and
// 1440×900, in light and dark, in the states that made the page wider than the window or the
// list too short — changes queued while offline, banners, long names — nothing scrolls sideways,
// the list shows at least six rows, a banner never moves the page under the pointer, the count
// agrees with the rows shown, a partial domain says what the service's exact `domain` would
// answer, and the graph answers "other breaches" without the breach itself, in words.
//
// Geometry is asserted; pixels are not. Each state is also saved as a PNG (light and dark, both
// sizes) under $BREACH_MONITOR_SHOTS (default test-results/screenshots/layout) to be looked at.
// One browser, one service and one app for every case, so the file stays quick.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { devCall, E2E, ensureRendererBuilt, eventually, launchChromium, pressSyncNow, SCREENSHOT_DIR, settle, until } from './harness.ts';

const ALICE = 'alice@example.com';
const OUT = process.env.BREACH_MONITOR_SHOTS ?? path.join(SCREENSHOT_DIR, 'layout');
const SMALL = { width: 1024, height: 768 } as const;
const LARGE = { width: 1440, height: 900 } as const;
const SIZES = [SMALL, LARGE] as const;
const THEMES = ['light', 'dark'] as const;

// Names as long as a source may send: one unbroken word, a long domain, a long data class.
const LONG_BREACH = {
  id: 'InternationalAssociationOfVeryLongNamedProfessionalOrganisationsMembersPortal',
  domain: 'members-portal.international-association-of-very-long-named-professional-organisations.example',
  breachDate: '2026-10-02',
  addedDate: '2026-11-21T09:00Z',
  dataClasses: ['Email addresses', 'Passwords', 'Security questions and answers of a length nobody expected to see in one chip'],
  isSensitive: false,
};
const FRESH_BREACH = {
  id: 'E2ELayoutFresh',
  domain: 'layoutfresh.example',
  breachDate: '2026-10-03',
  addedDate: '2026-11-22T09:00Z',
  dataClasses: ['Email addresses', 'Passwords'],
  isSensitive: false,
};

describe('layout and counts in Chromium against the real stack', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const statusBar = () => page.getByRole('banner');
  const list = () => page.getByRole('listbox', { name: 'Breaches' });
  const detailPane = () => page.getByRole('region', { name: 'Breach detail' });

  const syncNow = () => pressSyncNow(page, e2e);

  /**
   * Sideways overflow of the window and of every scrolling region a person reads. Runs as page
   * source (this project's Node-only types have no DOM).
   */
  async function sidewaysOverflow(): Promise<string[]> {
    return page.evaluate(`(() => {
      const problems = [];
      const root = document.documentElement;
      if (root.scrollWidth > innerWidth) problems.push('the window scrolls sideways by ' + (root.scrollWidth - innerWidth) + ' px');
      for (const element of document.querySelectorAll('main, [role="region"], [role="listbox"], section, article')) {
        const overflow = getComputedStyle(element).overflowX;
        if (overflow === 'visible' || overflow === 'hidden' || overflow === 'clip') continue;
        if (element.scrollWidth > element.clientWidth + 1) {
          const name = element.getAttribute('aria-label') || element.id || element.className;
          problems.push(element.tagName.toLowerCase() + ' "' + name + '" scrolls sideways by ' + (element.scrollWidth - element.clientWidth) + ' px');
        }
      }
      return problems;
    })()`);
  }

  /** Controls whose box leaves the box of the region they belong to (cut off or out of reach). */
  async function controlsOutside(region: Locator, controls: Locator[]): Promise<string[]> {
    const outer = (await region.boundingBox())!;
    const problems: string[] = [];
    for (const control of controls) {
      const box = await control.boundingBox();
      if (!box) {
        problems.push(`${control.toString()} is not shown`);
        continue;
      }
      if (box.x < outer.x - 0.5 || box.x + box.width > outer.x + outer.width + 0.5)
        problems.push(`${control.toString()} spans x ${Math.round(box.x)}–${Math.round(box.x + box.width)} outside the pane's ${Math.round(outer.x)}–${Math.round(outer.x + outer.width)}`);
    }
    return problems;
  }

  /** Rows of the list wholly in view: inside the list's box and not under a banner or anything else. */
  async function visibleRows(): Promise<number> {
    const listBox = (await list().boundingBox())!;
    // What a person sees on each row's centre line, left and right: the row itself, or something over it.
    const rows = await page.evaluate<{ top: number; bottom: number; covered: boolean }[]>(`(() =>
      [...document.querySelectorAll('[role="listbox"][aria-label="Breaches"] [role="option"]')].map((node) => {
        const rect = node.getBoundingClientRect();
        const y = rect.top + rect.height / 2;
        const covered = [rect.left + 8, rect.right - 8].some((x) => {
          const hit = document.elementFromPoint(x, y);
          return !hit || !node.contains(hit);
        });
        return { top: rect.top, bottom: rect.bottom, covered };
      }))()`);
    return rows.filter((row) => !row.covered && row.top >= listBox.y - 0.5 && row.bottom <= listBox.y + listBox.height + 0.5).length;
  }

  /**
   * The screen now showing, at both sizes and in both themes: a PNG of each, and the geometry
   * every state must keep (no sideways scrolling; `extra` adds the state's own checks).
   */
  async function everyWay(name: string, extra?: (size: (typeof SIZES)[number]) => Promise<string[]>): Promise<void> {
    mkdirSync(OUT, { recursive: true });
    const problems: string[] = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await settle(page);
        await page.screenshot({ path: path.join(OUT, `${name}-${size.width}x${size.height}-${theme}.png`) });
        const where = `${name} at ${size.width}×${size.height} (${theme})`;
        for (const problem of await sidewaysOverflow()) problems.push(`${where}: ${problem}`);
        for (const problem of (await extra?.(size)) ?? []) problems.push(`${where}: ${problem}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(LARGE);
    // Soft, so one state's problems do not keep the next states from being shot and checked.
    expect.soft(problems).toEqual([]);
  }

  /**
   * Every header and queue message cut with "…" (the status bar, the queued-changes notice) can
   * be read whole: it takes focus, and then a tooltip shows its whole text, which is also its
   * accessible description. `expectCut`: at this size at least one of them is cut (else this
   * would check nothing).
   */
  async function cutMessagesUnreadable(expectCut: boolean): Promise<string[]> {
    const cut =
      (await page.evaluate(`(() => [...document.querySelectorAll('[data-cut]')].forEach((el) => el.removeAttribute('data-cut')) ?? [...document.querySelectorAll('.statusbar *, .detail-pending-slot *')]
      .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      .map((el, index) => { el.setAttribute('data-cut', String(index)); return { text: el.textContent, tabIndex: el.tabIndex, describedBy: el.getAttribute('aria-describedby') }; }))()`)) as {
        text: string;
        tabIndex: number;
        describedBy: string | null;
      }[];
    const problems: string[] = [];
    if (expectCut && cut.length === 0) problems.push('no message is cut at this size: nothing was checked');
    for (const [index, message] of cut.entries()) {
      if (message.tabIndex !== 0) problems.push(`"${message.text}" is cut and cannot take focus`);
      const line = page.locator(`[data-cut="${index}"]`);
      await line.focus();
      const tooltip = page.getByRole('tooltip').filter({ hasText: message.text });
      if (!(await tooltip.isVisible())) problems.push(`"${message.text}" is cut and no tooltip shows it whole on focus`);
      else if ((await line.getAttribute('aria-describedby')) !== (await tooltip.getAttribute('id'))) problems.push(`"${message.text}": the tooltip is not its accessible description`);
      await line.blur();
    }
    return problems;
  }

  async function openBreach(id: string): Promise<Locator> {
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill(id);
    await list()
      .getByRole('option', { name: new RegExp(`^${id},`) })
      .click();
    const article = page.getByRole('article', { name: id, exact: true });
    await article.waitFor();
    return article;
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: ALICE });
    await e2e.startService();
    // Two breaches the first sync brings as new (a banner), one with names as long as they come.
    for (const breach of [LONG_BREACH, FRESH_BREACH]) await devCall(e2e.serviceOrigin, 'POST', '/__dev/breaches', breach);
    await e2e.startApp();
    page = await e2e.openApp();
    await page.setViewportSize(LARGE);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    await eventually('the first sync', async () => (await e2e.call('sync-status', {})).lastSyncAt !== undefined && (await e2e.call('breaches-list', {})).total > 0);
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
  }, 90_000);

  it('a banner does not move the page, and the list shows at least six rows at 1024×768', async () => {
    await nav('Breaches');
    await list().waitFor();
    // The service's data is demo: its label is part of the page the banner must not move.
    await page.getByRole('status').filter({ hasText: 'Demo data — these breaches are invented.' }).waitFor();
    await page.setViewportSize(SMALL);
    await settle(page);
    const main = page.getByRole('main');
    const before = { list: (await list().boundingBox())!, main: (await main.boundingBox())! };
    // New breaches on the service: the next sync announces them in a banner.
    const current = await e2e.serviceBreaches({ includeSensitive: true });
    const mine = current.map((item) => item.breach.id);
    await devCall(e2e.serviceOrigin, 'PUT', '/__dev/exposures', { email: ALICE, breachIds: [...new Set([...mine, LONG_BREACH.id, FRESH_BREACH.id])] });
    await syncNow();
    const banner = page.getByRole('region', { name: 'New breaches' });
    // Demo data here: the banner says the breaches are invented.
    await banner.getByText(/2 new (invented )?breaches naming you/).waitFor();
    await settle(page);
    // The page keeps its place and its size: the banner floats over it.
    // Soft: the screenshots below are taken whatever these say.
    expect.soft((await list().boundingBox())!.y, 'the banner pushed the list down').toBe(before.list.y);
    expect.soft(await main.boundingBox(), 'the banner took room from the page').toEqual(before.main);
    // The scrolling areas get the stack's height (and a margin) as room at their end, so their
    // last lines can scroll out from under the banner.
    const room = await page.evaluate(`(() => {
      const stack = document.querySelector('.banner-stack');
      return { stack: stack.getBoundingClientRect().height, room: getComputedStyle(stack.parentElement).getPropertyValue('--banner-stack-height').trim() };
    })()`);
    expect.soft(room, 'the room kept for the banners').toEqual({ stack: expect.any(Number) as unknown, room: `${Math.round((room as { stack: number }).stack) + 24}px` });
    expect.soft((room as { stack: number }).stack, 'the banner stack has a height').toBeGreaterThan(0);
    await everyWay('breaches-banner', async (size) => {
      const rows = await visibleRows();
      return size === SMALL && rows < 6 ? [`only ${rows} rows of the list are in view`] : [];
    });
    // The banner's own controls are reachable.
    for (const control of [banner.getByRole('button', { name: 'Review the newest' }), banner.getByRole('button', { name: 'Dismiss' })]) {
      const box = (await control.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(LARGE.width);
    }
  }, 90_000);

  it('long names: the list and the detail fit both sizes', async () => {
    const article = await openBreach(LONG_BREACH.id);
    await everyWay('detail-long-names', async () =>
      controlsOutside(detailPane(), [page.getByRole('button', { name: 'Close breach detail' }), article.getByRole('button', { name: 'Mark all resolved' })]),
    );
    await page.getByRole('region', { name: 'New breaches' }).getByRole('button', { name: 'Dismiss' }).click();
  }, 90_000);

  it('with changes queued while offline, the detail stays inside its pane', async () => {
    const article = await openBreach(LONG_BREACH.id);
    await e2e.stopService();
    try {
      await article.getByRole('checkbox', { name: `Passwords for ${ALICE}`, exact: true }).check();
      await article.getByRole('checkbox', { name: `Email addresses for ${ALICE}`, exact: true }).check();
      await syncNow();
      await statusBar().getByText('Offline', { exact: true }).waitFor();
      await article.getByText('2 changes queued.').waitFor();
      await everyWay('detail-queued-offline', async (size) => [
        ...(await controlsOutside(detailPane(), [
          page.getByRole('button', { name: 'Close breach detail' }),
          article.getByRole('button', { name: 'Mark all resolved' }),
          article.getByText('2 changes queued.'),
        ])),
        ...(await cutMessagesUnreadable(size === SMALL)),
      ]);
      await page.getByRole('button', { name: 'Close breach detail' }).click();
      await page.getByRole('searchbox', { name: 'Search breaches' }).fill('');
      await until('the whole list', async () => expect(await visibleRows()).toBeGreaterThan(1));
      await everyWay('breaches-offline', async (size) => {
        const rows = await visibleRows();
        return size === SMALL && rows < 6 ? [`only ${rows} rows of the list are in view`] : [];
      });
    } finally {
      // Back online whatever happened, so the next cases start from the service's state.
      await e2e.startService();
      await syncNow();
      await eventually('the queue to empty', async () => (await e2e.call('sync-status', {})).pending === 0);
    }
  }, 90_000);

  it('after "Hide this breach" the count agrees with the rows shown', async () => {
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill('');
    await list().waitFor();
    const total = (await e2e.call('breaches-list', {})).total;
    await until('the count to show every breach', async () => expect(await page.locator('p.counts').textContent()).toMatch(new RegExp(`^${total} breaches`)));
    const article = await openBreach(FRESH_BREACH.id);
    await article.getByRole('button', { name: 'Hide this breach' }).click();
    await article.getByText('Hidden from the list on all your devices.').waitFor();
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill('');
    await until('the list to leave out the hidden breach', async () => expect(await list().getByRole('option').first().getAttribute('aria-setsize')).toBe(String(total - 1)));
    await everyWay('breaches-hidden');
    const counts = (await page.locator('p.counts').textContent()) ?? '';
    expect(counts).toMatch(new RegExp(`^${total - 1} breaches`));
    expect(counts).toContain('1 hidden by you');
    // Shown again on request: the count follows.
    await page.getByRole('checkbox', { name: /^Show hidden/ }).check();
    await until('the count to include it again', async () => expect(await page.locator('p.counts').textContent()).toMatch(new RegExp(`^${total} breaches`)));
    await page.getByRole('checkbox', { name: /^Show hidden/ }).uncheck();
    await article.getByRole('button', { name: 'Show this breach again' }).click();
    await page.getByRole('button', { name: 'Close breach detail' }).click();
  }, 90_000);

  it('a partial domain says what the service’s exact domain filter would answer', async () => {
    await nav('Breaches');
    await list().waitFor();
    const known = (await e2e.serviceBreaches({ includeSensitive: false })).map((item) => item.breach.domain).find((domain) => domain.length > 6)!;
    const part = known.slice(1, -1);
    await page.getByRole('combobox', { name: 'Domain' }).fill(part);
    const exact = (await e2e.serviceBreaches({ domain: part })).length;
    const local = (await e2e.call('breaches-list', { domainContains: part })).total;
    expect(local, 'the list matches part of a domain').toBeGreaterThan(exact);
    await until('the list to answer the domain', async () => expect(await list().getByRole('option').first().getAttribute('aria-setsize')).toBe(String(local)));
    await everyWay('breaches-domain-part');
    const note = page.getByRole('note', { name: 'Domain filter' });
    await note.waitFor({ timeout: 5_000 });
    expect(await note.textContent()).toContain(`the service’s domain filter matches whole domains only and would find ${exact === 1 ? '1 breach' : `${exact} breaches`} for “${part}”`);
    // A whole domain: the two agree, and the note is gone.
    await page.getByRole('combobox', { name: 'Domain' }).fill(known);
    await note.waitFor({ state: 'detached' });
    await page.getByRole('combobox', { name: 'Domain' }).fill('');
  }, 90_000);

  it('the other pages fit both sizes and both themes', async () => {
    for (const [link, heading] of [
      ['Overview', 'Overview'],
      ['Fix step by step', 'Fix step by step'],
      ['Search', 'Search'],
      ['Reports', 'Reports'],
      ['Settings', 'Settings'],
    ] as const) {
      await nav(link);
      await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
      await everyWay(`page-${link.toLowerCase().replace(/\W+/g, '-')}`);
    }
  }, 120_000);

  it('the graph: other breaches without the breach itself, tables in words', async () => {
    // One of alice's breaches that shares a data class with another.
    const start = (await e2e.call('breaches-list', {})).rows.find((row) => row.breach.id !== LONG_BREACH.id && row.breach.dataClasses.length > 1)!.breach.id;
    await nav('Graph');
    await page.getByRole('textbox', { name: 'Start nodes' }).fill(start);
    await page.getByRole('radio', { name: 'Other breaches that exposed the same data' }).check();
    await page.getByRole('button', { name: 'Run query' }).click();
    const answers = page.getByRole('region', { name: 'Answers' });
    await until('the second hop to answer', async () => {
      const regions = await answers.getByRole('region').count();
      if (regions < 2) throw new Error(`${regions} answers`);
      if ((await answers.locator('[aria-busy="true"]').count()) > 0) throw new Error('still loading');
    });
    // Every expansion the question made lists breaches other than the start.
    const blocks = answers.getByRole('region');
    for (let i = 1; i < (await blocks.count()); i++) {
      const block = blocks.nth(i);
      expect.soft(await block.getByRole('heading', { level: 3 }).textContent()).toMatch(/^Other breaches that exposed /);
      expect.soft(await block.getByRole('button', { name: `Expand ${start}`, exact: true }).count()).toBe(0);
      expect.soft(await block.locator('.graph-target-text code').allTextContents()).not.toContain(start);
    }
    // Column headers a person reads, never the engine's words.
    const headers = (await answers.getByRole('columnheader').allTextContents()).map((text) => text.trim());
    expect(headers.length).toBeGreaterThan(0);
    for (const header of headers) expect.soft(['Breach', 'Data class', 'Domain', 'Relation', 'Value', 'Linked to', 'Type', 'From', 'Node']).toContain(header);
    expect.soft(headers).not.toContain('Node');
    expect.soft(headers).toContain('Relation');
    expect.soft(await answers.getByText(/->|<-/).count(), 'arrows of the expression language in the answers').toBe(0);
    // Edge labels only where they say something: not on a drawing this size.
    const drawing = page.getByRole('img', { name: /^Graph of \d+ nodes/ });
    expect.soft(await drawing.getAttribute('data-edge-labels')).toBe('hidden');
    await everyWay('graph-same-data');
    // The drawing and the answers, scrolled to, for the eye.
    await page.getByRole('region', { name: 'Drawing', exact: true }).evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await everyWay('graph-same-data-drawing');
    await answers.evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await everyWay('graph-same-data-answers');
  }, 120_000);

  it("the year chart's code is fetched once its card scrolls into view, not before", async () => {
    await page.setViewportSize(SMALL);
    const asked: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (/\/YearChart-[\w-]+\.js$/.test(new URL(request.url()).pathname)) asked.push(request.url());
    };
    page.on('request', onRequest);
    try {
      // A new document: nothing of the chart is loaded yet.
      await e2e.openApp();
      const card = page.getByRole('region', { name: 'Breaches over time' });
      await card.waitFor();
      await settle(page);
      // Two frames more: an observer that found the card in view has said so by now.
      await page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`);
      await expect.poll(() => card.locator('[data-waiting="until-seen"]').count()).toBe(1);
      expect(await card.evaluate((node) => (node as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top)).toBeGreaterThan(SMALL.height);
      expect(asked, 'asked while out of view').toEqual([]);
      await card.scrollIntoViewIfNeeded();
      await eventually('the chart to be asked once in view', async () => asked.length === 1, 10_000);
      await card.locator('svg').first().waitFor({ timeout: 10_000 });
    } finally {
      page.off('request', onRequest);
      await page.setViewportSize(LARGE);
    }
  }, 90_000);
});
