// `breach-catalog-version` (issue 39): the version of the service's details feed on every breach
// list answer (200 and 304), so an idle app reads that feed only when it moved. It stands still
// while the feed does (a caller's exposures changing moves the list, not it), moves with a breach
// added to the catalog, and a feed read once the new version is named holds that breach; behind
// two instances sharing PostgreSQL both name the same content alike. The real service over loopback.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BreachDataHeaders, FOLLOW_UP_VERSION_PATTERN } from '../../shared/api/index.ts';
import type { RunningService } from '../../server/app.ts';
import { signIn, startAgainst, tempDir } from '../support/hibpService.ts';
import { serviceStores } from '../support/postgres.ts';
import { useTwoInstances } from '../support/twoInstances.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ALICE = 'alice@example.com';
const breachNamed = (id: string) => ({ id, domain: `${id.toLowerCase()}.example`, breachDate: '2026-10-01', addedDate: '2026-11-20T10:00Z', dataClasses: ['Email addresses'], isSensitive: false });

async function addBreach(service: RunningService, id: string): Promise<void> {
  const added = await fetch(`${service.url}/__dev/breaches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(breachNamed(id)) });
  expect(added.status).toBe(201);
}

/** The feed's breach ids, read as the app reads it (public, no credential). */
async function feedIds(service: RunningService): Promise<string[]> {
  const read = await fetch(`${service.url}/rtdb/catalog/breaches.json`);
  expect(read.status).toBe(200);
  return Object.keys((await read.json()) as Record<string, unknown>);
}

function lister(service: RunningService, token: string) {
  return (etag?: string) => fetch(`${service.apiBaseUrl}/user/breaches`, { headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) } });
}

for (const store of await serviceStores()) {
  describe.skipIf(!store.available)(`the details feed's version (${store.name})`, () => {
    it('is on the list (200 and 304), stands still while the feed does, and moves with a breach added to the catalog', { timeout: 60_000 }, async () => {
      const service = await startAgainst(undefined, undefined, { dataDir: tempDir('catalog-version-', dirs), ...(await store.serviceOptions()) });
      try {
        const list = lister(service, await signIn(service, 'alice', [ALICE]));
        const first = await list();
        expect(first.status).toBe(200);
        const version = first.headers.get(BreachDataHeaders.catalogVersion);
        expect(version).toMatch(FOLLOW_UP_VERSION_PATTERN);
        const etag = first.headers.get('etag')!;
        const unchanged = await list(etag);
        expect(unchanged.status).toBe(304);
        expect(unchanged.headers.get(BreachDataHeaders.catalogVersion)).toBe(version);

        // The caller's exposures change: the list moves, the feed does not.
        const put = await fetch(`${service.url}/__dev/exposures`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ALICE, breachIds: [] }) });
        expect(put.ok).toBe(true);
        const moved = await list(etag);
        expect(moved.status).toBe(200);
        expect(moved.headers.get(BreachDataHeaders.catalogVersion)).toBe(version);

        // A breach nobody is in: the list stands still (304), the feed's version moves and the feed holds it.
        await addBreach(service, 'CatalogVersionLeak');
        const after = await list(moved.headers.get('etag')!);
        expect(after.status).toBe(304);
        const next = after.headers.get(BreachDataHeaders.catalogVersion);
        expect(next).toMatch(FOLLOW_UP_VERSION_PATTERN);
        expect(next).not.toBe(version);
        expect(await feedIds(service)).toContain('CatalogVersionLeak');
        expect((await list(moved.headers.get('etag')!)).headers.get(BreachDataHeaders.catalogVersion)).toBe(next);
      } finally {
        await service.close();
      }
    });
  });
}

describe('the details feed version behind two instances (PostgreSQL)', () => {
  const instances = useTwoInstances('catalog-version-instances-');

  it('is the same on both for the same feed, and the other instance names the new one once its feed holds the change', { timeout: 60_000 }, async () => {
    const { a, b } = instances;
    const token = await signIn(a, 'bob', ['bob@example.com']);
    const versionAt = async (service: RunningService) => (await lister(service, token)()).headers.get(BreachDataHeaders.catalogVersion);
    const before = await versionAt(a);
    expect(await versionAt(b)).toBe(before);

    await addBreach(a, 'TwoInstanceLeak');
    const atA = await versionAt(a);
    expect(atA).not.toBe(before);
    await expect.poll(() => versionAt(b), { timeout: 10_000 }).toBe(atA);
    expect(await feedIds(b)).toContain('TwoInstanceLeak');
  });
});
