// The logins feature inside the whole core (startCore), over its channels and events: a person
// signed in through Chromium against the reference service imports an export; its sites meet the
// breaches the sync brought; the Pwned Passwords check runs against the stand-in named in
// Settings; a breach the service adds later at a login's site reaches the logins after a sync;
// signing out shows nothing. Then no password or unkeyed hash of one is in the data folder, the
// core's log, or anything the UI was answered or sent.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, LoginImportResult, LoginsView } from '../../../shared/ipc/index.ts';
import { startCore, type Core } from '../../../electron/core/app.ts';
import { startPwnedPasswordsStandIn, type PwnedPasswordsStandIn } from '../../support/pwnedPasswordsStandIn.ts';
import { eventually } from '../../support/waitFor.ts';
import { captureLogs, driveBrowser, launchChromium, signInAs, startReference, tempDir, testCipher, type ReferenceService } from '../auth/harness.ts';
import { sha1Hex, sha256Hex } from './harness.ts';
import { firefoxCsv, type FixtureLogin } from './fixtures.ts';

describe('logins in the core', () => {
  let reference: ReferenceService;
  let browser: Browser;
  let standIn: PwnedPasswordsStandIn;
  let core: Core;
  let dataDir: string;
  let exportsDir: string;
  let breachedDomain: string;
  const logs = captureLogs();
  const events: { event: EventName; payload: unknown }[] = [];
  const answers: unknown[] = [];
  const logins: FixtureLogin[] = [];

  let id = 0;
  const dispatch = async (channel: string, args: unknown = {}) => {
    const response = await core.router.dispatch({ type: 'request', id: ++id, channel, args });
    answers.push(response);
    return response;
  };
  async function call<T>(channel: string, args: unknown = {}): Promise<T> {
    const response = await dispatch(channel, args);
    if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`);
    return response.result as T;
  }

  beforeAll(async () => {
    [reference, browser] = await Promise.all([startReference(), launchChromium()]);
    standIn = await startPwnedPasswordsStandIn({ 'correct horse 1': 77, 'Fluffy2009!': 3 });
    dataDir = tempDir('bm-logins-core');
    exportsDir = tempDir('bm-logins-exports');
    const cipher = testCipher();
    core = await startCore({
      dataDir,
      keychain: false,
      validateResults: true,
      logger: logs.logger,
      config: { issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl },
      host: {
        openExternal: async (url) => driveBrowser(browser, signInAs('alice@example.com')).opener(url),
        notify: () => {},
        setTrayState: () => {},
        cipher: {
          isAvailable: async () => cipher.isEncryptionAvailable(),
          encrypt: async (plaintext) => cipher.encryptString(plaintext) as Buffer,
          decrypt: async (ciphertext) => cipher.decryptString(Buffer.from(ciphertext)) as string,
        },
      },
    });
    core.bus.subscribe((event, payload) => events.push({ event, payload }));
    await call('settings-set', { pwnedPasswordsUrl: standIn.origin });
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await browser?.close();
    await standIn?.close();
    await reference?.close();
  });

  it('is empty and refuses an import while nobody is signed in', async () => {
    expect((await call<LoginsView>('logins-get')).logins).toEqual([]);
    expect(await dispatch('logins-import', { importId: 'import-none', path: path.join(exportsDir, 'none.csv') })).toMatchObject({ ok: false, error: { code: 'sign-in-required' } });
  });

  it('imports an export after sign-in, matches a site of a breach the sync brought, and checks the passwords', async () => {
    await call('auth-sign-in');
    const domains = await eventually('the first sync', async () => {
      const list = await call<string[]>('breaches-domains');
      return list.length > 0 ? list : undefined;
    });
    breachedDomain = domains[0]!;
    logins.push(
      { url: `https://login.${breachedDomain}/signin?return=%2F`, username: 'alice', password: 'correct horse 1', changed: '2000-01-01T00:00:00Z' },
      { url: 'https://www.freshleak-test.com/', username: 'alice', password: 'Fluffy2009!' },
      { url: 'https://quiet-test.org/', username: 'alice', password: 'correct horse 1' },
    );
    const file = path.join(exportsDir, 'firefox.csv');
    writeFileSync(file, firefoxCsv(logins));
    const result = await call<LoginImportResult>('logins-import', { importId: 'import-core1', path: file });
    expect(result).toMatchObject({ format: 'firefox-csv', imported: 3, breachedSites: 1, reusedPasswords: 1, passwordsToCheck: 2 });
    expect(events.filter((event) => event.event === 'logins-import-progress').map((event) => (event.payload as { importId: string }).importId)).not.toHaveLength(0);
    const checked = await eventually('the Pwned Passwords check', async () => {
      const view = await call<LoginsView>('logins-get');
      return view.passwordCheck.state === 'done' ? view : undefined;
    });
    const atBreached = checked.logins.find((login) => login.url?.includes(breachedDomain))!;
    expect(atBreached.breaches.length).toBeGreaterThan(0);
    expect(atBreached.breaches.every((breach) => breach.verdict === 'change')).toBe(true);
    expect(atBreached.pwned).toEqual({ state: 'found', count: 77 });
    expect(checked.summary).toMatchObject({ logins: 3, pwnedPasswords: 2, reusedPasswords: 1 });
    expect(standIn.requests.every((request) => /^\/range\/[0-9A-F]{5}$/.test(request.path))).toBe(true);
  });

  it('a breach the service adds later at a login site reaches the logins after the next sync', async () => {
    const origin = reference.service.url;
    const addedDate = new Date(Date.now() + 60_000).toISOString();
    const breach = { id: 'FreshLeakLogins', domain: 'freshleak-test.com', breachDate: '2026-11-01', addedDate, dataClasses: ['Email addresses', 'Passwords'], isSensitive: false };
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
    const before = events.length;
    await call('sync-now');
    const changed = await eventually('logins-changed naming the new breach', () =>
      events
        .slice(before)
        .filter((event) => event.event === 'logins-changed')
        .map((event) => event.payload as LoginsView)
        .find((view) => view.logins.some((login) => login.breaches.some((found) => found.breachId === 'FreshLeakLogins'))),
    );
    expect(changed.logins.find((login) => login.site === 'freshleak-test.com')!.breaches).toEqual([
      { breachId: 'FreshLeakLogins', title: 'FreshLeakLogins', breachDate: '2026-11-01', verdict: 'unknown-date' },
    ]);
  });

  it('signing out shows no login', async () => {
    const before = events.length;
    await call('auth-sign-out', { deleteLocalData: false });
    await eventually('an empty logins view', () => events.slice(before).find((event) => event.event === 'logins-changed' && (event.payload as LoginsView).logins.length === 0));
    expect((await call<LoginsView>('logins-get')).logins).toEqual([]);
  });

  it('left no password or unkeyed hash of one in the data folder, the log, or what the UI was told', () => {
    const files = readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(dataDir, name))
      .filter((file) => statSync(file).isFile());
    const places: [string, Buffer][] = [
      ...files.map((file): [string, Buffer] => [path.relative(dataDir, file), readFileSync(file)]),
      ['log', Buffer.from(logs.lines.join('\n'))],
      ['answers', Buffer.from(JSON.stringify(answers))],
      ['events', Buffer.from(JSON.stringify(events))],
    ];
    const found: string[] = [];
    for (const { password } of logins) {
      const sha1 = sha1Hex(password);
      const sha256 = sha256Hex(password);
      const forms = [password, ...[sha1, sha1.slice(0, 5), sha1.slice(5), sha256].flatMap((hex) => [hex.toLowerCase(), hex.toUpperCase()])];
      for (const form of forms) {
        for (const [place, bytes] of places) if (bytes.includes(Buffer.from(form, 'utf8')) || bytes.includes(Buffer.from(form, 'utf16le'))) found.push(`${place}: ${form.length} characters`);
      }
    }
    expect(found).toEqual([]);
    expect(logins).toHaveLength(3);
  });
});
