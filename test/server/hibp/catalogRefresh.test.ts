// Without --catalog, the catalog is Have I Been Pwned's: fetched at start and on the schedule,
// through the same path as a catalog file (breach store, details feed), and a breach HIBP added
// after an address was checked makes that address due again. Simulated clock, HIBP stand-in.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { breaches, idsByEmail, KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { SCENARIO_START } from '../../support/hibpScenarios.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP catalog refresh'))('the catalog from Have I Been Pwned', () => {
  it('is fetched at start and every interval; a breach added since an address was checked makes it due again', async () => {
    const clock = new SimulatedClock(SCENARIO_START, 2);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts: { 'alice@example.com': ['Adobe'], 'bob@example.org': [] }, now: () => clock.now() });
    const service = await startAgainst(standIn, clock, { dataDir: tempDir('hibp-catalog-', dirs), hibpApiKey: KEY, catalogRefreshSec: 3600 });
    try {
      expect(standIn.requests.filter((r) => r.path === 'breaches')).toHaveLength(1);
      expect(service.catalogReport.origin).toBe('hibp');
      expect(await service.store.getBreach('Adobe')).toBeDefined();
      expect(((await service.rtdb.get(['catalog', 'breaches'])) as Record<string, BreachDetails>)['Adobe']?.title).toBe('Adobe');

      const token = await signIn(service, 'alice', ['alice@example.com', 'bob@example.org']);
      await clock.settle();
      await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);
      expect(idsByEmail((await breaches(service, token)).body)).toEqual({ 'alice@example.com': ['Adobe'] });

      // Half an hour later HIBP loads a new breach with alice in it.
      await clock.advanceTo(SCENARIO_START + 30 * 60_000);
      standIn.addBreach({
        Name: 'Fresh2026',
        Title: 'Fresh',
        Domain: 'fresh.example',
        BreachDate: '2026-02-01',
        AddedDate: new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
        ModifiedDate: new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
        PwnCount: 1000,
        Description: 'A breach the stand-in loaded during the test.',
        LogoPath: '',
        DataClasses: ['Email addresses', 'Passwords'],
        IsVerified: true,
        IsFabricated: false,
        IsSensitive: false,
        IsRetired: false,
        IsSpamList: false,
        IsMalware: false,
      });
      standIn.addToBreach('alice@example.com', 'Fresh2026');
      const lookupsBefore = standIn.requests.filter((r) => r.path.startsWith('breachedaccount/')).length;

      // The next refresh (an hour after start) brings it in, and both addresses are looked up again.
      await clock.runUntil(async () => idsByEmail((await breaches(service, token)).body)['alice@example.com']?.includes('Fresh2026') === true, 2 * 3_600_000, 60_000);
      expect(standIn.requests.filter((r) => r.path === 'breaches')).toHaveLength(2);
      expect(((await service.rtdb.get(['catalog', 'breaches'])) as Record<string, BreachDetails>)['Fresh2026']?.title).toBe('Fresh');
      expect(idsByEmail((await breaches(service, token)).body)).toEqual({ 'alice@example.com': ['Adobe', 'Fresh2026'] });
      await clock.advanceBy(60_000);
      expect(standIn.requests.filter((r) => r.path.startsWith('breachedaccount/')).length - lookupsBefore).toBe(2);
    } finally {
      await service.close();
      await standIn.close();
    }
  }, 60_000);

  it('a breach HIBP retires stays in the accounts that were in it, marked removed, through refreshes and re-checks, with their resolutions', async () => {
    const clock = new SimulatedClock(SCENARIO_START, 2);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts: { 'alice@example.com': ['Adobe', 'Canva'] }, now: () => clock.now() });
    const service = await startAgainst(standIn, clock, { dataDir: tempDir('hibp-retired-', dirs), hibpApiKey: KEY, catalogRefreshSec: 3600, recheckIntervalSec: 7200 });
    try {
      const token = await signIn(service, 'alice', ['alice@example.com']);
      await clock.settle();
      await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);
      expect(idsByEmail((await breaches(service, token)).body)).toEqual({ 'alice@example.com': ['Adobe', 'Canva'] });
      const resolve = await fetch(`${service.apiBaseUrl}/user/breaches/resolutions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify([{ breachId: 'Canva', dataClasses: ['Passwords'], resolved: true }]),
      });
      expect(resolve.status).toBe(204);
      const lookups = () => standIn.requests.filter((r) => r.path.startsWith('breachedaccount/')).length;
      const lookupsBefore = lookups();

      standIn.retireBreach('Canva');
      // The next refresh drops it from the catalog; the re-check two hours after the first no longer names it.
      await clock.runUntil(async () => (await service.store.removedBreaches()).has('Canva') && lookups() > lookupsBefore, 3 * 3_600_000, 60_000);
      const list = (await breaches(service, token, '?includeResolved=true')).body;
      expect(list.map((item) => item.breach.id).sort()).toEqual(['Adobe', 'Canva']);
      const canva = list.find((item) => item.breach.id === 'Canva');
      expect(canva?.removedFromCatalogAt).toBeDefined();
      expect(Object.keys(canva!.breachedAccounts[0]!.resolvedDataClasses)).toEqual(['Passwords']);
      expect(list.find((item) => item.breach.id === 'Adobe')?.removedFromCatalogAt).toBeUndefined();
      const changes = (await (await fetch(`${service.apiBaseUrl}/user/catalog-changes`, { headers: { authorization: `Bearer ${token}` } })).json()) as { changes: unknown[] };
      expect(changes.changes).toMatchObject([{ email: 'alice@example.com', from: 'hibp', to: 'hibp', removedFromCatalog: ['Canva'], resolutionsKept: 1 }]);
    } finally {
      await service.close();
      await standIn.close();
    }
  }, 60_000);

  it('drops an invented demo catalog left by a --demo run, even when HIBP cannot be reached', async () => {
    const dataDir = tempDir('hibp-demo-then-real-', dirs);
    const demo = await startAgainst(undefined, undefined, { dataDir, demo: true });
    expect(await demo.store.catalogSize()).toBeGreaterThan(0);
    await demo.close();
    const real = await startAgainst(undefined, undefined, { dataDir, demo: false, hibpUrl: 'http://127.0.0.1:9/api/v3' });
    try {
      expect(await real.store.catalogSize()).toBe(0);
      expect(await real.rtdb.get(['catalog', 'breaches'])).toBeNull();
      expect(real.breachData.summary.join(' ')).toContain('could not be fetched yet');
    } finally {
      await real.close();
    }
  });
});
