// A service that names data classes by slug, as Mozilla Monitor's API document does (issue 18):
// the client shows display names, matches any spelling locally, and sends each class back in
// the spelling the service used. The service here is the real reference service with a catalog
// that speaks slugs, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLocalBreach, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import { toBreachDetail, toBreachList } from '../../../electron/core/views/breachViews.ts';
import { knownDataClasses, overviewOf } from '../../../electron/core/views/overview.ts';
import { countBreaches } from '../../../electron/core/queries/localQueries.ts';
import { DevTokenSource } from '../helpers/devTokens.ts';
import { startDevService, type DevService } from '../helpers/devService.ts';

const EMAIL = 'slugs@client.example';

let service: DevService;
let sync: AccountSync;
let token: string;

beforeAll(async () => {
  service = await startDevService();
  await service.addBreach({ id: 'Sluggy', breachDate: '2023-01-01', dataClasses: ['email-addresses', 'passwords', 'shoe-sizes'] });
  await service.addBreach({ id: 'Plain', breachDate: '2022-01-01', dataClasses: ['Email addresses', 'Phone numbers'] });
  token = await service.createUser('slugs', { [EMAIL]: ['Sluggy', 'Plain'] });
  expect(await service.resolve(token, [{ breachId: 'Sluggy', dataClasses: ['passwords'], resolved: true }])).toBe(204);
  sync = openAccountSync({ file: ':memory:', apiBaseUrl: service.apiBaseUrl, tokens: new DevTokenSource(service.origin, 'slugs'), pushDelayMs: -1 });
  expect((await sync.scheduler.syncNow()).status).toBe('ok');
});

afterAll(async () => {
  await sync?.close();
  await service?.close();
});

describe('a slug-speaking service', () => {
  it('is shown with display names: known ones from the HIBP list, unknown ones readably', () => {
    const detail = toBreachDetail(getLocalBreach(sync.database.db, 'Sluggy')!, false, true);
    expect(detail.breach.dataClasses).toEqual(['Email addresses', 'Passwords', 'Shoe sizes']);
    expect(detail.accounts).toEqual([
      {
        email: EMAIL,
        cells: {
          'Email addresses': { resolved: false, pending: false },
          Passwords: { resolved: true, resolvedAt: expect.any(String), pending: false },
          'Shoe sizes': { resolved: false, pending: false },
        },
      },
    ]);
    const page = queryBreaches(sync.database.db, { includeSensitive: true });
    const list = toBreachList(page.items, page.total, countBreaches(sync.database.db, { includeSensitive: true }), new Set(), true);
    expect(list.rows.map((row) => row.dataClasses.map((c) => [c.name, c.resolved]))).toEqual([
      [
        ['Email addresses', 0],
        ['Passwords', 1],
        ['Shoe sizes', 0],
      ],
      [
        ['Email addresses', 0],
        ['Phone numbers', 0],
      ],
    ]);
    expect(list.unresolvedByDataClass).toEqual({ 'Email addresses': 2, Passwords: 0, 'Phone numbers': 1, 'Shoe sizes': 1 });
    expect(knownDataClasses(sync.database.db)).toEqual(['Email addresses', 'Passwords', 'Phone numbers', 'Shoe sizes']);
    expect(overviewOf(sync.database.db).unresolvedByDataClass).toEqual([
      { name: 'Email addresses', count: 2 },
      { name: 'Phone numbers', count: 1 },
      { name: 'Shoe sizes', count: 1 },
    ]);
  });

  it('local filters match slugs and display names across both spellings', () => {
    const ids = (query: Parameters<typeof queryBreaches>[1]) => queryBreaches(sync.database.db, query).items.map((item) => item.breach.id);
    expect(ids({ dataClasses: ['Email addresses'] })).toEqual(['Sluggy', 'Plain']);
    expect(ids({ dataClasses: ['email-addresses'] })).toEqual(['Sluggy', 'Plain']);
    expect(ids({ unresolvedDataClasses: ['PASSWORDS'] })).toEqual([]);
    expect(ids({ unresolvedDataClasses: ['Shoe sizes'] })).toEqual(['Sluggy']);
  });

  it('sends each class back in the service spelling', async () => {
    // The person toggles what they see: display names.
    sync.outbox.record([{ breachId: 'Sluggy', dataClasses: ['Email addresses', 'Shoe sizes'], resolved: true }]);
    sync.outbox.record([{ breachId: 'Plain', dataClasses: ['email-addresses'], resolved: true }]);
    const report = await sync.scheduler.syncNow();
    expect(report.status).toBe('ok');
    expect(sync.outbox.items('pending')).toEqual([]);
    expect(sync.outbox.items('failed')).toEqual([]);
    const served = await service.list(token);
    const keys = Object.fromEntries(served.map((item) => [item.breach.id, Object.keys(item.breachedAccounts[0]!.resolvedDataClasses).sort()]));
    expect(keys).toEqual({ Sluggy: ['email-addresses', 'passwords', 'shoe-sizes'], Plain: ['Email addresses'] });
  });
});
