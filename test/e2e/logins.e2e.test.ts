// "Your accounts" end to end in Chromium: the real reference service (its catalog, signed in as a
// demo person), the real core and the browser host, and the Pwned Passwords stand-in the settings
// point at. A 200-login Firefox export, invented in this test and written to a temporary folder,
// is imported through the page's path field (the browser host cannot tell a file's path); the page
// shows the import's result, the Pwned Passwords check's progress, the breached sites with each
// verdict, the reused and the known passwords, and the guided fix's steps. Then every byte of the
// data folders, every line the core and the service logged, and every message between the page
// and the core (captured where the browser host passes them) is searched for every password of
// the export, and for its SHA-1: none is found. axe and unnamed controls in light and dark.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sha1Hex, startPwnedPasswordsStandIn, type PwnedPasswordsStandIn } from '../support/pwnedPasswordsStandIn.ts';
import { csv, FIREFOX_HEADER, firefoxRow, type FixtureLogin } from '../core/logins/exports/exportWriters.ts';
import { captureScreen, E2E, ensureRendererBuilt, eventually, launchChromium, seriousFindings, unnamedControls, until, type ScreenAudit } from './harness.ts';

const ALICE = 'alice@example.com';
const LOGINS = 200;

/** An invented password nobody uses: random, so finding it anywhere means it came from the export. */
const invented = (label: string) => `${label}-${randomBytes(9).toString('base64url')}`;

interface Fixture {
  logins: FixtureLogin[];
  /** Sites with a breach in the catalog: changed before the first breach, after the last one, and never dated. */
  breached: { change: string; changedSince: string; unknownDate: string };
  reused: { password: string; sites: string[] };
  /** Passwords the stand-in has seen, with their counts, and the site of each. */
  pwned: { password: string; count: number; site: string }[];
}

/** The first day before `date` (YYYY-MM-DD) and the first after it, as ISO instants. */
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString();
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 2 * 86_400_000).toISOString();

/** 200 logins: three at breached sites (one per verdict), one password reused at four sites, five known to Pwned Passwords, the rest each its own. */
function buildFixture(breachedSites: { site: string; first: string; last: string }[]): Fixture {
  const [a, b, c] = breachedSites as [(typeof breachedSites)[0], (typeof breachedSites)[0], (typeof breachedSites)[0]];
  const logins: FixtureLogin[] = [
    { title: null, url: `https://${a.site}/login`, username: 'sam.change', password: invented('breached-a'), passwordChangedAt: dayBefore(a.first) },
    { title: null, url: `https://${b.site}/login`, username: 'sam.since', password: invented('breached-b'), passwordChangedAt: dayAfter(b.last) },
    { title: null, url: `https://${c.site}/login`, username: 'sam.unknown', password: invented('breached-c'), passwordChangedAt: null },
  ];
  const reused = { password: invented('reused'), sites: ['reused-one.com', 'reused-two.com', 'reused-three.com', 'reused-four.com'] };
  for (const site of reused.sites) logins.push({ title: null, url: `https://${site}/`, username: 'sam', password: reused.password, passwordChangedAt: '2024-02-01T10:00:00.000Z' });
  const pwned = [1, 2, 3, 4, 5].map((n) => ({ password: invented(`pwned-${n}`), count: n * 1_234, site: `known-password-${n}.com` }));
  for (const entry of pwned) logins.push({ title: null, url: `https://${entry.site}/`, username: 'sam', password: entry.password, passwordChangedAt: '2024-02-01T10:00:00.000Z' });
  for (let i = logins.length; i < LOGINS; i++)
    logins.push({ title: null, url: `https://invented-site-${i}.com/account`, username: `sam${i}@example.net`, password: invented(`own-${i}`), passwordChangedAt: '2024-03-01T10:00:00.000Z' });
  return { logins, breached: { change: a.site, changedSince: b.site, unknownDate: c.site }, reused, pwned };
}

/** Every file under `dir`, with its bytes. */
function filesUnder(dir: string): { file: string; bytes: Buffer }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file, bytes: readFileSync(file) };
    });
}

describe('Your accounts in Chromium against the real stack', { timeout: 120_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  let pwnedPasswords: PwnedPasswordsStandIn;
  let exportDir: string;
  let exportPath: string;
  let fixture: Fixture;
  const audits: ScreenAudit[] = [];

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  const loginItem = (site: string) => page.getByRole('list', { name: 'Logins' }).getByRole('listitem', { name: site, exact: true });

  async function audit(name: string): Promise<void> {
    const screens = await captureScreen(page, name);
    audits.push(...screens);
    expect(seriousFindings(screens), `axe on ${name}`).toEqual([]);
    expect(await unnamedControls(page), `controls without a name on ${name}`).toEqual([]);
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: ALICE, captureLogs: true });
    await e2e.startService();
    await e2e.startApp();
    page = await e2e.openApp();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 20_000 });
    const remote = await e2e.serviceBreaches({ includeSensitive: true });
    await eventually('the first sync', async () => (await e2e.call('breaches-list', { includeSensitive: true })).total === remote.length, 30_000);

    // Three sites of the catalog's breaches (a plain name.tld, so the site is the domain itself).
    const bySite = new Map<string, { site: string; first: string; last: string }>();
    for (const { breach } of remote) {
      if (!/^[a-z0-9-]+\.[a-z]{2,}$/.test(breach.domain)) continue;
      const known = bySite.get(breach.domain);
      bySite.set(breach.domain, {
        site: breach.domain,
        first: known && known.first < breach.breachDate ? known.first : breach.breachDate,
        last: known && known.last > breach.breachDate ? known.last : breach.breachDate,
      });
    }
    expect(bySite.size, 'the catalog names at least three sites').toBeGreaterThanOrEqual(3);
    fixture = buildFixture([...bySite.values()].slice(0, 3));

    pwnedPasswords = await startPwnedPasswordsStandIn(Object.fromEntries(fixture.pwned.map((entry) => [entry.password, entry.count])));
    await e2e.call('settings-set', { pwnedPasswordsUrl: pwnedPasswords.origin });
    exportDir = mkdtempSync(path.join(tmpdir(), 'bm-e2e-export-'));
    exportPath = path.join(exportDir, 'Firefox logins.csv');
    writeFileSync(exportPath, csv([FIREFOX_HEADER, ...fixture.logins.map((login, index) => firefoxRow(login, index))]));
  }, 120_000);

  afterAll(async () => {
    await e2e?.close();
    await browser?.close();
    await pwnedPasswords?.close();
    if (exportDir) rmSync(exportDir, { recursive: true, force: true });
  }, 90_000);

  it('before any import: the page says what it reads, keeps and sends, and asks for the export’s path', async () => {
    await nav('Your accounts');
    await page.getByRole('heading', { name: 'Your accounts', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No accounts imported yet' }).waitFor();
    const importCard = page.getByRole('region', { name: 'Import your password manager’s export' });
    expect(await importCard.textContent()).toContain('Firefox logins (CSV)');
    expect(await importCard.textContent()).toContain('nothing else leaves this computer');
    await audit('logins-empty');
  });

  it('imports 200 logins by path: the Pwned Passwords check’s progress, then the breached sites, the reused and the known passwords', async () => {
    // Pwned Passwords cannot be reached at first: the check waits for the network and says so.
    pwnedPasswords.behaviour = 'offline';
    await page.getByRole('textbox', { name: 'Path of the export file' }).fill('Downloads/passwords.csv');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('The path must be an absolute path, such as /home/you/Downloads/passwords.csv.').waitFor();
    await page.getByRole('textbox', { name: 'Path of the export file' }).fill(exportPath);
    await page.getByRole('button', { name: 'Import', exact: true }).click();

    await page.getByText(`Imported ${LOGINS} logins from Firefox logins (CSV).`).waitFor({ timeout: 30_000 });
    const distinct = new Set(fixture.logins.map((login) => login.password)).size;
    await page.getByText(`${distinct} passwords to check with Pwned Passwords: the check goes on below.`).waitFor();
    await page.getByRole('group', { name: 'Delete the export file?' }).waitFor();
    await page.getByText(/^Waiting for the network to check passwords with Pwned Passwords/).waitFor({ timeout: 30_000 });
    await page.getByRole('progressbar', { name: 'Password check progress' }).waitFor();
    await page.getByRole('button', { name: 'Cancel check' }).waitFor();
    // (axe runs on this page below, once the check is done: the wait grows with each retry, 1 s, 2 s, 5 s, 15 s.)
    expect(await unnamedControls(page)).toEqual([]);
    // The import told the page where it was, phase by phase.
    const progress = e2e.traffic.filter((message) => message.direction === 'core-to-page' && message.text.startsWith('event: logins-import-progress'));
    for (const phase of ['reading', 'matching', 'saving'])
      expect(
        progress.some((message) => message.text.includes(`"phase":"${phase}"`)),
        phase,
      ).toBe(true);

    // The network is back: the check goes on by itself, and the page follows it to the end.
    pwnedPasswords.behaviour = 'answer';
    await page.getByText(`${distinct} passwords checked with Pwned Passwords.`).waitFor({ timeout: 60_000 });
    const checkStates = e2e.traffic
      .filter((message) => message.direction === 'core-to-page' && message.text.startsWith('event: logins-changed'))
      .map((message) => (JSON.parse(message.text.slice(message.text.indexOf('data: ') + 6)) as { passwordCheck: { state: string; done: number; total: number } }).passwordCheck);
    expect(
      checkStates.some((check) => check.state === 'running' && check.done > 0 && check.done < check.total),
      'the check’s progress reached the page',
    ).toBe(true);

    await until('the verdicts on the breached sites', async () => {
      expect(await loginItem(fixture.breached.change).textContent()).toContain('Breached after your password last changed — change it');
      expect(await loginItem(fixture.breached.changedSince).textContent()).toContain('Changed since — likely fine');
      expect(await loginItem(fixture.breached.unknownDate).textContent()).toContain('We don’t know when you last changed it');
    });
    for (const site of fixture.reused.sites) expect(await loginItem(site).textContent()).toContain('Reused password: used at 4 sites');
    for (const entry of fixture.pwned) expect(await loginItem(entry.site).textContent()).toContain(`Known to attackers: seen ${entry.count.toLocaleString('en')} times in breaches`);
    expect(await loginItem('invented-site-100.com').textContent()).toContain('Not in Pwned Passwords');
    await page.getByRole('link', { name: 'Pwned Passwords by Have I Been Pwned' }).waitFor();

    // Only 5 characters of each password's SHA-1 reached Pwned Passwords, each prefix once.
    const prefixes = pwnedPasswords.requests.map((request) => request.path.replace('/range/', ''));
    expect(prefixes.every((prefix) => /^[0-9A-F]{5}$/.test(prefix))).toBe(true);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(new Set(prefixes)).toEqual(new Set(fixture.logins.map((login) => sha1Hex(login.password).slice(0, 5))));

    const summary = page.getByRole('region', { name: 'Summary' });
    expect(await summary.textContent()).toContain(`${LOGINS} logins`);
    // The import and the tally count the same sites: two where a password needs changing, the third said apart.
    expect(await summary.textContent()).toContain('2 breached sites');
    expect(await page.getByText('1 other breached site: the password there was changed after the breach, so there is nothing to do.').count()).toBe(1);
    // The catalog is the demo service's, invented: the page says so, as every exposure screen does.
    expect(await page.getByText('Demo data — these breaches are invented.').count()).toBe(1);
    expect(await summary.textContent()).toContain('5 passwords known to attackers');
    expect(await summary.textContent()).toContain('1 reused password');

    await page.getByRole('checkbox', { name: 'Show only logins with findings' }).check();
    await until('only logins with findings', async () => {
      expect(
        await page
          .getByRole('list', { name: 'Logins' })
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading') })
          .count(),
      ).toBe(2 + fixture.reused.sites.length + fixture.pwned.length);
    });
    expect(await loginItem('invented-site-100.com').count()).toBe(0);
    await audit('logins-findings');
    await page.getByRole('checkbox', { name: 'Show only logins with findings' }).uncheck();
  });

  it('the guided fix lists the logins to change, with each site’s change-password link', async () => {
    await nav('Fix step by step');
    const section = page.getByRole('region', { name: 'Your accounts at breached sites' });
    await section.waitFor();
    await section.getByText(`Change your password at ${fixture.breached.change}`, { exact: true }).waitFor();
    expect(await section.getByText(`Change your password at ${fixture.breached.changedSince}`, { exact: true }).count()).toBe(0);
    await section.getByRole('button', { name: `Mark as dealt with: ${fixture.pwned[0]!.site} (sam)` }).click();
    await until('the step to leave the fix', async () => expect(await section.getByText(`Change your password at ${fixture.pwned[0]!.site}`, { exact: true }).count()).toBe(0));
    await audit('logins-fix');
  });

  it('deletes the export when asked, and no password of it, nor its SHA-1, is in the data folders, the logs or any message between page and core', async () => {
    await nav('Your accounts');
    const offer = page.getByRole('group', { name: 'Delete the export file?' });
    expect(await offer.textContent()).toContain('holds every password in clear text');
    // The search itself finds what is there: every password is in the export, in clear.
    const exportBytes = readFileSync(exportPath);
    expect(fixture.logins.filter(({ password }) => exportBytes.includes(Buffer.from(password, 'utf8')))).toHaveLength(LOGINS);
    await offer.getByRole('button', { name: 'Delete the export file' }).click();
    await page.getByText('The export file was deleted.').waitFor();
    expect(existsSync(exportPath)).toBe(false);

    const files = [...filesUnder(e2e.appDir), ...filesUnder(e2e.serviceDir)];
    expect(
      files.some(({ file }) => file.endsWith('.db')),
      'the account database is among the files',
    ).toBe(true);
    const logs = e2e.logLines.join('\n');
    const traffic = e2e.traffic.map((message) => message.text).join('\n');
    expect(logs.length, 'the core and the service logged').toBeGreaterThan(0);
    expect(traffic).toContain('"logins-import"');
    expect(traffic).toContain('event: logins-changed');
    const found: string[] = [];
    for (const { password } of fixture.logins) {
      const hash = sha1Hex(password);
      const needles = [password, hash, hash.toLowerCase(), hash.slice(5), hash.slice(5).toLowerCase()];
      for (const needle of needles) {
        const bytes = Buffer.from(needle, 'utf8');
        for (const { file, bytes: content } of files) if (content.includes(bytes)) found.push(`${needle.slice(0, 12)}… in ${file}`);
        if (logs.includes(needle)) found.push(`${needle.slice(0, 12)}… in a log line`);
        if (traffic.includes(needle)) found.push(`${needle.slice(0, 12)}… in a message between page and core`);
      }
    }
    expect(found).toEqual([]);
  });
});
