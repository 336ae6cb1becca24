// Issue 25, finding 4: a catalog switch must keep people's history. The real service over
// loopback, restarted on the same data (SQLite file, or one PostgreSQL database): demo → a HIBP
// catalog file, that file → demo, demo → real data (no invented exposure passes for real), and
// the start line says which catalog is loaded.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogChanges, UserBreach } from '../../../shared/api/index.ts';
import type { RunningService } from '../../../server/app.ts';
import { describeCatalogLoad } from '../../../server/catalog/source.ts';
import { serviceStores } from '../../support/postgres.ts';
import { breaches, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';

const HIBP_FILE = path.resolve(import.meta.dirname, '../../../../shared/fixtures/hibp/breaches.json');
const ALICE = 'alice@example.com';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function catalogChanges(service: RunningService, token: string): Promise<CatalogChanges> {
  const response = await fetch(`${service.apiBaseUrl}/user/catalog-changes`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return CatalogChanges.parse(await response.json());
}

async function resolve(service: RunningService, token: string, breachId: string, dataClasses: string[], resolved = true): Promise<number> {
  const response = await fetch(`${service.apiBaseUrl}/user/breaches/resolutions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ breachId, dataClasses, resolved }]),
  });
  return response.status;
}

/** Starts, runs `work` and closes, on the same data each time. */
async function run<T>(config: Parameters<typeof startAgainst>[2], work: (service: RunningService) => Promise<T>): Promise<T> {
  const service = await startAgainst(undefined, undefined, config);
  try {
    return await work(service);
  } finally {
    await service.close();
  }
}

describe('the start line', () => {
  it('names a stored catalog as stored, with where it came from, until HIBP answers', () => {
    const report = { origin: 'file' as const, file: '/data/breaches.json', total: 813, kept: 813, skipped: [], removed: [], added: 0, stored: true };
    expect(describeCatalogLoad(report)[0]).toBe("stored catalog /data/breaches.json (until Have I Been Pwned's is fetched): 813 of 813 records in the breach-alert catalog (0 new)");
    expect(describeCatalogLoad({ ...report, origin: 'hibp', file: undefined })[0]).toBe(
      "stored Have I Been Pwned catalog (until Have I Been Pwned's is fetched): 813 of 813 records in the breach-alert catalog (0 new)",
    );
  });
});

for (const store of await serviceStores()) {
  describe.skipIf(!store.available)(`catalog switches keep people's history (${store.name})`, () => {
    async function setting(): Promise<{ dataDir: string; databaseUrl?: string }> {
      return { dataDir: tempDir('catalog-switch-', dirs), ...(await store.serviceOptions()) };
    }

    it('demo catalog → a HIBP catalog file: alice keeps her breaches, marked removed, with her resolutions, and is told', async () => {
      const data = await setting();
      const before = await run({ ...data, dev: true }, async (service) => {
        const token = await signIn(service, 'alice', [ALICE]);
        const list = (await breaches(service, token, '?includeSensitive=true')).body;
        expect(list.length).toBeGreaterThan(0);
        const first = list[0]!;
        expect(await resolve(service, token, first.breach.id, [first.breach.dataClasses[0]!])).toBe(204);
        return { ids: list.map((item) => item.breach.id).sort(), first };
      });

      await run({ ...data, dev: true, catalogFile: HIBP_FILE }, async (service) => {
        expect(service.catalogReport.origin).toBe('file');
        const token = await signIn(service, 'alice', [ALICE]);
        const answer = await breaches(service, token, '?includeResolved=true&includeSensitive=true');
        const list = UserBreach.array().parse(answer.body);
        expect(list.map((item) => item.breach.id).sort()).toEqual(before.ids);
        for (const item of list) expect(item.removedFromCatalogAt, item.breach.id).toMatch(/^\d{4}-\d\d-\d\dT/);
        const first = list.find((item) => item.breach.id === before.first.breach.id)!;
        expect(first.breach).toEqual(before.first.breach);
        expect(Object.keys(first.breachedAccounts[0]!.resolvedDataClasses)).toEqual([before.first.breach.dataClasses[0]]);
        // Resolutions of a removed breach stay changeable, by its last known data classes.
        expect(await resolve(service, token, first.breach.id, [first.breach.dataClasses[1]!])).toBe(204);
        expect(await resolve(service, token, first.breach.id, ['Not a class of it'])).toBe(400);

        const { changes } = await catalogChanges(service, token);
        expect(changes).toHaveLength(1);
        expect(changes[0]).toMatchObject({ email: ALICE, from: 'demo', to: 'file', removedFromCatalog: before.ids, inventedRemoved: [], resolutionsKept: 1, resolutionsRemoved: 0 });
      });
    });

    it('a HIBP catalog file → a plain --dev start: the demo catalog is loaded, and the start line says so truthfully', async () => {
      const data = await setting();
      await run({ ...data, dev: true, catalogFile: HIBP_FILE }, async (service) => {
        expect(describeCatalogLoad(service.catalogReport)[0]).toMatch(/^catalog .*breaches\.json: 813 of 834 records/);
      });
      await run({ ...data, dev: true }, async (service) => {
        expect(service.catalogReport.origin).toBe('demo');
        expect(service.catalogReport.kept).toBe(300);
        expect(await service.store.catalogSize()).toBe(300);
        const [first, ...rest] = describeCatalogLoad(service.catalogReport);
        expect(first).toBe('demo catalog: 300 of 300 records in the breach-alert catalog (300 new)');
        expect(rest.join('\n')).toMatch(/^813 breaches are no longer in the catalog: .* and 803 more;/);
        // The real breaches' details are no longer in the details feed as if they were demo ones.
        expect(await service.rtdb.get(['catalog', 'breaches', 'Adobe'])).toBeNull();
      });
    });

    it('demo → real data: invented exposures are removed with their resolutions, never shown as real, and alice is told', async () => {
      const data = await setting();
      const demoIds = await run({ ...data, dev: true }, async (service) => {
        const token = await signIn(service, 'alice', [ALICE]);
        const list = (await breaches(service, token, '?includeSensitive=true')).body;
        expect(await resolve(service, token, list[0]!.breach.id, [list[0]!.breach.dataClasses[0]!])).toBe(204);
        return list.map((item) => item.breach.id).sort();
      });
      // Real data without a key ("none"), the development surface kept for signing in, a real catalog file.
      await run({ ...data, dev: true, demo: false, catalogFile: HIBP_FILE }, async (service) => {
        expect(service.breachData.kind).toBe('none');
        const token = await signIn(service, 'alice', [ALICE]);
        const answer = await breaches(service, token, '?includeResolved=true&includeSensitive=true');
        expect(answer.source).toBe('none');
        expect(answer.body).toEqual([]);
        expect(answer.pending).toBe(1);
        const { changes } = await catalogChanges(service, token);
        expect(changes).toHaveLength(1);
        expect(changes[0]).toMatchObject({ email: ALICE, from: 'demo', to: 'file', removedFromCatalog: [], inventedRemoved: demoIds, resolutionsKept: 0, resolutionsRemoved: 1 });
        expect(await service.store.getResolutions([ALICE])).toEqual([]);
      });
    });
  });
}
