// The review UI end to end: Debian Chromium on the browser host, the real core, the real
// reference service and its real OpenID provider. One app and one Chromium for the whole file;
// each test is one step of a person's session and builds on the ones before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ChannelInput } from '../../shared/ipc/contract.ts';
import {
  captureScreen,
  devCall,
  E2E,
  ensureRendererBuilt,
  eventually,
  expectChecked,
  expectListMatchesCore,
  hashParams,
  launchChromium,
  pickInPopover,
  pressSyncNow,
  readList,
  seriousFindings,
  unnamedControls,
  until,
  USE_KEYCHAIN,
  type ScreenAudit,
} from './harness.ts';

const ALICE = 'alice@example.com';
const ALICE_WORK = 'alice.work@example.com';
const NEW_BREACH = { id: 'E2EFreshLeak', domain: 'freshleak.example', breachDate: '2026-10-01', addedDate: '2026-11-20T10:00Z', dataClasses: ['Email addresses', 'Passwords'], isSensitive: false };

type ListQuery = ChannelInput<'breaches-list'>;

describe('the review UI in Chromium against the real stack', { timeout: 60_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  const audits: ScreenAudit[] = [];
  /** What the person decided, per "breach|email|data class": the service must end up with exactly this. */
  const intents = new Map<string, boolean>();

  // ---- how a person gets around ---------------------------------------------------------
  const nav = (name: 'Overview' | 'Breaches' | 'Settings') => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const statusBar = () => page.getByRole('banner');
  const search = () => page.getByRole('searchbox', { name: 'Search breaches' });
  const sensitive = () => page.getByRole('checkbox', { name: 'Include sensitive breaches' });
  const detail = (id: string) => page.getByRole('article', { name: id });

  async function audit(screen: string): Promise<void> {
    const results = await captureScreen(page, screen);
    audits.push(...results);
    expect(seriousFindings(results), `axe on ${screen}`).toEqual([]);
    expect(await unnamedControls(page), `controls without a name on ${screen}`).toEqual([]);
  }

  async function clearFilters(): Promise<void> {
    const clear = page.getByRole('button', { name: 'Clear filters' });
    if (await clear.count()) await clear.click();
    await search().fill('');
    await until('no filters in the address', () => {
      const params = hashParams(page);
      params.delete('sort');
      if (params.toString() !== '') throw new Error(params.toString());
    });
  }

  /** Finds a breach with the search box and opens it from the list. */
  async function openBreach(id: string): Promise<Locator> {
    await search().fill(id);
    await page.getByRole('option', { name: new RegExp(`^${id},`) }).click();
    await detail(id).getByRole('heading', { name: id, level: 2 }).waitFor();
    return detail(id);
  }

  const syncNow = () => pressSyncNow(page, e2e);

  function intend(breachId: string, emails: string[], dataClasses: string[], resolved: boolean): void {
    for (const email of emails) for (const dataClass of dataClasses) intents.set(`${breachId}|${email}|${dataClass}`, resolved);
  }

  /** The service's own record of what is resolved, read with a token the provider minted. */
  async function serviceResolved(): Promise<string[]> {
    const remote = await e2e.serviceBreaches({ includeSensitive: true });
    const resolved: string[] = [];
    for (const item of remote)
      for (const account of item.breachedAccounts) for (const dataClass of Object.keys(account.resolvedDataClasses)) resolved.push(`${item.breach.id}|${account.email}|${dataClass}`);
    return resolved.sort();
  }

  const intended = () =>
    [...intents]
      .filter(([, resolved]) => resolved)
      .map(([key]) => key)
      .sort();

  /** The core's answer for the filters, the list on screen, and (for the service's own filters) the service. */
  async function expectFiltered(query: ListQuery): Promise<string[]> {
    const answer = await expectListMatchesCore(e2e, query);
    const ids = answer.rows.map((row) => row.breach.id);
    if (query.text === undefined && query.email === undefined) {
      const remote = await e2e.serviceBreaches({
        includeSensitive: query.includeSensitive ?? false,
        ...(query.domain ? { domain: query.domain } : {}),
        ...(query.dataClasses ? { dataClasses: query.dataClasses } : {}),
        ...(query.unresolvedDataClasses ? { unresolvedDataClasses: query.unresolvedDataClasses } : {}),
      });
      expect([...ids].sort(), `the service and the core disagree on ${JSON.stringify(query)}`).toEqual(remote.map((item) => item.breach.id).sort());
    }
    return ids;
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: ALICE });
    await e2e.startService();
    await e2e.startApp();
    page = await e2e.openApp();
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
  });

  it('opens on the welcome screen and signs in through the provider in the system browser', async () => {
    const signIn = page.getByRole('button', { name: 'Sign in' });
    await signIn.waitFor();
    await audit('welcome');
    await signIn.click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    expect(await e2e.signInsFinished()).toHaveLength(1);
    expect(await e2e.call('auth-status', {})).toMatchObject({ state: 'signed-in', account: { email: ALICE } });
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await serviceResolved()).toEqual([]);
  });

  it('shows the breaches the service has for the person', async () => {
    const remote = await e2e.serviceBreaches({ includeSensitive: true });
    await eventually('the first sync', async () => (await e2e.call('breaches-list', { includeSensitive: true })).total === remote.length);
    await nav('Breaches');
    await page.getByRole('listbox', { name: 'Breaches' }).waitFor();
    const answer = await expectListMatchesCore(e2e, {});
    expect(answer.total).toBe(remote.filter((item) => !item.breach.isSensitive).length);
    expect(answer.total).toBeGreaterThan(10);
    await audit('breaches');
  });

  it('summarises the exposure in the overview and links into the list by email', async () => {
    await nav('Overview');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const overview = await e2e.call('overview-get', {});
    await page.getByRole('link', { name: `Breaches ${overview.breaches}` }).waitFor();
    await audit('overview');
    const work = overview.unresolvedByEmail.find((entry) => entry.email === ALICE_WORK)!;
    await page.getByRole('link', { name: `Breaches of ${ALICE_WORK}: ${work.count}` }).click();
    await page.getByRole('listbox', { name: 'Breaches' }).waitFor();
    expect(hashParams(page).get('email')).toBe(ALICE_WORK);
    const ids = await expectFiltered({ email: ALICE_WORK });
    expect(ids.length).toBeGreaterThan(0);
    await clearFilters();
    await expectFiltered({});
  });

  it('filters by text, sort order, domain, data classes and unresolved data classes, one at a time', async () => {
    await search().fill('falcon');
    const byText = await expectFiltered({ text: 'falcon' });
    expect(byText.length).toBeGreaterThan(1);
    expect(byText.every((id) => id.toLowerCase().includes('falcon'))).toBe(true);
    expect(hashParams(page).get('text')).toBe('falcon');
    await search().fill('');

    const sortBy = page.getByRole('combobox', { name: 'Sort by' });
    for (const sort of ['name', 'addedDate', 'unresolved', 'breachDate'] as const) {
      await sortBy.selectOption(sort);
      await expectFiltered({ sort });
    }

    const domain = page.getByRole('combobox', { name: 'Domain' });
    await domain.fill('oakshop.example');
    await domain.press('Enter');
    expect(await expectFiltered({ domain: 'oakshop.example' })).toEqual(['OakShop']);
    expect(hashParams(page).get('domain')).toBe('oakshop.example');
    await domain.fill('');
    await domain.press('Enter');
    await expectFiltered({});

    await pickInPopover(page, 'Data classes', { Passwords: true });
    const passwords = await expectFiltered({ dataClasses: ['Passwords'] });
    await pickInPopover(page, 'Data classes', { 'Phone numbers': true });
    const either = await expectFiltered({ dataClasses: ['Passwords', 'Phone numbers'] });
    expect(either.length).toBeGreaterThan(passwords.length);
    expect(hashParams(page).getAll('dataClasses')).toEqual(['Passwords', 'Phone numbers']);
    await page.getByRole('button', { name: 'Remove data class filter Passwords' }).click();
    await page.getByRole('button', { name: 'Remove data class filter Phone numbers' }).click();
    await expectFiltered({});

    await pickInPopover(page, 'Unresolved data classes', { 'Security questions and answers': true });
    expect((await expectFiltered({ unresolvedDataClasses: ['Security questions and answers'] })).length).toBeGreaterThan(0);
    await clearFilters();
    await expectFiltered({});
  });

  it('includes sensitive breaches only when asked', async () => {
    const all = await e2e.serviceBreaches({ includeSensitive: true });
    const sensitiveIds = all.filter((item) => item.breach.isSensitive).map((item) => item.breach.id);
    expect(sensitiveIds.length).toBeGreaterThan(0);
    await sensitive().check();
    const ids = await expectFiltered({ includeSensitive: true });
    expect(ids.length).toBe(all.length);
    expect(hashParams(page).get('includeSensitive')).toBe('true');
    // A sensitive row says so in its name, not only with a badge.
    await search().fill(sensitiveIds[0]!);
    await page.getByRole('option', { name: new RegExp(`^${sensitiveIds[0]},.*, sensitive`) }).waitFor();
    await search().fill('');
    await sensitive().uncheck();
    const without = await expectFiltered({});
    expect(without.some((id) => sensitiveIds.includes(id))).toBe(false);
  });

  it('combines filters, and the address keeps them across a reload', async () => {
    await sensitive().check();
    await pickInPopover(page, 'Data classes', { 'Private messages': true });
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('name');
    const combined = await expectFiltered({ includeSensitive: true, dataClasses: ['Private messages'], sort: 'name' });
    expect(combined).toEqual([...combined].sort((a, b) => a.localeCompare(b)));
    await search().fill('willow');
    await expectFiltered({ includeSensitive: true, dataClasses: ['Private messages'], sort: 'name', text: 'willow' });

    await page.reload();
    await page.getByRole('listbox', { name: 'Breaches' }).waitFor();
    expect(await search().inputValue()).toBe('willow');
    expect(await sensitive().isChecked()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('name');
    await page.getByRole('button', { name: /^Data classes 1 selected/ }).waitFor();
    await expectFiltered({ includeSensitive: true, dataClasses: ['Private messages'], sort: 'name', text: 'willow' });
    await clearFilters();

    const domain = page.getByRole('combobox', { name: 'Domain' });
    await domain.fill('juniperhealthdirect.example');
    await domain.press('Enter');
    await pickInPopover(page, 'Unresolved data classes', { Passwords: true, 'Phone numbers': true });
    expect(await expectFiltered({ domain: 'juniperhealthdirect.example', unresolvedDataClasses: ['Passwords', 'Phone numbers'] })).toEqual(['JuniperHealthDirect']);
    await pickInPopover(page, 'Data classes', { Usernames: true });
    expect(await expectFiltered({ domain: 'juniperhealthdirect.example', dataClasses: ['Usernames'], unresolvedDataClasses: ['Passwords', 'Phone numbers'] })).toEqual([]);
    await page.getByRole('heading', { name: 'No breaches match these filters' }).waitFor();
    await page.getByRole('button', { name: 'Show all breaches' }).click();
    await expectFiltered({ sort: 'name' });
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('breachDate');
    await expectFiltered({});
  });

  it('takes an advanced filter in the search filter language: problems named by place, then the same list as the service', async () => {
    await page.getByText('Advanced filter', { exact: true }).click();
    const field = page.getByRole('textbox', { name: 'Metadata filter (JSON)' });
    await field.fill('{"dataClasses": {"$has": "Passwords"}}');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await page
      .getByRole('alert', { name: 'Problems with the advanced filter' })
      .getByText(/^\/dataClasses\/\$has: /)
      .waitFor();
    expect(hashParams(page).has('filter')).toBe(false);

    const filter = { domain: { $in: ['oakshop.example'] }, dataClasses: 'Passwords' };
    await field.fill(JSON.stringify(filter));
    await page.getByRole('button', { name: 'Apply filter' }).click();
    const answer = await expectListMatchesCore(e2e, { metadataFilter: filter });
    const remote = await e2e.serviceBreaches({ includeSensitive: false, domain: 'oakshop.example', dataClasses: ['Passwords'] });
    expect(answer.rows.map((row) => row.breach.id).sort()).toEqual(remote.map((item) => item.breach.id).sort());
    expect(JSON.parse(hashParams(page).get('filter') ?? 'null')).toEqual(filter);
    await page.getByRole('button', { name: 'Remove advanced filter', exact: true }).click();
    await expectFiltered({});
  });

  it('resolves a data class for one email and for all emails, locally at once and on the service after a sync', async () => {
    const juniper = await openBreach('JuniperHealthDirect');
    await audit('detail');
    const one = juniper.getByRole('checkbox', { name: `Passwords for ${ALICE}`, exact: true });
    await one.check();
    intend('JuniperHealthDirect', [ALICE], ['Passwords'], true);
    await expectChecked(one, true);
    const forAll = juniper.getByRole('checkbox', { name: 'Phone numbers for all emails', exact: true });
    await forAll.check();
    intend('JuniperHealthDirect', [ALICE, ALICE_WORK], ['Phone numbers'], true);
    await expectChecked(juniper.getByRole('checkbox', { name: `Phone numbers for ${ALICE_WORK}`, exact: true }), true);
    // "Passwords for all emails" is now half done: mixed, not checked.
    expect(await juniper.getByRole('checkbox', { name: 'Passwords for all emails', exact: true }).isChecked()).toBe(false);

    await syncNow();
    await until('the service to have the intents', async () => expect(await serviceResolved()).toEqual(intended()));
    await juniper.getByText('Queued').first().waitFor({ state: 'detached' });
    expect(await e2e.call('sync-status', {})).toMatchObject({ pending: 0, failed: 0 });

    // The unresolved filter follows: Phone numbers is done for this breach, Passwords is not.
    await page.getByRole('button', { name: 'Close breach detail' }).click();
    await search().fill('');
    await pickInPopover(page, 'Unresolved data classes', { 'Phone numbers': true });
    expect(await expectFiltered({ unresolvedDataClasses: ['Phone numbers'] })).not.toContain('JuniperHealthDirect');
    await clearFilters();
  });

  it('keeps resolving while the service is down, across a restart of the core, and the service ends up with every intent', async () => {
    await e2e.stopService();
    await syncNow();
    await statusBar().getByText('Offline', { exact: true }).waitFor();

    // Undo one change, resolve a whole column, and mark a whole breach resolved.
    const juniper = await openBreach('JuniperHealthDirect');
    const one = juniper.getByRole('checkbox', { name: `Passwords for ${ALICE}`, exact: true });
    await one.uncheck();
    intend('JuniperHealthDirect', [ALICE], ['Passwords'], false);
    await expectChecked(one, false);
    const cobalt = await openBreach('CobaltNet');
    await cobalt.getByRole('checkbox', { name: `All classes for ${ALICE_WORK}`, exact: true }).check();
    intend('CobaltNet', [ALICE_WORK], ['Email addresses', 'Phone numbers'], true);
    const oak = await openBreach('OakShop');
    await oak.getByRole('button', { name: 'Mark all resolved' }).click();
    intend('OakShop', [ALICE, ALICE_WORK], ['Email addresses', 'Passwords'], true);
    await expectChecked(oak.getByRole('checkbox', { name: `Passwords for ${ALICE_WORK}`, exact: true }), true);
    await oak.getByText(/changes queued\./).waitFor();
    await statusBar()
      .getByText(/changes? queued/)
      .waitFor();
    const queued = (await e2e.call('sync-status', {})).pending;
    expect(queued).toBeGreaterThanOrEqual(3);
    await audit('offline');
    expect(await e2e.serviceBreaches().catch(() => 'down')).toBe('down');

    // Restart the core while the service is still down: the queue is on disk. The session
    // survives too when the secret store is persistent (the run's private keyring).
    const { remembered } = await e2e.call('auth-status', {});
    expect(remembered).toBe(USE_KEYCHAIN);
    await e2e.stopApp();
    // The window notices that the app behind it is gone.
    await page.getByRole('region', { name: 'Connection lost' }).waitFor();
    await audit('disconnected');
    await e2e.startApp();
    await e2e.openApp();
    expect((await e2e.call('sync-status', {})).pending).toBe(queued);
    await e2e.startService();
    if (remembered) {
      // The keychain kept the session: no sign-in needed.
      expect((await e2e.call('auth-status', {})).state).toBe('signed-in');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await syncNow();
    } else {
      // Without a keychain the session ended with the process: sign in again; the queue waits.
      const banner = page.getByRole('region', { name: 'Sign-in needed' });
      await banner.getByRole('button', { name: 'Sign in' }).click();
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
    }
    await until('the service to have every intent', async () => expect(await serviceResolved()).toEqual(intended()), 20_000);
    await eventually('the queue to empty', async () => (await e2e.call('sync-status', {})).pending === 0);
    await statusBar().getByText('Online', { exact: true }).waitFor();
    const detailNow = await e2e.call('breach-get', { id: 'OakShop' });
    expect(detailNow.accounts.flatMap((account) => Object.values(account.cells)).every((cell) => cell.resolved && !cell.pending)).toBe(true);
  }, 60_000);

  it('announces a breach added on the service: event, banner, and a row marked new', async () => {
    await devCall(e2e.serviceOrigin, 'POST', '/__dev/breaches', NEW_BREACH);
    const current = await e2e.serviceBreaches({ includeSensitive: true });
    const mine = current.filter((item) => item.breachedAccounts.some((account) => account.email === ALICE)).map((item) => item.breach.id);
    await devCall(e2e.serviceOrigin, 'PUT', '/__dev/exposures', { email: ALICE, breachIds: [...mine, NEW_BREACH.id] });

    await nav('Breaches');
    await syncNow();
    const announced = await eventually('a breaches-new event', () => e2e.events.find((entry) => entry.event === 'breaches-new'));
    expect(announced.payload).toMatchObject({ breaches: [{ id: NEW_BREACH.id, emails: [ALICE], dataClasses: NEW_BREACH.dataClasses }] });

    const banner = page.getByRole('region', { name: 'New breaches' });
    // The service runs with --dev: its data is invented, and the banner says so rather than announce it as real.
    await banner.filter({ hasText: /Demo: 1 new invented breach naming you/ }).waitFor();
    await page.getByRole('option', { name: new RegExp(`^${NEW_BREACH.id},.*, new`) }).waitFor();
    const list = await readList(page);
    expect(list.firstIds[0]).toBe(NEW_BREACH.id);
    await audit('new-breach');
    await banner.getByRole('button', { name: `Review ${NEW_BREACH.id}` }).click();
    await banner.waitFor({ state: 'detached' });
    const fresh = detail(NEW_BREACH.id);
    await fresh.getByText('New', { exact: true }).waitFor();
    await fresh.getByRole('checkbox', { name: `Passwords for ${ALICE}`, exact: true }).waitFor();
    // Once: a second sync announces nothing new.
    await syncNow();
    expect(e2e.events.filter((entry) => entry.event === 'breaches-new')).toHaveLength(1);
  });

  it('switches the theme from Settings, and keeps the choice in the core', async () => {
    await nav('Settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await audit('settings');
    const theme = page.getByRole('group', { name: 'Theme' });
    await theme.getByRole('radio', { name: 'Dark' }).check();
    await until('the dark theme', async () => expect(await page.locator('html').getAttribute('data-theme')).toBe('dark'));
    await eventually('the theme saved', async () => (await e2e.call('settings-get', {})).theme === 'dark');
    await theme.getByRole('radio', { name: 'Light' }).check();
    await until('the light theme', async () => expect(await page.locator('html').getAttribute('data-theme')).toBe('light'));
    await theme.getByRole('radio', { name: 'System' }).check();
    await until('the system theme', async () => expect(await page.locator('html').getAttribute('data-theme')).toBeNull());
    await eventually('the theme saved', async () => (await e2e.call('settings-get', {})).theme === 'system');
  });

  it('asks to sign in again when the session is gone, keeping the data in view meanwhile', async () => {
    // A core without the saved session (no keychain): the account is remembered, its tokens not.
    await e2e.stopApp();
    await e2e.startApp({ keychain: false });
    await e2e.openApp();
    const banner = page.getByRole('region', { name: 'Sign-in needed' });
    await banner.waitFor();
    await nav('Breaches');
    await expectFiltered({});
    await audit('sign-in-needed');
    await banner.getByRole('button', { name: 'Sign in' }).click();
    await banner.waitFor({ state: 'detached', timeout: 20_000 });
    expect((await e2e.call('auth-status', {})).state).toBe('signed-in');
    expect(await serviceResolved()).toEqual(intended());
  });

  it('threw no errors and broke no Content-Security-Policy rule in the page', () => {
    expect(e2e.pageErrors).toEqual([]);
    expect(audits.map((entry) => `${entry.screen}-${entry.theme}`)).toHaveLength(18);
  });
});
