// The core as a UI sees it: every call goes through the router's channels, against the real
// reference service and its real identity provider, with a real Chromium as the person's browser.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { CoreNotification, EventName, TrayState } from '../../shared/ipc/index.ts';
import { startCore, type Core } from '../../electron/core/app.ts';
import { accountDatabasePath } from '../../electron/core/db/openAccountDatabase.ts';
import { eventually } from '../support/waitFor.ts';
import { driveBrowser, launchChromium, signInAs, startReference, tempDir, type ReferenceService } from './auth/harness.ts';

interface Recorder {
  notifications: CoreNotification[];
  tray: TrayState[];
  events: { event: EventName; payload: unknown }[];
}

/** Polls with a deadline and says what it waited for (test/support/waitFor.ts). */
const until = eventually;

describe('the core over its channels', () => {
  let reference: ReferenceService;
  let browser: Browser;
  let core: Core;
  let dataDir: string;
  const seen: Recorder = { notifications: [], tray: [], events: [] };

  const invoke = (channel: string, args: unknown = {}) => core.router.dispatch({ type: 'request', id: 1, channel, args });
  async function call<T>(channel: string, args: unknown = {}): Promise<T> {
    const response = await invoke(channel, args);
    if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`);
    return response.result as T;
  }

  beforeAll(async () => {
    reference = await startReference();
    browser = await launchChromium();
    dataDir = tempDir('bm-core');
    const driven = () => driveBrowser(browser, signInAs('alice@example.com'));
    core = await startCore({
      dataDir,
      keychain: false,
      validateResults: true,
      config: { issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl },
      host: {
        openExternal: async (url) => driven().opener(url),
        notify: (notification) => seen.notifications.push(notification),
        setTrayState: (state) => seen.tray.push(state),
      },
    });
    core.bus.subscribe((event, payload) => seen.events.push({ event, payload }));
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await browser?.close();
    await reference?.close();
  });

  it('starts signed out, with empty views and clear errors', async () => {
    expect(await call('auth-status')).toMatchObject({ state: 'signed-out', remembered: false });
    expect(await call('breaches-list', {})).toEqual({ rows: [], total: 0, unresolvedByDataClass: {}, hiddenSensitive: 0, includesHibp: false });
    const detail = await invoke('breach-get', { id: 'Anything' });
    expect(detail).toMatchObject({ ok: false, error: { code: 'sign-in-required' } });
  });

  it('answers malformed messages with an error and keeps running', async () => {
    expect(await core.router.dispatch('garbage')).toMatchObject({ ok: false, error: { code: 'malformed-message' } });
    expect(await core.router.dispatch({ type: 'request', id: 2, channel: 'no-such', args: {} })).toMatchObject({ id: 2, ok: false, error: { code: 'unknown-channel' } });
    expect(await core.router.dispatch({ type: 'request', id: 3, channel: 'breaches-list', args: { sort: 'sideways' } })).toMatchObject({
      id: 3,
      ok: false,
      error: { code: 'invalid-arguments', issues: [{ path: 'sort' }] },
    });
    expect(await call('sync-status')).toMatchObject({ pending: 0, failed: 0 });
  });

  it('signs in through the browser, then syncs the breaches into the local store', async () => {
    const status = await call<{ state: string; account: { email: string } }>('auth-sign-in');
    expect(status).toMatchObject({ state: 'signed-in', account: { email: 'alice@example.com' } });
    const list = await until('the first sync', async () => {
      const result = await call<{ total: number; rows: { breach: { id: string; isSensitive: boolean } }[] }>('breaches-list', { includeSensitive: true });
      return result.total > 0 ? result : undefined;
    });
    expect(list.rows.length).toBe(list.total);
    const notSensitive = await call<{ total: number }>('breaches-list', {});
    expect(notSensitive.total).toBe(list.rows.filter((row) => !row.breach.isSensitive).length);
    expect(await call<string[]>('breaches-domains')).not.toHaveLength(0);
    expect(await call<string[]>('breaches-data-classes')).toContain('Email addresses');
    expect(seen.events.some((entry) => entry.event === 'auth-changed')).toBe(true);
    expect(seen.notifications.filter((n) => n.kind === 'new-breach')).toEqual([]); // the first sync is a baseline
  });

  it('resolves a data class at once locally, then on the service after a sync', async () => {
    const list = await call<{ rows: { breach: { id: string }; emails: string[] }[] }>('breaches-list', { includeSensitive: true });
    const row = list.rows[0]!;
    await call('resolutions-set', { breachId: row.breach.id, dataClasses: ['Email addresses'], emails: [row.emails[0]], resolved: true });
    const local = await call<{ accounts: { email: string; cells: Record<string, { resolved: boolean; pending: boolean }> }[] }>('breach-get', { id: row.breach.id });
    expect(local.accounts[0]!.cells['Email addresses']).toMatchObject({ resolved: true });
    await call('sync-now');
    const synced = await call<{ accounts: { cells: Record<string, { resolved: boolean; pending: boolean; resolvedAt?: string }> }[] }>('breach-get', { id: row.breach.id });
    expect(synced.accounts[0]!.cells['Email addresses']).toMatchObject({ resolved: true, pending: false });
    expect(synced.accounts[0]!.cells['Email addresses']!.resolvedAt).toMatch(/^\d{4}-/);

    const token = await reference.service.identity!.mintAccessToken({ sub: 'alice', email: 'alice@example.com' });
    const response = await fetch(`${reference.service.apiBaseUrl}/user/breaches?includeSensitive=true`, { headers: { authorization: `Bearer ${token}` } });
    const remote = (await response.json()) as { breach: { id: string }; breachedAccounts: { email: string; resolvedDataClasses: Record<string, unknown> }[] }[];
    const account = remote.find((item) => item.breach.id === row.breach.id)!.breachedAccounts.find((a) => a.email === row.emails[0])!;
    expect(Object.keys(account.resolvedDataClasses)).toContain('Email addresses');
  });

  it('refuses a change to something the account does not have, in words', async () => {
    expect(await invoke('resolutions-set', { breachId: 'NoSuchBreach', dataClasses: ['Passwords'], resolved: true })).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: expect.stringContaining('NoSuchBreach') },
    });
  });

  it('announces a breach that appears on the service, once, in the app; being demo data, never as an OS notification', async () => {
    const origin = reference.service.url;
    const breach = { id: 'FreshLeak2026', domain: 'freshleak.example', breachDate: '2026-11-01', addedDate: '2026-11-20T10:00Z', dataClasses: ['Email addresses', 'Passwords'], isSensitive: false };
    expect((await fetch(`${origin}/__dev/breaches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(breach) })).status).toBe(201);
    const token = await reference.service.identity!.mintAccessToken({ sub: 'alice', email: 'alice@example.com' });
    const current = (await (await fetch(`${reference.service.apiBaseUrl}/user/breaches?includeSensitive=true`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      breach: { id: string };
      breachedAccounts: { email: string }[];
    }[];
    const ids = current.filter((item) => item.breachedAccounts.some((a) => a.email === 'alice@example.com')).map((item) => item.breach.id);
    const put = await fetch(`${origin}/__dev/exposures`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', breachIds: [...ids, breach.id] }),
    });
    expect(put.status).toBe(200);

    await call('sync-now');
    const announced = seen.events.filter((entry) => entry.event === 'breaches-new');
    expect(announced).toHaveLength(1);
    expect(announced[0]!.payload).toMatchObject({ breaches: [{ id: 'FreshLeak2026', emails: ['alice@example.com'] }] });
    // The service runs with --dev, so its data is invented (`breach-data: demo`): the OS never announces it as real.
    expect((await call<{ source: string }>('checks-get')).source).toBe('demo');
    expect(seen.notifications.filter((notification) => notification.kind === 'new-breach')).toEqual([]);
    const list = await call<{ rows: { breach: { id: string }; isNew: boolean }[] }>('breaches-list', { text: 'freshleak' });
    expect(list.rows).toMatchObject([{ breach: { id: 'FreshLeak2026' }, isNew: true }]);
    await call('sync-now');
    expect(seen.events.filter((entry) => entry.event === 'breaches-new')).toHaveLength(1);
    expect(seen.tray.at(-1)).toMatchObject({ signInNeeded: false, syncing: false, demo: true });
    expect(seen.tray.at(-1)!.unresolved).toBeGreaterThan(0);
  });

  it('summarises exposure for the overview', async () => {
    const overview = await call<{ breaches: number; unresolvedByEmail: { email: string }[]; breachesByYear: { year: number }[] }>('overview-get');
    expect(overview.breaches).toBeGreaterThan(0);
    expect(overview.unresolvedByEmail.map((entry) => entry.email)).toContain('alice@example.com');
    expect(overview.breachesByYear.some((entry) => entry.year === 2026)).toBe(true);
  });

  it('answers graph queries from the local breaches, without emails', async () => {
    const result = await call<{ response: { data: Record<string, { arcs?: Record<string, { nodes: { dcid?: string }[] }> }> }; source: string; complete: boolean }>('graph-query', {
      nodes: ['FreshLeak2026'],
      property: '->dataClass',
    });
    expect(result).toMatchObject({ source: 'embedded', complete: true });
    expect(result.response.data.FreshLeak2026!.arcs!.dataClass!.nodes.map((node) => node.dcid)).toEqual(['dataClass/email-addresses', 'dataClass/passwords']);
    const everything = await call<{ response: unknown }>('graph-query', { nodes: ['Breach'], property: '<-typeOf', maxPages: 10 });
    expect(JSON.stringify(everything.response)).not.toContain('@example.com');
    expect(await invoke('graph-query', { nodes: ['Breach'], property: '->[name' })).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(await call('graph-remote-get')).toEqual({ hasKey: false });
  });

  it('keeps settings, and refuses to switch service while signed in', async () => {
    expect(await call('settings-set', { theme: 'dark', syncIntervalMinutes: 15 })).toMatchObject({ theme: 'dark', syncIntervalMinutes: 15 });
    expect(await invoke('settings-set', { serviceUrl: 'https://elsewhere.example/api/v1' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await invoke('settings-set', { syncIntervalMinutes: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
  });

  it('signs out and deletes the local data when asked', async () => {
    const status = await call<{ account: { accountId: string } }>('auth-status');
    expect(status.account.accountId).toMatch(/^[0-9a-f]{32}$/);
    const file = accountDatabasePath(dataDir, reference.service.issuer, 'alice');
    expect(existsSync(file)).toBe(true);
    // A search builds the account's index in memory; signing out lets it go (issue 35, finding 9).
    expect((await call<{ chunks: unknown[] }>('search-run', { requestId: 'before-sign-out', query: '' })).chunks.length).toBeGreaterThan(0);
    expect(core.searchIndexOpen()).toBe(true);
    expect(await call('auth-sign-out', { deleteLocalData: true })).toMatchObject({ state: 'signed-out' });
    expect(core.searchIndexOpen()).toBe(false);
    expect(existsSync(file)).toBe(false);
    expect(await call('breaches-list', {})).toMatchObject({ total: 0 });
    expect(await invoke('search-run', { requestId: 'after-sign-out', query: '' })).toMatchObject({ ok: false, error: { code: 'sign-in-required' } });
  });
});
