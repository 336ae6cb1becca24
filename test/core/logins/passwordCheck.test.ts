// The Pwned Passwords check after an import, against the strict stand-in of the range API: the
// counts reach each login, only 5-character prefixes leave, the pass waits for the network and
// says so, a cancel drops the passwords. Then the promise of issue 38: after an import and its
// check, no password and no unkeyed hash of one is in any file of the data folder (the database's
// -wal and -shm included, read as bytes), in any log line, or in anything sent to the UI.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoginImportResult, LoginsView } from '../../../shared/ipc/index.ts';
import { checkPwnedPasswords } from '../../../electron/core/passwords/pwnedPasswordPass.ts';
import { startPwnedPasswordsStandIn, type PwnedPasswordsStandIn } from '../../support/pwnedPasswordsStandIn.ts';
import { eventually } from '../../support/waitFor.ts';
import { catalogBreach, sha1Hex, sha256Hex, startLoginsHarness, type LoginsHarness } from './harness.ts';
import { chromeCsv, firefoxCsv, type FixtureLogin } from './fixtures.ts';

const CATALOG = { Shopwise: catalogBreach('Shopwise', 'shopwise-test.com', '2020-06-01') };

const LOGINS: FixtureLogin[] = [
  { url: 'https://www.shopwise-test.com/login?next=%2F', username: 'alice@example.com', password: 'correct horse 1', changed: '2019-05-01T10:00:00Z' },
  { url: 'https://forum.forumly-test.co.uk/', username: 'alice', password: 'correct horse 1', changed: '2021-02-01T08:30:00Z' },
  { url: 'https://mail.unbreached-test.net/', username: 'bob', password: 'zebra-unique-42 ünïcødé', changed: '2022-01-01T00:00:00Z' },
  { url: 'https://pets-test.org/', username: 'carol', password: 'Fluffy2009!' },
];

let standIn: PwnedPasswordsStandIn;
let harness: LoginsHarness | undefined;

beforeAll(async () => {
  standIn = await startPwnedPasswordsStandIn({ 'correct horse 1': 5120, 'Fluffy2009!': 3 });
});
afterAll(() => standIn?.close());
afterEach(async () => {
  standIn.behaviour = 'answer';
  standIn.release();
  await harness?.close();
  harness = undefined;
});

async function start(): Promise<LoginsHarness> {
  harness = await startLoginsHarness({
    catalog: CATALOG,
    checkPasswords: (passwords, options) => checkPwnedPasswords(passwords, { baseUrl: standIn.origin, retryDelaysMs: [20], ...options }),
  });
  return harness;
}

const byUser = (view: LoginsView, username: string) => view.logins.find((login) => login.username === username)!;

describe('the Pwned Passwords check of an import', () => {
  it("gives each login its password's count, sending only each distinct prefix once", async () => {
    const h = await start();
    const before = standIn.requests.length;
    const result = await h.call<LoginImportResult>('logins-import', { importId: 'import-pwn1', path: h.writeExport('firefox.csv', firefoxCsv(LOGINS)) });
    expect(result).toMatchObject({ imported: 4, reusedPasswords: 1, passwordsToCheck: 3 });
    await h.logins.checkSettled();
    const view = await h.call<LoginsView>('logins-get');
    expect(byUser(view, 'alice@example.com').pwned).toEqual({ state: 'found', count: 5120 });
    expect(byUser(view, 'alice').pwned).toEqual({ state: 'found', count: 5120 });
    expect(byUser(view, 'bob').pwned).toEqual({ state: 'not-found' });
    expect(byUser(view, 'carol').pwned).toEqual({ state: 'found', count: 3 });
    expect(view.summary).toMatchObject({ pwnedPasswords: 2, reusedPasswords: 1 });
    expect(view.passwordCheck).toEqual({ state: 'done', done: 3, total: 3, message: null });
    const requests = standIn.requests.slice(before);
    const prefixes = [...new Set(LOGINS.map((login) => sha1Hex(login.password).slice(0, 5).toUpperCase()))].sort();
    expect(requests.map((request) => request.path.replace('/range/', '')).sort()).toEqual(prefixes);
    for (const request of requests) {
      expect(request).toMatchObject({ method: 'GET', query: '', body: '' });
      expect(request.headers['add-padding']).toBe('true');
    }
    // The UI saw it move: running, then done.
    const states = h.events.filter((event) => event.event === 'logins-changed').map((event) => (event.payload as LoginsView).passwordCheck.state);
    expect(states).toContain('running');
    expect(states.at(-1)).toBe('done');
  });

  it('waits for the network and says so, then goes on', async () => {
    const h = await start();
    standIn.behaviour = 'offline';
    await h.call('logins-import', { importId: 'import-pwn2', path: h.writeExport('firefox.csv', firefoxCsv(LOGINS)) });
    const waiting = await eventually('the check to say it waits for the network', () =>
      h.events.map((event) => event.payload as LoginsView).find((view) => view.passwordCheck?.state === 'waiting-for-network'),
    );
    expect(waiting.passwordCheck.message).toMatch(/\S/);
    expect(byUser(waiting, 'carol').pwned).toEqual({ state: 'unchecked' });
    standIn.behaviour = 'answer';
    await h.logins.checkSettled();
    expect((await h.call<LoginsView>('logins-get')).passwordCheck).toEqual({ state: 'done', done: 3, total: 3, message: null });
    // The UI was told the wait ended (running again, no sentence), not left saying it waits until the end.
    const states = h.events.filter((event) => event.event === 'logins-changed').map((event) => (event.payload as LoginsView).passwordCheck);
    const waited = states.findIndex((status) => status.state === 'waiting-for-network');
    expect(states.slice(waited + 1)).toContainEqual(expect.objectContaining({ state: 'running', message: null }));
  });

  it('a cancel stops the check and drops its passwords: what was not checked needs the export again', async () => {
    const h = await start();
    standIn.hold();
    await h.call('logins-import', { importId: 'import-pwn3', path: h.writeExport('firefox.csv', firefoxCsv(LOGINS)) });
    expect((await h.call<LoginsView>('logins-get')).passwordCheck.state).toBe('running');
    const view = await h.call<LoginsView>('logins-check-cancel');
    expect(view.passwordCheck).toMatchObject({ state: 'cancelled', message: expect.stringContaining('dropped') });
    expect(view.logins.map((login) => login.pwned)).toEqual(LOGINS.map(() => ({ state: 'needs-import' })));
    standIn.release();
    await h.logins.checkSettled();
    expect((await h.call<LoginsView>('logins-get')).logins.every((login) => login.pwned.state === 'needs-import')).toBe(true);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

/** Every form of a password that must never be kept or told: itself, and its unkeyed hashes whole and in part. */
function forbiddenForms(password: string): string[] {
  const sha1 = sha1Hex(password);
  const sha256 = sha256Hex(password);
  return [password, ...[sha1, sha1.slice(0, 5), sha1.slice(5), sha256].flatMap((hex) => [hex.toLowerCase(), hex.toUpperCase()])];
}

describe('keeping no secret', () => {
  it('after an import, a re-import and the check, no password or unkeyed hash is in the data folder, the log or what the UI was sent', async () => {
    const h = await start();
    await h.call('logins-import', { importId: 'import-sec1', path: h.writeExport('firefox.csv', firefoxCsv(LOGINS)) });
    await h.logins.checkSettled();
    const later = [...LOGINS.slice(1), { ...LOGINS[0]!, password: 'a new one, 2024!' }, { url: 'https://x-test.com/', username: 'dan', password: 'p@ss"word,with;csv' }];
    await h.call('logins-import', { importId: 'import-sec2', path: h.writeExport('chrome.csv', chromeCsv(later)) });
    await h.logins.checkSettled();
    const view = await h.call<LoginsView>('logins-get');
    expect(view.passwordCheck.state).toBe('done');
    expect(view.logins.some((login) => login.pwned.state === 'found')).toBe(true);
    const files = filesUnder(h.dataDir);
    // The database is open: its write-ahead log and shared memory are there to be read too.
    expect(files.some((file) => file.endsWith('.db-wal'))).toBe(true);
    expect(files.some((file) => file.endsWith('.db-shm'))).toBe(true);
    const places: [string, Buffer][] = [
      ...files.map((file): [string, Buffer] => [path.relative(h.dataDir, file), readFileSync(file)]),
      ['log', Buffer.from(h.logLines.join('\n'))],
      ['answers', Buffer.from(JSON.stringify(h.answers))],
      ['events', Buffer.from(JSON.stringify(h.events))],
    ];
    const found: string[] = [];
    for (const password of [...LOGINS, ...later].map((login) => login.password)) {
      for (const form of forbiddenForms(password)) {
        for (const [place, bytes] of places) {
          if (bytes.includes(Buffer.from(form, 'utf8')) || bytes.includes(Buffer.from(form, 'utf16le')))
            found.push(`${place} holds ${form === password ? 'a password' : `a ${form.length}-character hash form`}`);
        }
      }
    }
    expect(found).toEqual([]);
    // What went to Pwned Passwords: prefixes, nothing else.
    for (const request of standIn.requests) expect(request.path).toMatch(/^\/range\/[0-9A-F]{5}$/);
  });
});
