// A background sync that finds nothing new is one request, answered 304 (issue 39): the breach
// list's answers carry the versions of the caller's checks and catalog changes, and the app asks
// a follow-up only when its version moved. A changed check (demo exposures replaced, a HIBP
// lookup finishing, a HIBP re-check while the list stands still) and a catalog change are still
// picked up within one sync; a service that sends no versions (an older one) is asked as before.
// The real service over loopback, on SQLite and on PostgreSQL; the core's real client, puller and
// scheduler; its requests counted through the fetch it is given.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BreachDataHeaders } from '../../../shared/api/index.ts';
import type { RunningService } from '../../../server/app.ts';
import { readChecksView } from '../../../electron/core/db/breachDataQueries.ts';
import { listBreaches } from '../../../electron/core/db/breachQueries.ts';
import { catalogNoticeOf } from '../../../electron/core/sync/catalogChanges.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import type { SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { breaches, KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';
import { serviceStores } from '../../support/postgres.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const HIBP_FILE = path.resolve(import.meta.dirname, '../../../../shared/fixtures/hibp/breaches.json');
const ALICE = 'alice@example.com';
const ALICE_WORK = 'alice.work@example.com';
/** Where the core believes the service is: its fetch sends there whichever instance runs now. */
const BASE = 'http://service.test';
const VERSION_HEADERS: readonly string[] = [BreachDataHeaders.checksVersion, BreachDataHeaders.catalogChangesVersion];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** One core against whichever service `current()` names, its requests recorded as "METHOD /path status". */
function openCore(current: () => RunningService, token: () => string, options: { withoutVersions?: boolean } = {}) {
  const wire: string[] = [];
  const sync = openAccountSync({
    file: ':memory:',
    apiBaseUrl: `${BASE}/api/v1`,
    tokens: { getAccessToken: async () => token(), refreshAfterUnauthorized: async () => token() },
    pushDelayMs: -1,
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const response = await fetch(current().url + url.pathname + url.search, init);
      wire.push(`${init?.method ?? 'GET'} ${url.pathname.replace('/api/v1', '')} ${response.status}`);
      if (!options.withoutVersions) return response;
      // A service from before the versions: the same answers without their headers.
      const headers = new Headers(response.headers);
      for (const name of VERSION_HEADERS) headers.delete(name);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    },
  });
  /** Syncs once; the requests it sent, sorted (the follow-ups go together). */
  const syncOnce = async (): Promise<{ report: SyncReport; requests: string[] }> => {
    wire.length = 0;
    const report = await sync.scheduler.syncNow();
    expect(report.status).toBe('ok');
    return { report, requests: [...wire].sort() };
  };
  return { sync, syncOnce };
}

function checkOf(sync: AccountSync, email: string) {
  return readChecksView(sync.database.db).checks?.addresses.find((address) => address.email === email);
}

for (const store of await serviceStores()) {
  describe.skipIf(!store.available)(`a background sync (${store.name})`, () => {
    it('with nothing new is one request answered 304; a changed check and a catalog change are each picked up within one sync', { timeout: 60_000 }, async () => {
      const config = { dataDir: tempDir('idle-sync-', dirs), ...(await store.serviceOptions()) };
      let service = await startAgainst(undefined, undefined, config);
      let token = await signIn(service, 'alice', [ALICE, ALICE_WORK]);
      const { sync, syncOnce } = openCore(
        () => service,
        () => token,
      );
      try {
        // A first sync of an account no catalog change touched: the list says `none` for them, so the list and its checks.
        const first = await syncOnce();
        expect(first.report.pull?.status).toBe('applied');
        expect(first.requests).toEqual(['GET /user/breaches 200', 'GET /user/checks 200']);

        // Nothing new: the list's 304 says the checks and catalog changes are the ones recorded.
        const idle = await syncOnce();
        expect(idle.report.pull?.status).toBe('unchanged');
        expect(idle.requests).toEqual(['GET /user/breaches 304']);
        expect((await syncOnce()).requests).toEqual(['GET /user/breaches 304']);

        // A changed check: ALICE's (invented) exposures replaced by none.
        expect(checkOf(sync, ALICE)?.breachCount).toBeGreaterThan(0);
        const put = await fetch(`${service.url}/__dev/exposures`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ALICE, breachIds: [] }) });
        expect(put.ok).toBe(true);
        const changed = await syncOnce();
        expect(changed.requests).toEqual(['GET /user/breaches 200', 'GET /user/checks 200']);
        expect(checkOf(sync, ALICE)?.breachCount).toBe(0);
        expect((await syncOnce()).requests).toEqual(['GET /user/breaches 304']);

        // A catalog change: the service restarted on a HIBP catalog file, which the invented breaches are not in.
        await service.close();
        service = await startAgainst(undefined, undefined, { ...config, catalogFile: HIBP_FILE });
        token = await signIn(service, 'alice', [ALICE, ALICE_WORK]);
        expect(catalogNoticeOf(sync.database.db)).toBeUndefined();
        const switched = await syncOnce();
        expect(switched.requests).toContain('GET /user/catalog-changes 200');
        expect(catalogNoticeOf(sync.database.db)?.lines.length).toBeGreaterThan(0);
        expect((await syncOnce()).requests).toEqual(['GET /user/breaches 304']);
      } finally {
        await sync.close();
        await service.close();
      }
    });

    it('against a service that sends no versions asks as before: the checks after every list, the catalog changes after a new one', { timeout: 60_000 }, async () => {
      const service = await startAgainst(undefined, undefined, { dataDir: tempDir('idle-sync-old-', dirs), ...(await store.serviceOptions()) });
      const token = await signIn(service, 'alice', [ALICE]);
      const { sync, syncOnce } = openCore(
        () => service,
        () => token,
        { withoutVersions: true },
      );
      try {
        expect((await syncOnce()).requests).toEqual(['GET /user/breaches 200', 'GET /user/catalog-changes 200', 'GET /user/checks 200']);
        const idle = await syncOnce();
        expect(idle.report.pull?.status).toBe('unchanged');
        expect(idle.requests).toEqual(['GET /user/breaches 304', 'GET /user/checks 200']);
      } finally {
        await sync.close();
        await service.close();
      }
    });

    it.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP idle sync'))(
      'with HIBP: sees a lookup finish, then is one request until a re-check moves the checks while the list stands still',
      { timeout: 60_000 },
      async () => {
        const start = Date.parse('2026-03-02T09:00:00Z');
        const clock = new SimulatedClock(start, 1);
        const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts: { [ALICE]: ['Adobe'] }, now: () => clock.now() });
        const service = await startAgainst(standIn, clock, {
          dataDir: tempDir('idle-sync-hibp-', dirs),
          hibpApiKey: KEY,
          catalogFile: HIBP_FIXTURE_CATALOG,
          recheckIntervalSec: 3600,
          ...(await store.serviceOptions()),
        });
        const token = await signIn(service, 'alice', [ALICE]);
        const { sync, syncOnce } = openCore(
          () => service,
          () => token,
        );
        try {
          await syncOnce();
          // The lookup finishes (it may have, already): the next sync sees it.
          await clock.settle();
          await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);
          await syncOnce();
          const checked = checkOf(sync, ALICE);
          expect(checked).toMatchObject({ state: 'checked', breachCount: 1 });
          expect(listBreaches(sync.database.db).map((breach) => breach.id)).toEqual(['Adobe']);
          expect((await syncOnce()).requests).toEqual(['GET /user/breaches 304']);

          // A re-check an hour on finds the same: the list stands still, the checks moved (checked later).
          const lookups = () => standIn.requests.filter((request) => request.path.startsWith('breachedaccount/')).length;
          const before = lookups();
          await clock.runUntil(() => lookups() > before, 2 * 3600_000, 60_000);
          await clock.settle();
          const rechecked = await syncOnce();
          expect(rechecked.requests).toEqual(['GET /user/breaches 304', 'GET /user/checks 200']);
          expect(Date.parse(checkOf(sync, ALICE)!.checkedAt!)).toBeGreaterThan(Date.parse(checked!.checkedAt!));
          expect((await syncOnce()).requests).toEqual(['GET /user/breaches 304']);
        } finally {
          await sync.close();
          await service.close();
          await standIn.close();
        }
      },
    );
  });
}
