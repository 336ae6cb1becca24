// Importing a password manager's export through the logins-* channels: what is kept (counts,
// sites, addresses without their secrets), the breaches matched to each site with Watchtower's
// verdicts, reuse, a later export resolving what its new passwords fixed, a cancel leaving
// nothing, each account seeing only its own, and paths that are not an export refused in words.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeleteExportResult, LoginImportResult, LoginsView } from '../../../shared/ipc/index.ts';
import { loadKeytar } from '../../../electron/core/auth/secrets/KeytarSecretStore.ts';
import { LOGIN_HASH_KEY } from '../../../electron/core/logins/LoginHashKey.ts';
import { AccountSecrets } from '../../../electron/core/session/AccountSecrets.ts';
import { RUN_KEYCHAIN_TESTS } from '../../support/keychain.ts';
import { catalogBreach, startLoginsHarness, TEST_KEYCHAIN_SERVICE, type LoginsHarness } from './harness.ts';
import { chromeCsv, firefoxCsv, type FixtureLogin } from './fixtures.ts';

const CATALOG = {
  Shopwise: catalogBreach('Shopwise', 'shopwise-test.com', '2020-06-01'),
  Forumly: catalogBreach('Forumly', 'forum.forumly-test.co.uk', '2019-01-15'),
  Quietplace: catalogBreach('Quietplace', 'quietplace-test.org', '2018-03-03'),
};

const LOGINS: FixtureLogin[] = [
  // Changed before the breach: change it.
  { url: 'https://www.shopwise-test.com/account/login?next=/cart&token=abc123#top', username: 'alice@example.com', password: 'correct horse 1', changed: '2019-05-01T10:00:00Z' },
  // The same password, changed after that site's breach: changed since.
  { url: 'https://alice:hunter2@forum.forumly-test.co.uk/login?session=s3cr3t', username: 'alice', password: 'correct horse 1', changed: '2021-02-01T08:30:00Z' },
  { url: 'https://mail.unbreached-test.net/', username: 'bob', password: 'zebra-unique-42', changed: '2022-01-01T00:00:00Z' },
  { url: 'android://Zm9v@com.example.app/', username: 'carol', password: 'tap tap tap' },
  { url: 'https://nopassword-test.com/', username: 'dave', password: '' },
];

let harness: LoginsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: Parameters<typeof startLoginsHarness>[0] = {}): Promise<LoginsHarness> {
  harness = await startLoginsHarness({ catalog: CATALOG, ...options });
  return harness;
}

const importFile = (h: LoginsHarness, file: string, importId = 'import-0001') => h.call<LoginImportResult>('logins-import', { importId, path: file });
const loginAt = (view: LoginsView, site: string | null, username: string) => view.logins.find((login) => login.site === site && login.username === username);

describe('importing an export', () => {
  it('keeps each login with its site and its address stripped of query, fragment and credentials, and counts what it skipped', async () => {
    const h = await start();
    const result = await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    expect(result).toEqual({
      importId: 'import-0001',
      format: 'firefox-csv',
      imported: 4,
      unchanged: 0,
      passwordsChanged: 0,
      skipped: 1,
      skippedRows: [{ row: 5, reason: 'row 5: no password' }],
      // The same count as the view's tally: one site to act on; the other's password changed since its breach.
      breachedSites: 1,
      breachedSitesChangedSince: 1,
      reusedPasswords: 1,
      passwordsToCheck: 3,
    });
    const view = await h.call<LoginsView>('logins-get');
    expect(view.imports).toEqual([{ format: 'firefox-csv', importedAt: expect.any(String), logins: 4, skipped: 1 }]);
    expect(view.logins.map((login) => [login.site, login.url, login.username])).toEqual([
      ['forumly-test.co.uk', 'https://forum.forumly-test.co.uk/login', 'alice'],
      ['shopwise-test.com', 'https://www.shopwise-test.com/account/login', 'alice@example.com'],
      ['unbreached-test.net', 'https://mail.unbreached-test.net/', 'bob'],
      [null, null, 'carol'],
    ]);
    expect(JSON.stringify(view)).not.toMatch(/token=|abc123|hunter2|s3cr3t|#top/);
    expect(view.summary).toEqual({ logins: 4, breachedSites: 1, pwnedPasswords: 0, reusedPasswords: 1 });
    // Progress: reading, matching, then saving, all under the import's id.
    expect(new Set(h.progress.map((progress) => progress.phase))).toEqual(new Set(['reading', 'matching', 'saving']));
    expect(h.progress.every((progress) => progress.importId === 'import-0001')).toBe(true);
    expect(h.progress.at(-1)).toEqual({ importId: 'import-0001', phase: 'saving', done: 1, total: 1 });
  });

  it("matches each site's breaches by registrable domain, whatever the address, with Watchtower's verdicts", async () => {
    const h = await start();
    await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    const view = await h.call<LoginsView>('logins-get');
    expect(loginAt(view, 'shopwise-test.com', 'alice@example.com')).toMatchObject({
      breaches: [{ breachId: 'Shopwise', title: 'Shopwise', breachDate: '2020-06-01', verdict: 'change' }],
      passwordChangedAt: '2019-05-01T10:00:00.000Z',
      changePasswordUrl: 'https://shopwise-test.com/.well-known/change-password',
      reusedWith: 1,
      resolvedAt: null,
    });
    expect(loginAt(view, 'forumly-test.co.uk', 'alice')).toMatchObject({
      breaches: [{ breachId: 'Forumly', breachDate: '2019-01-15', verdict: 'changed-since' }],
      changePasswordUrl: 'https://forumly-test.co.uk/.well-known/change-password',
      reusedWith: 1,
    });
    expect(loginAt(view, 'unbreached-test.net', 'bob')).toMatchObject({ breaches: [], reusedWith: 0 });
    expect(loginAt(view, null, 'carol')).toMatchObject({ breaches: [], changePasswordUrl: null });
  });

  it('says the date is unknown when the export does not tell when the password changed (Chrome)', async () => {
    const h = await start();
    const result = await importFile(h, h.writeExport('chrome.csv', chromeCsv([{ title: 'Shop', url: 'https://shopwise-test.com/', username: 'erin', password: 'pw-erin' }])));
    expect(result).toMatchObject({ format: 'chrome-csv', imported: 1, breachedSites: 1 });
    const view = await h.call<LoginsView>('logins-get');
    expect(view.logins[0]).toMatchObject({ title: 'Shop', passwordChangedAt: null, breaches: [{ breachId: 'Shopwise', verdict: 'unknown-date' }] });
    expect(view.summary.breachedSites).toBe(1);
  });

  it('a breach on the day the password changed still says change it (the breach date is a day, not a time)', async () => {
    const h = await start();
    await importFile(h, h.writeExport('same-day.csv', firefoxCsv([{ url: 'https://shopwise-test.com/', username: 'fay', password: 'pw-fay', changed: '2020-06-01T23:59:00Z' }])));
    expect((await h.call<LoginsView>('logins-get')).logins[0]!.breaches[0]!.verdict).toBe('change');
  });

  it('finds a breach of an address of the account at a login site even before the details feed has it', async () => {
    const h = await start({ catalog: {} });
    h.database.db
      .prepare(
        `INSERT INTO breaches (key, id, domain, domain_key, breach_date, added_date, added_at, modified_date, data_classes, class_codes, is_sensitive, unresolved_codes, unresolved_count)
         VALUES (1, 'Shopwise', 'shopwise-test.com', 'shopwise-test.com', '2020-06-01', '2020-07-01T00:00:00Z', 0, '2020-07-01T00:00:00Z', '[]', ',', 0, ',', 0)`,
      )
      .run();
    await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    expect(loginAt(await h.call<LoginsView>('logins-get'), 'shopwise-test.com', 'alice@example.com')!.breaches).toEqual([
      { breachId: 'Shopwise', title: 'Shopwise', breachDate: '2020-06-01', verdict: 'change' },
    ]);
  });
});

describe('importing a later export', () => {
  it('keeps unchanged logins once, resolves the findings of a login whose password changed, and adds new ones', async () => {
    let now = new Date('2024-03-01T09:00:00Z');
    const h = await start({ now: () => now });
    await importFile(h, h.writeExport('first.csv', firefoxCsv(LOGINS)));
    const before = await h.call<LoginsView>('logins-get');
    now = new Date('2024-04-01T09:00:00Z');
    const later = [
      { ...LOGINS[0]!, password: 'a brand new passphrase', changed: '2024-03-20T00:00:00Z' },
      LOGINS[1]!,
      LOGINS[2]!,
      { url: 'https://newsite-test.com/', username: 'alice', password: 'pw-newsite' },
    ];
    const result = await importFile(h, h.writeExport('second.csv', firefoxCsv(later)), 'import-0002');
    expect(result).toMatchObject({ imported: 4, unchanged: 2, passwordsChanged: 1, reusedPasswords: 0, breachedSites: 0, breachedSitesChangedSince: 2 });
    const view = await h.call<LoginsView>('logins-get');
    // Carol's login was not in the second export: it stays as it was.
    expect(view.logins).toHaveLength(5);
    const shop = loginAt(view, 'shopwise-test.com', 'alice@example.com')!;
    expect(shop.id).toBe(loginAt(before, 'shopwise-test.com', 'alice@example.com')!.id);
    expect(shop).toMatchObject({ resolvedAt: '2024-04-01T09:00:00.000Z', reusedWith: 0, breaches: [{ breachId: 'Shopwise', verdict: 'changed-since' }] });
    expect(loginAt(view, 'forumly-test.co.uk', 'alice')).toMatchObject({ resolvedAt: null, reusedWith: 0 });
    expect(loginAt(view, 'newsite-test.com', 'alice')).toMatchObject({ breaches: [], resolvedAt: null });
    expect(view.imports.map((record) => record.importedAt)).toEqual(['2024-04-01T09:00:00.000Z', '2024-03-01T09:00:00.000Z']);
    expect(view.summary).toMatchObject({ logins: 5, breachedSites: 0, reusedPasswords: 0 });
  });

  it('the same file twice changes nothing but the import count', async () => {
    const h = await start();
    const file = h.writeExport('firefox.csv', firefoxCsv(LOGINS));
    await importFile(h, file);
    const first = await h.call<LoginsView>('logins-get');
    const again = await importFile(h, file, 'import-0002');
    expect(again).toMatchObject({ imported: 4, unchanged: 4, passwordsChanged: 0 });
    const second = await h.call<LoginsView>('logins-get');
    expect(second.logins).toEqual(first.logins);
    expect(second.imports).toHaveLength(2);
  });
});

describe('cancelling an import', () => {
  const many = (count: number) => Array.from({ length: count }, (_, i) => ({ url: `https://site${i}-test.com/`, username: `user${i}`, password: `password number ${i}` }));

  function tableCounts(h: LoginsHarness) {
    const count = (table: string) => h.database.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    return { imports: count('login_imports'), logins: count('logins'), breaches: count('login_breaches') };
  }

  it.each(['reading', 'matching'] as const)('while %s leaves nothing written and says it was cancelled', async (phase) => {
    const h = await start();
    const file = h.writeExport('big.csv', chromeCsv(many(3000)));
    const cancelled = new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (h.progress.some((progress) => progress.phase === phase)) {
          clearInterval(timer);
          void h.call('logins-import-cancel', { importId: 'import-big1' }).then(() => resolve());
        }
      }, 0);
    });
    const answer = h.dispatch('logins-import', { importId: 'import-big1', path: file });
    await cancelled;
    expect(await answer).toMatchObject({ ok: false, error: { code: 'cancelled', message: 'The import was cancelled: nothing was kept.' } });
    expect(tableCounts(h)).toEqual({ imports: 0, logins: 0, breaches: 0 });
    expect(h.progress.some((progress) => progress.phase === 'saving')).toBe(false);
    expect((await h.call<LoginsView>('logins-get')).logins).toEqual([]);
  });

  it('a cancel for an import that is not running is answered and changes nothing', async () => {
    const h = await start();
    expect(await h.call('logins-import-cancel', { importId: 'no-such-import' })).toEqual({});
  });
});

describe('paths that are not an export', () => {
  it('are refused in one sentence on the path, and nothing is kept', async () => {
    const h = await start();
    const folder = path.join(path.dirname(h.writeExport('x.csv', 'x')), 'a-folder');
    mkdirSync(folder);
    const cases: [string, RegExp][] = [
      [path.join(folder, 'missing.csv'), /^There is no file at .*missing\.csv: check the name and the folder\.$/],
      [folder, /is a folder: choose the export file inside it\.$/],
      [h.writeExport('empty.csv', ''), /is empty: export your passwords again/],
    ];
    if (process.platform !== 'win32') {
      const loop = path.join(folder, 'loop.csv');
      symlinkSync(loop, loop);
      cases.push([loop, /is a link that leads nowhere/]);
      const device = '/dev/null';
      cases.push([device, /is not a regular file/]);
    }
    for (const [file, message] of cases) {
      const answer = await h.dispatch('logins-import', { importId: 'import-bad1', path: file });
      expect(answer, file).toMatchObject({ ok: false, error: { code: 'invalid-arguments', issues: [{ path: 'path' }] } });
      expect(answer.error!.message, file).toMatch(message);
    }
    expect(await h.dispatch('logins-import', { importId: 'import-bad1', path: 'relative/passwords.csv' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments', issues: [{ path: 'path', message: expect.stringContaining('absolute path') }] },
    });
    expect((await h.call<LoginsView>('logins-get')).imports).toEqual([]);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('says a file it may not read cannot be read', async () => {
    const h = await start();
    const file = h.writeExport('locked.csv', chromeCsv(LOGINS));
    chmodSync(file, 0o000);
    const answer = await h.dispatch('logins-import', { importId: 'import-lock', path: file });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(answer.error!.message).toMatch(/cannot be read: this app is not allowed to open it/);
  });

  it('refuses a file larger than an export can be, before reading it', async () => {
    const h = await start({ maxBytes: 1024 * 1024 });
    const file = h.writeExport('huge.csv', new Uint8Array(2.5 * 1024 * 1024));
    const answer = await h.dispatch('logins-import', { importId: 'import-huge', path: file });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(answer.error!.message).toMatch(/huge\.csv is 2\.5 MB, more than the 1 MB an export can be: is it the right file\?$/);
    expect(h.progress.filter((progress) => progress.phase !== 'reading')).toEqual([]);
  });
});

describe('what the person does with the findings', () => {
  it('marks a login dealt with and open again; an unknown id is not found', async () => {
    const h = await start({ now: () => new Date('2024-05-05T05:05:05Z') });
    await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    const shop = loginAt(await h.call<LoginsView>('logins-get'), 'shopwise-test.com', 'alice@example.com')!;
    const resolved = await h.call<LoginsView>('logins-resolve', { id: shop.id, resolved: true });
    expect(loginAt(resolved, 'shopwise-test.com', 'alice@example.com')!.resolvedAt).toBe('2024-05-05T05:05:05.000Z');
    expect(resolved.summary.breachedSites).toBe(0);
    const reopened = await h.call<LoginsView>('logins-resolve', { id: shop.id, resolved: false });
    expect(reopened.summary.breachedSites).toBe(1);
    expect(await h.dispatch('logins-resolve', { id: '999999', resolved: true })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await h.dispatch('logins-resolve', { id: 'not-a-number', resolved: true })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('forgets every login and import of the account', async () => {
    const h = await start();
    await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    const view = await h.call<LoginsView>('logins-forget');
    expect(view).toMatchObject({ imports: [], logins: [], summary: { logins: 0, breachedSites: 0, pwnedPasswords: 0, reusedPasswords: 0 } });
    expect(h.database.db.prepare('SELECT (SELECT count(*) FROM logins) + (SELECT count(*) FROM login_breaches) + (SELECT count(*) FROM login_imports)').pluck().get()).toBe(0);
    expect(h.events.at(-1)).toMatchObject({ event: 'logins-changed', payload: { logins: [] } });
  });

  it('deletes only the export imported in this run, only a regular file, and says what it did', async () => {
    const h = await start();
    const imported = h.writeExport('firefox.csv', firefoxCsv(LOGINS));
    const other = h.writeExport('other.csv', firefoxCsv(LOGINS));
    const notYet = await h.call<DeleteExportResult>('logins-delete-export', { path: imported });
    expect(notYet).toEqual({ deleted: false, message: expect.stringContaining('was not imported by this account since Breach Monitor started') });
    expect(existsSync(imported)).toBe(true);
    await importFile(h, imported);
    expect(await h.call<DeleteExportResult>('logins-delete-export', { path: other })).toMatchObject({ deleted: false });
    expect(existsSync(other)).toBe(true);
    // Another account signed in on this computer cannot delete it.
    h.signOut();
    h.signIn('account-b');
    expect(await h.call<DeleteExportResult>('logins-delete-export', { path: imported })).toMatchObject({ deleted: false });
    expect(existsSync(imported)).toBe(true);
    h.signOut();
    h.signIn('account-a');
    const deleted = await h.call<DeleteExportResult>('logins-delete-export', { path: imported });
    expect(deleted).toEqual({ deleted: true, message: expect.stringMatching(/^Deleted .*firefox\.csv\. Copies may remain elsewhere/) });
    expect(existsSync(imported)).toBe(false);
    // Something else put at the path since is not deleted from here.
    const swapped = h.writeExport('swap.csv', firefoxCsv(LOGINS));
    await importFile(h, swapped, 'import-0002');
    unlinkSync(swapped);
    if (process.platform !== 'win32') {
      symlinkSync(other, swapped);
      expect(await h.call<DeleteExportResult>('logins-delete-export', { path: swapped })).toEqual({ deleted: false, message: expect.stringContaining('is no longer a regular file') });
      expect(existsSync(other)).toBe(true);
    }
  });
});

describe('accounts', () => {
  it('each account sees only its own logins; signed out, none and no import', async () => {
    const h = await start();
    await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    h.signOut();
    expect(h.events.at(-1)).toMatchObject({ event: 'logins-changed', payload: { logins: [], imports: [] } });
    expect((await h.call<LoginsView>('logins-get')).logins).toEqual([]);
    expect(await h.dispatch('logins-import', { importId: 'import-0009', path: h.writeExport('again.csv', firefoxCsv(LOGINS)) })).toMatchObject({
      ok: false,
      error: { code: 'sign-in-required' },
    });
    h.signIn('account-b');
    expect((await h.call<LoginsView>('logins-get')).logins).toEqual([]);
    await importFile(h, h.writeExport('b.csv', chromeCsv([{ url: 'https://bonly-test.com/', username: 'b', password: 'pw-b' }])), 'import-b001');
    expect((await h.call<LoginsView>('logins-get')).logins.map((login) => login.username)).toEqual(['b']);
    h.signOut();
    h.signIn('account-a');
    expect((await h.call<LoginsView>('logins-get')).logins).toHaveLength(4);
  });
});

describe('a breach the catalog gains later', () => {
  it('is matched to the logins at its site and notified once, when the catalog added it after the import', async () => {
    const h = await start({ now: () => new Date('2024-06-01T00:00:00Z') });
    await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    h.logins.catalogChanged();
    expect(h.notices).toEqual([]);
    const fresh = catalogBreach('Mailbox Leak', 'unbreached-test.net', '2024-05-20', '2024-06-10T00:00:00Z');
    const old = catalogBreach('Old Forum Leak', 'forumly-test.co.uk', '2016-01-01', '2017-01-01T00:00:00Z');
    h.details.replace('http://127.0.0.1:9/rtdb', { ...CATALOG, 'Mailbox-Leak': fresh, 'Old-Forum-Leak': old }, '"e2"');
    const eventsBefore = h.events.length;
    h.logins.catalogChanged();
    expect(h.notices).toEqual([[{ breachId: 'Mailbox-Leak', title: 'Mailbox Leak', site: 'unbreached-test.net', breachDate: '2024-05-20' }]]);
    const view = h.events.slice(eventsBefore).find((event) => event.event === 'logins-changed')!.payload as LoginsView;
    expect(loginAt(view, 'unbreached-test.net', 'bob')!.breaches).toEqual([{ breachId: 'Mailbox-Leak', title: 'Mailbox Leak', breachDate: '2024-05-20', verdict: 'change' }]);
    // Already in the catalog before the import, only now in this copy: shown, not announced as news.
    expect(loginAt(view, 'forumly-test.co.uk', 'alice')!.breaches.map((breach) => breach.breachId)).toEqual(['Forumly', 'Old-Forum-Leak']);
    h.logins.catalogChanged();
    expect(h.notices).toHaveLength(1);
  });

  it('writes nothing for an account without logins', async () => {
    const h = await start();
    h.logins.catalogChanged();
    expect(h.notices).toEqual([]);
    expect(h.events).toEqual([]);
  });
});

describe("the key of the passwords' hashes", () => {
  const keyOf = (h: LoginsHarness, accountId = 'account-a') => h.store.get(AccountSecrets.keyFor(LOGIN_HASH_KEY, { accountId }));

  it('outlives a restart, so the same export is recognised; each account has its own; forgetting the logins deletes it', async () => {
    const h = await start();
    const file = h.writeExport('firefox.csv', firefoxCsv(LOGINS));
    await importFile(h, file);
    const key = await keyOf(h);
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);
    h.restart();
    const view = await h.call<LoginsView>('logins-get');
    // Nothing of the passwords survived the run: what was not checked can only be checked by importing again.
    expect(view.logins.map((login) => login.pwned.state)).toEqual(['needs-import', 'needs-import', 'needs-import', 'needs-import']);
    expect(await importFile(h, file, 'import-0002')).toMatchObject({ imported: 4, unchanged: 4, passwordsChanged: 0 });
    expect(await keyOf(h)).toBe(key);
    h.signOut();
    h.signIn('account-b');
    await importFile(h, file, 'import-b001');
    expect(await keyOf(h, 'account-b')).not.toBe(key);
    h.signOut();
    h.signIn('account-a');
    await h.call('logins-forget');
    expect(await keyOf(h)).toBeUndefined();
    expect(await keyOf(h, 'account-b')).toBeDefined();
  });

  it('once lost, the kept logins are matched by site and username only: nothing is resolved, and the result says so', async () => {
    const h = await start();
    const file = h.writeExport('firefox.csv', firefoxCsv(LOGINS));
    await importFile(h, file);
    await h.store.delete(AccountSecrets.keyFor(LOGIN_HASH_KEY, { accountId: 'account-a' }));
    h.restart();
    const later = h.writeExport('later.csv', firefoxCsv([{ ...LOGINS[0]!, password: 'another one' }, ...LOGINS.slice(1)]));
    const result = await importFile(h, later, 'import-0002');
    expect(result).toMatchObject({ imported: 4, unchanged: 0, passwordsChanged: 0, passwordsNotCompared: 4, reusedPasswords: 0 });
    const view = await h.call<LoginsView>('logins-get');
    expect(view.logins).toHaveLength(4);
    expect(view.logins.every((login) => login.resolvedAt === null)).toBe(true);
    // Under the new key, the next import compares again.
    const again = await importFile(h, later, 'import-0003');
    expect(again).toMatchObject({ unchanged: 4, passwordsChanged: 0 });
    expect(again).not.toHaveProperty('passwordsNotCompared');
  });

  it.runIf(RUN_KEYCHAIN_TESTS)('is kept in the OS keychain, and nowhere in the data folder', async () => {
    const h = await start();
    await importFile(h, h.writeExport('firefox.csv', firefoxCsv(LOGINS)));
    expect(h.store.kind).toBe('keychain');
    const keytar = await loadKeytar();
    const key = await keytar.getPassword(TEST_KEYCHAIN_SERVICE, `${LOGIN_HASH_KEY.issuer}#${LOGIN_HASH_KEY.subject} for account-a`);
    expect(key).toBe(await keyOf(h));
    const files = readdirSync(h.dataDir, { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(h.dataDir, name))
      .filter((file) => statSync(file).isFile());
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(key!)) || bytes.includes(Buffer.from(key!, 'base64')), file).toBe(false);
    }
  });
});
