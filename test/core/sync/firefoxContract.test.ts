// The client under the newer Monitor contract, against the reference service over HTTP: the
// same person's breaches as under the older one, details from the real feed, Passwords
// resolved through it and seen through `/api/v1`, unresolves and other classes kept on this
// machine, 503 and 429 keeping the list as it was and backing off as told, and
// `no-monitor-account` reported once, never retried in a loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIREFOX_API_PREFIX, MONITOR_SCOPE } from '../../../shared/api/index.ts';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import { RealtimeDatabaseClient } from '../../../electron/core/feed/RealtimeDatabaseClient.ts';
import { syncCatalogDetails } from '../../../electron/core/feed/syncCatalogDetails.ts';
import { queryBreaches, getLocalBreach } from '../../../electron/core/queries/localQueries.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import { SyncStatusModel } from '../../../electron/core/sync/SyncStatusModel.ts';
import { readChecksView } from '../../../electron/core/db/breachDataQueries.ts';
import { DevTokenSource } from '../helpers/devTokens.ts';
import { startDevService, type DevService } from '../helpers/devService.ts';

const A = 'a@firefox.example';
const B = 'b@firefox.example';

let service: DevService;
let dir: string;
let details: DetailsStore;
let olderToken: string;
const open: AccountSync[] = [];

function firefoxSync(sub: string, options: { backoff?: { baseMs: number; maxMs: number } } = {}): AccountSync {
  const feed = new RealtimeDatabaseClient({ url: `${service.origin}/rtdb`, credential: { kind: 'none' } });
  const sync = openAccountSync({
    file: ':memory:',
    apiBaseUrl: service.origin + FIREFOX_API_PREFIX,
    contract: 'firefox-v1',
    details: { getMany: (ids) => details.getMany(ids), refresh: async () => void (await syncCatalogDetails(feed, details)) },
    tokens: new DevTokenSource(service.origin, sub, undefined, `openid email ${MONITOR_SCOPE}`),
    pushDelayMs: -1,
    ...(options.backoff ? { backoff: options.backoff } : {}),
  });
  open.push(sync);
  return sync;
}

beforeAll(async () => {
  service = await startDevService();
  dir = mkdtempSync(path.join(tmpdir(), 'firefox-contract-'));
  details = new DetailsStore(path.join(dir, 'catalog-details.db'));
  await service.addBreach({ id: 'FfBoth', domain: 'both.example', breachDate: '2023-01-01', dataClasses: ['Email addresses', 'Passwords', 'Usernames'] });
  await service.addBreach({ id: 'FfEmail', domain: 'email.example', breachDate: '2022-01-01', dataClasses: ['Email addresses', 'Phone numbers'] });
  await service.addBreach({ id: 'FfSensitive', domain: 'sensitive.example', breachDate: '2021-01-01', dataClasses: ['Email addresses', 'Passwords'], isSensitive: true });
  olderToken = await service.createUser('ff-person', { [A]: ['FfBoth', 'FfEmail', 'FfSensitive'], [B]: ['FfBoth'] });
});

afterEach(async () => {
  await service.dev('POST', '/__dev/faults', { mount: 'firefox-v1', status: 503, count: 0 });
  for (const sync of open.splice(0)) await sync.close();
});

afterAll(async () => {
  details?.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the newer contract, end to end over HTTP', () => {
  it('shows the same breaches and details as the older contract (sensitive ones aside)', async () => {
    const firefox = firefoxSync('ff-person');
    const older = openAccountSync({ file: ':memory:', apiBaseUrl: service.apiBaseUrl, tokens: new DevTokenSource(service.origin, 'ff-person'), pushDelayMs: -1 });
    open.push(older);
    expect((await firefox.scheduler.syncNow()).status).toBe('ok');
    expect((await older.scheduler.syncNow()).status).toBe('ok');
    const viaFirefox = queryBreaches(firefox.database.db, { limit: 100 });
    const viaOlder = queryBreaches(older.database.db, { limit: 100 });
    expect(viaFirefox.items.map((i) => i.breach.id)).toEqual(['FfBoth', 'FfEmail']);
    expect(viaFirefox.items.map((i) => i.breach)).toEqual(viaOlder.items.map((i) => i.breach));
    expect(viaFirefox.items.map((i) => i.breachedAccounts.map((a) => a.email))).toEqual(viaOlder.items.map((i) => i.breachedAccounts.map((a) => a.email)));
  });

  it('keeps what the service says about its source under either contract; /user/checks where it is served, "not served" (no error) where not', async () => {
    const firefox = firefoxSync('ff-person');
    const older = openAccountSync({ file: ':memory:', apiBaseUrl: service.apiBaseUrl, tokens: new DevTokenSource(service.origin, 'ff-person'), pushDelayMs: -1 });
    open.push(older);
    const viaFirefox = await firefox.scheduler.syncNow();
    const viaOlder = await older.scheduler.syncNow();
    expect([viaFirefox.status, viaOlder.status]).toEqual(['ok', 'ok']);
    // A development service invents its data and says so on both mounts.
    expect(readChecksView(firefox.database.db).source).toBe('demo');
    expect(readChecksView(older.database.db)).toMatchObject({ source: 'demo', checksServed: 'yes' });
    expect(readChecksView(older.database.db).checks?.source).toBe('demo');
    // The newer mount has no /user/checks: a 404, taken as "not served", never an error.
    expect(readChecksView(firefox.database.db)).toMatchObject({ checksServed: 'no', checks: null });
    expect(viaFirefox.pull).not.toMatchObject({ checks: 'failed' });
  });

  it('resolves Passwords through the newer mount; the older mount reports it for every affected email', async () => {
    const sync = firefoxSync('ff-person');
    await sync.scheduler.syncNow();
    sync.outbox.record([{ breachId: 'FfBoth', dataClasses: ['Passwords'], resolved: true }]);
    const report = await sync.scheduler.syncNow();
    expect(report.status).toBe('ok');
    expect(report.push?.delivered).toBe(2);
    const older = (await service.list(olderToken, '')).find((i) => i.breach.id === 'FfBoth')!;
    expect(older.breachedAccounts.map((a) => Object.keys(a.resolvedDataClasses))).toEqual([['Passwords'], ['Passwords']]);
    const local = getLocalBreach(sync.database.db, 'FfBoth')!;
    expect(local.breachedAccounts.every((a) => 'Passwords' in a.resolvedDataClasses && a.pending.length === 0)).toBe(true);
    // Back to unresolved for the next test, through the older mount (the newer one cannot).
    expect(await service.resolve(olderToken, [{ breachId: 'FfBoth', dataClasses: ['Passwords'], resolved: false }])).toBe(204);
  });

  it('keeps an unresolve and a class the service cannot resolve on this machine, labelled, never sent', async () => {
    expect(await service.resolve(olderToken, [{ breachId: 'FfEmail', dataClasses: ['Email addresses'], resolved: true }])).toBe(204);
    const sync = firefoxSync('ff-person');
    await sync.scheduler.syncNow();
    sync.outbox.record([
      { breachId: 'FfEmail', dataClasses: ['Email addresses'], resolved: false },
      { breachId: 'FfBoth', dataClasses: ['Usernames'], resolved: true, emails: [A] },
    ]);
    expect(sync.outbox.items().map((item) => item.state)).toEqual(['local', 'local']);
    const report = await sync.scheduler.syncNow();
    expect(report.status).toBe('ok');
    expect(report.push?.requests).toBe(0);
    // The service still says resolved; this machine shows the person's choice, marked local-only.
    const email = getLocalBreach(sync.database.db, 'FfEmail')!.breachedAccounts[0]!;
    expect(email.resolvedDataClasses).toEqual({});
    expect(email.localOnly).toEqual(['Email addresses']);
    const both = getLocalBreach(sync.database.db, 'FfBoth', { email: A })!.breachedAccounts[0]!;
    expect(Object.keys(both.resolvedDataClasses)).toContain('Usernames');
    expect(both.localOnly).toEqual(['Usernames']);
    expect((await service.list(olderToken, '')).find((i) => i.breach.id === 'FfEmail')!.breachedAccounts[0]!.resolvedDataClasses).toHaveProperty(['Email addresses']);
    expect(await service.resolve(olderToken, [{ breachId: 'FfEmail', dataClasses: ['Email addresses'], resolved: false }])).toBe(204);
  });

  it('a 503 during sync leaves the list untouched, says so, and waits as the service asked', async () => {
    const sync = firefoxSync('ff-person');
    await sync.scheduler.syncNow();
    const before = queryBreaches(sync.database.db, { limit: 100 });
    sync.outbox.record([{ breachId: 'FfBoth', dataClasses: ['Email addresses'], resolved: true }]);
    await service.dev('POST', '/__dev/faults', { mount: 'firefox-v1', status: 503, count: 1, retryAfter: 120 });
    const started = Date.now();
    const report = await sync.scheduler.syncNow();
    expect(report.status).toBe('backoff');
    expect(report.errorKind).toBe('server');
    expect(report.retryAt! - started).toBeGreaterThanOrEqual(119_000);
    // Nothing lost: the change is still queued, the list as it was (with the change overlaid).
    expect(sync.outbox.summary().pending).toBe(2);
    const after = queryBreaches(sync.database.db, { limit: 100 });
    expect(after.items.map((i) => i.breach.id)).toEqual(before.items.map((i) => i.breach.id));
    const model = new SyncStatusModel();
    model.observeReport(report, 'https://monitor.example/');
    expect(model.view({ online: true, outbox: sync.outbox.summary(), lastReport: report, db: sync.database.db }).notice).toMatchObject({ kind: 'unavailable' });
    // A second sync before the wait is over asks nothing of the service.
    const again = await sync.scheduler.syncNow();
    expect(again.status).toBe('backoff');
    expect(again.push?.requests ?? 0).toBe(0);
  });

  it('a 429 on the list keeps what was held and honours Retry-After', async () => {
    const sync = firefoxSync('ff-person');
    await sync.scheduler.syncNow();
    await service.dev('POST', '/__dev/faults', { mount: 'firefox-v1', status: 429, count: 1, retryAfter: 90 });
    const started = Date.now();
    const report = await sync.scheduler.syncNow();
    expect(report.errorKind).toBe('rate-limited');
    expect(report.retryAt! - started).toBeGreaterThanOrEqual(89_000);
    expect(queryBreaches(sync.database.db, { limit: 100 }).items.map((i) => i.breach.id)).toEqual(['FfBoth', 'FfEmail']);
  });

  it('no-monitor-account is reported with a sign-up notice and not retried in a loop', async () => {
    await service.putAccount('ff-stranger', ['stranger@firefox.example']);
    const sync = firefoxSync('ff-stranger');
    const report = await sync.scheduler.syncNow();
    expect(report.status).toBe('error');
    expect(report.errorKind).toBe('no-account');
    expect(report.retryAt).toBeUndefined();
    const model = new SyncStatusModel();
    model.observeReport(report, 'https://monitor.example/');
    expect(model.view({ online: true, outbox: sync.outbox.summary(), lastReport: report, db: sync.database.db }).notice).toEqual({ kind: 'no-account', signUpUrl: 'https://monitor.example/' });
  });
});
