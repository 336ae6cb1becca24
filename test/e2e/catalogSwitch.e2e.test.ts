// Issue 25, finding 4, in Chromium against the real stack: alice uses the app on the demo catalog
// and resolves a data class; the service restarts with a Have I Been Pwned catalog file; after a
// sync alice still sees her breaches, each marked "Removed from the catalog", with her resolution,
// and a notice says what the switch did to her account until she dismisses it.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/waitFor.ts';
import { captureScreen, E2E, ensureRendererBuilt, launchChromium, seriousFindings, unnamedControls, until } from './harness.ts';

const HIBP_FILE = path.resolve(import.meta.dirname, '../../../shared/fixtures/hibp/breaches.json');
const ALICE = 'alice@example.com';

describe('a catalog switch under a signed-in person (Chromium)', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;

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

  it('keeps her breaches marked removed, with her resolution, and says what changed', async () => {
    const before = await e2e.serviceBreaches({ includeSensitive: true });
    const target = before.find((item) => !item.breach.isSensitive)!;
    const dataClass = target.breach.dataClasses[0]!;
    const resolved = await fetch(`${e2e.apiBaseUrl}/user/breaches/resolutions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await e2e.serviceToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ breachId: target.breach.id, dataClasses: [dataClass], resolved: true }]),
    });
    expect(resolved.status).toBe(204);
    await e2e.call('sync-now', {});
    await eventually('the resolution synced', async () => {
      const detail = await e2e.call('breach-get', { id: target.breach.id });
      return detail.accounts.some((account) => account.cells[dataClass]?.resolved);
    });
    // Nothing to tell before the switch.
    await expect(page.getByRole('status', { name: 'Catalog changes' }).count()).resolves.toBe(0);

    await e2e.stopService();
    e2e.catalogFile = HIBP_FILE;
    await e2e.startService();
    await e2e.call('sync-now', {});

    const notice = page.getByRole('status', { name: 'Catalog changes' });
    await eventually('the core to hear of the switch', async () => (await e2e.call('breaches-list', {})).catalogNotice);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Breaches', exact: true }).click();
    await notice.waitFor({ timeout: 20_000 });
    // One sentence per monitored address (alice has three), hers with the resolution it keeps.
    const text = (await notice.textContent()) ?? '';
    const emails = [...new Set(before.flatMap((item) => item.breachedAccounts.map((account) => account.email)))].sort();
    for (const email of emails) {
      const count = before.filter((item) => item.breachedAccounts.some((account) => account.email === email)).length;
      const kept = email === ALICE ? ' (1 resolved data class)' : '';
      expect(text).toContain(
        `The service switched from the demo catalog to a catalog file: ${count} breaches of ${email} were removed from the catalog; they stay in your list, marked “Removed from the catalog”, and your resolutions are kept${kept}.`,
      );
    }

    // The list still holds every breach, each marked.
    const list = await e2e.call('breaches-list', { includeSensitive: true });
    expect(list.total).toBe(before.length);
    expect(list.rows.every((row) => row.removedFromCatalogAt !== undefined)).toBe(true);
    await page
      .getByRole('option', { name: new RegExp(`^${target.breach.id},.*removed from the catalog`) })
      .first()
      .waitFor();

    // Its detail says so, and the resolution is still there.
    await page.getByRole('searchbox', { name: 'Search breaches' }).fill(target.breach.id);
    await page.getByRole('option', { name: new RegExp(`^${target.breach.id},`) }).click();
    const article = page.getByRole('article', { name: target.breach.id });
    await article.getByText(/^Removed from the catalog on /).waitFor();
    const detail = await e2e.call('breach-get', { id: target.breach.id });
    expect(detail.removedFromCatalogAt).toMatch(/^\d{4}-/);
    // The notice, the row's mark and the detail's note, in light and dark (test-results/screenshots).
    expect(seriousFindings(await captureScreen(page, 'catalog-switch')), 'axe on the catalog notice').toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    expect(Object.entries(detail.accounts[0]!.cells).filter(([, cell]) => cell.resolved).length).toBe(1);

    // Dismissed, it stays dismissed across syncs.
    await notice.getByRole('button', { name: 'Dismiss catalog changes' }).click();
    await until('the notice to go', async () => {
      if ((await notice.count()) > 0) throw new Error('still shown');
    });
    await e2e.call('sync-now', {});
    expect((await e2e.call('breaches-list', {})).catalogNotice).toBeUndefined();
  }, 120_000);
});
