// One sensitive policy, every surface: with "Show sensitive breaches" off (the default), no
// surface of the core names or counts a sensitive breach — the list, the overview, the tray's
// number, the report (Fix, Reports, exports), the graph, both search engines' filter, the
// new-breach banner's event and the notification. Turned on, every one of them has them.
// The real core over its channels, the real reference service and its provider (demo data:
// alice has sensitive breaches), a real Chromium as the person's browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { CoreNotification, EventName, TrayState } from '../../shared/ipc/index.ts';
import type { Report } from '../../shared/report/report.ts';
import { startCore, type Core } from '../../electron/core/app.ts';
import { eventually } from '../support/waitFor.ts';
import { driveBrowser, launchChromium, signInAs, startReference, tempDir, type ReferenceService } from './auth/harness.ts';

interface Row {
  breach: { id: string; isSensitive: boolean };
}

describe('the one sensitive policy, surface by surface', () => {
  let reference: ReferenceService;
  let browser: Browser;
  let core: Core;
  const notifications: CoreNotification[] = [];
  const tray: TrayState[] = [];
  const events: { event: EventName; payload: unknown }[] = [];
  let sensitiveIds: string[];
  let everyId: string[];

  async function call<T>(channel: string, args: unknown = {}): Promise<T> {
    const response = await core.router.dispatch({ type: 'request', id: 1, channel, args });
    if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`);
    return response.result as T;
  }
  async function dev(method: string, pathname: string, body: unknown): Promise<void> {
    const response = await fetch(reference.service.url + pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.ok).toBe(true);
  }
  /** Breaches added on the service and given to alice; the next sync finds them new. */
  async function newBreachesForAlice(added: { id: string; isSensitive: boolean }[]): Promise<void> {
    for (const { id, isSensitive } of added)
      await dev('POST', '/__dev/breaches', {
        id,
        domain: `${id.toLowerCase()}.example`,
        breachDate: '2026-11-01',
        addedDate: '2026-11-20T10:00Z',
        dataClasses: ['Email addresses', 'Passwords'],
        isSensitive,
      });
    const held = await call<{ rows: Row[] }>('breaches-list', { includeSensitive: true, limit: 10_000 });
    await dev('PUT', '/__dev/exposures', { email: 'alice@example.com', breachIds: [...held.rows.map((row) => row.breach.id), ...added.map((breach) => breach.id)] });
  }
  const searchKeys = async (query: string) =>
    await call<{ chunks: { item: { key: string } }[]; filters?: Record<string, unknown> }>('search-run', {
      requestId: query,
      engine: 'embedded',
      query,
      onlyMine: true,
      answer: false,
      maxResults: 50,
    });
  const graphNames = async () => {
    const result = await call<{ response: { data: Record<string, { arcs?: Record<string, { nodes: { dcid?: string }[] }> }> } }>('graph-query', {
      nodes: ['Breach'],
      property: '<-typeOf',
      maxPages: 10,
    });
    return Object.values(result.response.data).flatMap((data) => Object.values(data.arcs ?? {}).flatMap((arc) => arc.nodes.map((node) => node.dcid ?? '')));
  };

  beforeAll(async () => {
    reference = await startReference();
    browser = await launchChromium();
    core = await startCore({
      dataDir: tempDir('bm-core-sensitive'),
      keychain: false,
      validateResults: true,
      config: { issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl },
      host: { openExternal: async (url) => driveBrowser(browser, signInAs('alice@example.com')).opener(url), notify: (n) => notifications.push(n), setTrayState: (state) => tray.push(state) },
    });
    core.bus.subscribe((event, payload) => events.push({ event, payload }));
    await call('auth-sign-in');
    await eventually('the first sync', async () => ((await call<{ lastSyncAt?: string }>('sync-status')).lastSyncAt ? true : undefined));
    const all = await call<{ rows: Row[] }>('breaches-list', { includeSensitive: true, limit: 10_000 });
    everyId = all.rows.map((row) => row.breach.id);
    sensitiveIds = all.rows.filter((row) => row.breach.isSensitive).map((row) => row.breach.id);
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await browser?.close();
    await reference?.close();
  });

  it('alice has sensitive breaches (the test would prove nothing otherwise), and the setting is off by default', async () => {
    expect(sensitiveIds.length).toBeGreaterThan(0);
    expect((await call<{ showSensitive?: boolean }>('settings-get')).showSensitive).toBeUndefined();
  });

  // Soft: on code without the policy, every surface that leaks is reported, not only the first.
  it('off: no surface names or counts them', { timeout: 30_000 }, async () => {
    // The list: left out, and how many said.
    const list = await call<{ rows: Row[]; total: number; hiddenSensitive: number }>('breaches-list', { limit: 10_000 });
    expect.soft(list.rows.filter((row) => row.breach.isSensitive)).toEqual([]);
    expect.soft(list.hiddenSensitive).toBe(sensitiveIds.length);
    // The overview: figures without them, their number said.
    expect.soft(await call('overview-get')).toMatchObject({ breaches: everyId.length - sensitiveIds.length, sensitiveBreaches: sensitiveIds.length });
    // The report (Fix, Reports, the exports).
    const report = await call<Report>('report-get');
    expect.soft(report.breaches.filter((entry) => sensitiveIds.includes(entry.breach.id))).toEqual([]);
    expect.soft(report.hiddenSensitive).toBe(sensitiveIds.length);
    // The tray's number: the report's unresolved cells, sensitive ones not among them.
    const unresolvedShown = report.breaches
      .filter((entry) => !sensitiveIds.includes(entry.breach.id))
      .flatMap((entry) => entry.accounts.flatMap((account) => Object.values(account.cells)))
      .filter((cell) => !cell.resolved).length;
    await eventually('the tray', async () => (tray.at(-1)?.unresolved === unresolvedShown ? true : undefined), 3_000).catch(() => undefined);
    expect.soft(tray.at(-1)?.unresolved).toBe(unresolvedShown);
    // The graph.
    const names = await graphNames();
    expect.soft(names.filter((name) => sensitiveIds.includes(name))).toEqual([]);
    expect.soft(names.length).toBe(everyId.length - sensitiveIds.length);
    // Search: the filter as sent says so, and no result is one of them.
    const found = await searchKeys(sensitiveIds[0]!);
    expect.soft(found.filters).toMatchObject({ isSensitive: false });
    expect.soft(found.chunks.map((chunk) => chunk.item.key).filter((key) => sensitiveIds.some((id) => key === `breaches/${id}`))).toEqual([]);
    // The new-breach banner's event and the notification.
    await newBreachesForAlice([
      { id: 'QuietDating2026', isSensitive: true },
      { id: 'LoudShop2026', isSensitive: false },
    ]);
    const before = notifications.length;
    await call('sync-now');
    const announced = events.filter((entry) => entry.event === 'breaches-new').map((entry) => entry.payload as { breaches: { id: string }[] });
    expect.soft(announced.flatMap((payload) => payload.breaches.map((breach) => breach.id))).toEqual(['LoudShop2026']);
    // The reference service here serves demo data, which the OS never announces (NotifierPolicy):
    // the notification's list is the event's, so the event above is where the policy shows.
    expect.soft(notifications.slice(before).map((n) => (n as { breachId?: string }).breachId)).toEqual([]);
    sensitiveIds.push('QuietDating2026');
    everyId.push('QuietDating2026', 'LoudShop2026');
  });

  it('on: every surface has them, and the change is announced so windows ask again', { timeout: 30_000 }, async () => {
    const changes = events.filter((entry) => entry.event === 'data-changed').length;
    await call('settings-set', { showSensitive: true });
    expect(events.filter((entry) => entry.event === 'data-changed').length).toBe(changes + 1);
    const list = await call<{ rows: Row[]; hiddenSensitive: number }>('breaches-list', { limit: 10_000 });
    expect(
      list.rows
        .filter((row) => row.breach.isSensitive)
        .map((row) => row.breach.id)
        .sort(),
    ).toEqual([...sensitiveIds].sort());
    expect(list.hiddenSensitive).toBe(0);
    expect(await call('overview-get')).toMatchObject({ breaches: everyId.length, sensitiveBreaches: sensitiveIds.length, sensitiveShown: true });
    const report = await call<Report>('report-get');
    expect(report.breaches.length).toBe(everyId.length);
    expect(report.hiddenSensitive).toBeUndefined();
    const unresolvedAll = report.breaches.flatMap((entry) => entry.accounts.flatMap((account) => Object.values(account.cells))).filter((cell) => !cell.resolved).length;
    await eventually('the tray', async () => (tray.at(-1)?.unresolved === unresolvedAll ? true : undefined));
    expect((await graphNames()).length).toBe(everyId.length);
    const found = await searchKeys(sensitiveIds[0]!);
    expect(found.filters?.isSensitive).toBeUndefined();
    expect(found.chunks.map((chunk) => chunk.item.key)).toContain(`breaches/${sensitiveIds[0]!}`);
  });
});
