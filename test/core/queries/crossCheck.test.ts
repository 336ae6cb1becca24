// One table of filter cases, run against the local store after a real sync and against the
// reference service over HTTP: the same ids in the same order, and the same account states.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Breach,
  dataClassKey,
  dataClassLabel,
  FIREFOX_API_PREFIX,
  FirefoxUserBreachList,
  MONITOR_SCOPE,
  toBreachSearchParams,
  type BreachQueryInput,
  type UserBreach,
} from '../../../shared/api/index.ts';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import { RealtimeDatabaseClient } from '../../../electron/core/feed/RealtimeDatabaseClient.ts';
import { syncCatalogDetails } from '../../../electron/core/feed/syncCatalogDetails.ts';
import { queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import { DevTokenSource } from '../helpers/devTokens.ts';
import { startDevService, type DevService } from '../helpers/devService.ts';

const E1 = 'e1@cross.example';
const E2 = 'e2@cross.example';
const E3 = 'e3@cross.example';

export const FILTER_CASES: { name: string; query: BreachQueryInput }[] = [
  { name: 'no filter (sensitive excluded)', query: {} },
  { name: 'sensitive included', query: { includeSensitive: true } },
  { name: 'sensitive explicitly excluded', query: { includeSensitive: false } },
  { name: 'domain, other case', query: { domain: 'ALPHA.example' } },
  { name: 'domain stored in mixed case', query: { domain: 'delta.example', includeSensitive: true } },
  { name: 'domain shared by a sensitive breach', query: { domain: 'shared.example' } },
  { name: 'domain shared, sensitive included', query: { domain: 'Shared.Example', includeSensitive: true } },
  { name: 'domain nobody has', query: { domain: 'nowhere.example' } },
  { name: 'one data class, lower case', query: { dataClasses: ['passwords'] } },
  { name: 'data classes match any', query: { dataClasses: ['Phone numbers', 'Usernames'], includeSensitive: true } },
  { name: 'data class nobody has', query: { dataClasses: ['Shoe sizes'] } },
  { name: 'data classes, one unknown', query: { dataClasses: ['Shoe sizes', 'PASSWORDS'] } },
  { name: 'demo data classes', query: { dataClasses: ['IP addresses', 'Names'], includeSensitive: true } },
  { name: 'unresolved', query: { unresolvedDataClasses: ['Passwords'] } },
  { name: 'unresolved, any case, any of', query: { unresolvedDataClasses: ['EMAIL ADDRESSES', 'usernames'], includeSensitive: true } },
  { name: 'unresolved class only some breaches have', query: { unresolvedDataClasses: ['Phone numbers'], includeSensitive: true } },
  { name: 'unresolved, fully resolved breach excluded', query: { unresolvedDataClasses: ['Email addresses'], domain: 'shared.example', includeSensitive: true } },
  { name: 'unresolved class nobody has', query: { unresolvedDataClasses: ['Shoe sizes'] } },
  { name: 'classes and unresolved together', query: { dataClasses: ['Passwords'], unresolvedDataClasses: ['Email addresses'], includeSensitive: true } },
  { name: 'everything at once', query: { domain: 'alpha.example', dataClasses: ['usernames'], unresolvedDataClasses: ['Usernames'], includeSensitive: true } },
  // Slugs (Mozilla Monitor's spelling) and mixed spellings: one data class identity (issue 18).
  { name: 'slug', query: { dataClasses: ['email-addresses'] } },
  { name: 'slug, sensitive included', query: { dataClasses: ['phone-numbers'], includeSensitive: true } },
  { name: 'slug in upper case', query: { dataClasses: ['IP-ADDRESSES'], includeSensitive: true } },
  { name: 'other separators and padding', query: { dataClasses: ['  email_addresses ', 'Phone.Numbers'], includeSensitive: true } },
  { name: 'slug and display name for one class', query: { dataClasses: ['passwords', 'Passwords', 'PASSWORDS'] } },
  { name: 'display name matches a breach that lists slugs', query: { dataClasses: ['Shoe sizes'], includeSensitive: true } },
  { name: 'unresolved by slug', query: { unresolvedDataClasses: ['email-addresses'], includeSensitive: true } },
  { name: 'unresolved by slug, resolved under another spelling', query: { unresolvedDataClasses: ['usernames'], domain: 'epsilon.example' } },
  { name: 'unresolved slug, breach spelled in slugs', query: { unresolvedDataClasses: ['Email Addresses'], domain: 'zeta.example', includeSensitive: true } },
  { name: 'slug nobody has', query: { dataClasses: ['shoe-sizes-xl'] } },
  { name: 'mixed spellings everywhere', query: { dataClasses: ['email-addresses', 'Phone numbers'], unresolvedDataClasses: ['PASSWORDS', 'shoe_sizes'], includeSensitive: true } },
];

let service: DevService;
let sync: AccountSync;
let token: string;

beforeAll(async () => {
  service = await startDevService();
  const demo = Breach.array().parse(JSON.parse(readFileSync(new URL('../../../resources/demo-catalog.json', import.meta.url), 'utf8')));
  const demoIds = demo.slice(0, 60).map((b) => b.id);
  await service.addBreach({ id: 'XAlpha', domain: 'alpha.example', breachDate: '2023-05-01', dataClasses: ['Email addresses', 'Passwords', 'Usernames'] });
  await service.addBreach({ id: 'XBeta', domain: 'shared.example', breachDate: '2022-01-01', dataClasses: ['Email addresses', 'Phone numbers'], isSensitive: true });
  await service.addBreach({ id: 'XGamma', domain: 'shared.example', breachDate: '2021-01-01', dataClasses: ['Email addresses', 'Passwords'] });
  await service.addBreach({ id: 'XDelta', domain: 'Delta.Example', breachDate: '2023-05-01', addedDate: '2023-06-01T10:00:00Z', dataClasses: ['Passwords'] });
  await service.addBreach({ id: 'XEpsilon', domain: 'epsilon.example', breachDate: '2023-05-01', addedDate: '2023-06-01T10:00:00Z', dataClasses: ['Passwords', 'Usernames'] });
  // A breach spelled in slugs, as a Monitor-fed catalog would spell it.
  await service.addBreach({ id: 'XZeta', domain: 'zeta.example', breachDate: '2022-06-01', dataClasses: ['email-addresses', 'passwords', 'phone-numbers', 'shoe-sizes'] });
  token = await service.createUser('cross', {
    [E1]: ['XAlpha', 'XBeta', 'XZeta', ...demoIds.slice(0, 30)],
    [E2]: ['XAlpha', 'XDelta', 'XEpsilon', ...demoIds.slice(20, 50)],
    [E3]: ['XGamma', 'XZeta', ...demoIds.slice(45)],
  });
  const statuses = [
    await service.resolve(token, [
      { breachId: 'XAlpha', dataClasses: ['Passwords'], resolved: true, emails: [E1] },
      { breachId: 'XBeta', dataClasses: ['Email addresses', 'Phone numbers'], resolved: true },
      { breachId: 'XGamma', dataClasses: ['Email addresses', 'Passwords'], resolved: true },
      { breachId: 'XEpsilon', dataClasses: ['usernames'], resolved: true },
      { breachId: 'XZeta', dataClasses: ['Email addresses', 'SHOE-SIZES'], resolved: true, emails: [E1] },
    ]),
    await service.resolve(
      token,
      demoIds.filter((_, i) => i % 4 === 0).map((breachId) => ({ breachId, dataClasses: ['Email addresses'], resolved: true })),
    ),
  ];
  statuses.push(await service.resolve(token, [{ breachId: 'XZeta', dataClasses: ['passwords'], resolved: true, emails: [E3] }]));
  expect(statuses).toEqual([204, 204, 204]);
  sync = openAccountSync({ file: ':memory:', apiBaseUrl: service.apiBaseUrl, tokens: new DevTokenSource(service.origin, 'cross'), pushDelayMs: -1 });
  const report = await sync.scheduler.syncNow();
  expect(report.status).toBe('ok');
});

afterAll(async () => {
  await sync?.close();
  await service?.close();
});

/** The contract's fields only (the local view adds pending/failed markers). */
function strip(items: readonly Pick<UserBreach, 'breach' | 'breachedAccounts'>[]): unknown[] {
  return items.map((i) => ({ breach: i.breach, breachedAccounts: i.breachedAccounts.map((a) => ({ email: a.email, resolvedDataClasses: a.resolvedDataClasses })) }));
}

describe('local filters agree with the reference service', () => {
  it.each(FILTER_CASES)('$name', async ({ query }) => {
    const remote = await service.list(token, toBreachSearchParams(query).toString());
    const local = queryBreaches(sync.database.db, { ...query, limit: 10_000 });
    expect(local.items.map((i) => i.breach.id)).toEqual(remote.map((i) => i.breach.id));
    expect(local.total).toBe(remote.length);
    expect(strip(local.items)).toEqual(strip(remote));
  });

  it('slug and mixed-spelling cases answer as the same query in display names does', async () => {
    const display = (names: string[] | undefined) => names?.map((name) => dataClassLabel(dataClassKey(name)));
    const spelled = FILTER_CASES.slice(FILTER_CASES.findIndex((c) => c.name === 'slug'));
    expect(spelled).toHaveLength(11);
    for (const { name, query } of spelled) {
      const plain = { ...query, dataClasses: display(query.dataClasses), unresolvedDataClasses: display(query.unresolvedDataClasses) };
      const remote = (await service.list(token, toBreachSearchParams(query).toString())).map((i) => i.breach.id);
      expect(remote, name).toEqual((await service.list(token, toBreachSearchParams(plain).toString())).map((i) => i.breach.id));
      const empty = name === 'slug nobody has' || name === 'unresolved by slug, resolved under another spelling';
      expect(remote.length > 0, name).toBe(!empty);
    }
  });

  it('the table exercises every filter and both outcomes', async () => {
    const sizes = await Promise.all(FILTER_CASES.map(async ({ query }) => (await service.list(token, toBreachSearchParams(query).toString())).length));
    expect(sizes.filter((n) => n === 0).length).toBeGreaterThan(2);
    expect(sizes.filter((n) => n > 1).length).toBeGreaterThan(8);
    expect(Math.max(...sizes)).toBeGreaterThan(60);
  });
});

/**
 * The newer contract (`/api/firefox/v1`) filters by domain only: its cases of the table (those
 * with no data class filter) agree between a local store synced through that contract, with
 * breach details from the real details feed, and the service asked through it.
 */
describe('domain cases agree under the newer contract', () => {
  const DOMAIN_CASES = FILTER_CASES.filter(({ query }) => Object.keys(query).every((key) => key === 'domain' || key === 'includeSensitive'));
  let firefox: AccountSync;
  let details: DetailsStore;
  let dir: string;
  let monitorToken: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cross-firefox-'));
    details = new DetailsStore(path.join(dir, 'catalog-details.db'));
    const feed = new RealtimeDatabaseClient({ url: `${service.origin}/rtdb`, credential: { kind: 'none' } });
    const tokens = new DevTokenSource(service.origin, 'cross', undefined, `openid ${MONITOR_SCOPE}`);
    monitorToken = await tokens.getAccessToken();
    firefox = openAccountSync({
      file: ':memory:',
      apiBaseUrl: service.origin + FIREFOX_API_PREFIX,
      contract: 'firefox-v1',
      details: { getMany: (ids) => details.getMany(ids), refresh: async (signal) => void (await syncCatalogDetails(feed, details, signal ? { signal } : {})) },
      tokens,
      pushDelayMs: -1,
    });
    const report = await firefox.scheduler.syncNow();
    expect(report.status, report.error).toBe('ok');
  });

  afterAll(async () => {
    await firefox?.close();
    details?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('covers every domain case of the table', () => {
    expect(DOMAIN_CASES.map((c) => c.name)).toEqual(
      expect.arrayContaining(['domain, other case', 'domain stored in mixed case', 'domain shared by a sensitive breach', 'domain shared, sensitive included', 'domain nobody has']),
    );
  });

  it.each(DOMAIN_CASES)('$name', async ({ query }) => {
    const search = query.domain !== undefined ? `?${new URLSearchParams({ domain: query.domain })}` : '';
    const response = await fetch(`${service.origin}${FIREFOX_API_PREFIX}/user/breaches${search}`, { headers: { authorization: `Bearer ${monitorToken}` } });
    expect(response.status).toBe(200);
    const remote = FirefoxUserBreachList.parse(await response.json());
    const local = queryBreaches(firefox.database.db, { ...query, limit: 10_000 });
    expect(local.items.map((i) => i.breach.id)).toEqual(remote.map((i) => i.id));
    expect(local.total).toBe(remote.length);
    const localStates = local.items.map((i) => i.breachedAccounts.map((a) => ({ email: a.email, resolvedDataClasses: Object.keys(a.resolvedDataClasses).map(dataClassKey).sort() })));
    expect(localStates).toEqual(remote.map((i) => i.breachedAccounts));
  });

  it('sees what the older contract sees, minus sensitive breaches and those that leaked neither passwords nor email addresses', async () => {
    const older = (await service.list(token, '')).filter((i) => i.breach.dataClasses.some((name) => ['passwords', 'email-addresses'].includes(dataClassKey(name))));
    const local = queryBreaches(firefox.database.db, { includeSensitive: true, limit: 10_000 });
    expect(local.items.map((i) => i.breach.id)).toEqual(older.map((i) => i.breach.id));
    // The details come from the feed and match the catalog's own record.
    expect(local.items.map((i) => i.breach.domain)).toEqual(older.map((i) => i.breach.domain));
  });
});
