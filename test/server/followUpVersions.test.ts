// The versions of the breach list's follow-ups (issue 39): `breach-checks-version` and
// `breach-catalog-changes-version` on every list answer (200 and 304) and on the follow-ups' own,
// moving exactly when what those answers say changes: not with time, not with other people's
// lookups, not with the caller's resolutions. The real service over loopback, on SQLite and
// PostgreSQL, in demo mode.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BreachDataHeaders, NO_CATALOG_CHANGES_VERSION, type UserChecks } from '../../shared/api/index.ts';
import { checksVersion } from '../../server/api/followUpVersions.ts';
import { signIn, startAgainst, tempDir } from '../support/hibpService.ts';
import { serviceStores } from '../support/postgres.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const CHECKS: UserChecks = {
  source: 'hibp',
  attribution: 'Have I Been Pwned',
  addresses: [{ email: 'a@example.com', state: 'checked', checkedAt: '2026-03-01T00:00:00.000Z', nextCheckAt: '2026-03-02T00:00:00.000Z', breachCount: 2, viaDomainSearch: false }],
  queue: { requestsPerMinute: 10, waiting: 3, nextCheckAt: '2026-03-02T00:00:00.000Z' },
  stealerLogs: { available: false, pending: 0, entries: [] },
  problem: null,
};

describe('the checks version', () => {
  it('leaves out the estimates (every nextCheckAt, the queue waiting) and moves with every fact', () => {
    const version = checksVersion(CHECKS);
    expect(version).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const address = CHECKS.addresses[0]!;
    expect(checksVersion({ ...CHECKS, addresses: [{ ...address, nextCheckAt: null }], queue: { ...CHECKS.queue, waiting: 40, nextCheckAt: null } })).toBe(version);
    expect(checksVersion({ ...CHECKS, addresses: [{ ...address, checkedAt: '2026-03-01T01:00:00.000Z' }] })).not.toBe(version);
    expect(checksVersion({ ...CHECKS, addresses: [{ ...address, breachCount: 3 }] })).not.toBe(version);
    expect(checksVersion({ ...CHECKS, addresses: [{ ...address, state: 'failed' }] })).not.toBe(version);
    expect(checksVersion({ ...CHECKS, queue: { ...CHECKS.queue, requestsPerMinute: 20 } })).not.toBe(version);
    expect(checksVersion({ ...CHECKS, problem: { code: 'rate-limited', detail: 'wait' } })).not.toBe(version);
    expect(checksVersion({ ...CHECKS, stealerLogs: { available: true, pending: 1, entries: [] } })).not.toBe(version);
  });
});

for (const store of await serviceStores()) {
  describe.skipIf(!store.available)(`the follow-ups' versions (${store.name})`, () => {
    it('are on the list (200 and 304) and on each follow-up, the same while their answers are, whatever the time or the resolutions', { timeout: 60_000 }, async () => {
      const service = await startAgainst(undefined, undefined, { dataDir: tempDir('follow-up-versions-', dirs), ...(await store.serviceOptions()) });
      try {
        const token = await signIn(service, 'alice', ['alice@example.com']);
        const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.apiBaseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
        const versionsOf = (response: Response) => [response.headers.get(BreachDataHeaders.checksVersion), response.headers.get(BreachDataHeaders.catalogChangesVersion)];

        const list = await get('/user/breaches');
        expect(list.status).toBe(200);
        const breaches = (await list.json()) as { breach: { id: string; dataClasses: string[] } }[];
        const [checks, changes] = versionsOf(list);
        expect(checks).toMatch(/^[A-Za-z0-9_-]+$/);
        // No catalog change touched these addresses: the documented version that says so, whose answer a client knows.
        expect(changes).toBe(NO_CATALOG_CHANGES_VERSION);
        expect(await (await get('/user/catalog-changes')).json()).toEqual({ changes: [] });
        const notModified = await get('/user/breaches', { 'if-none-match': list.headers.get('etag')! });
        expect(notModified.status).toBe(304);
        expect(versionsOf(notModified)).toEqual([checks, changes]);

        // Each follow-up says its own version: the same as the list's, and again a moment later
        // (the demo source's checkedAt is when it found the exposures, not the time of the answer).
        const first = await get('/user/checks');
        expect(first.headers.get(BreachDataHeaders.checksVersion)).toBe(checks);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const second = await get('/user/checks');
        expect(second.headers.get(BreachDataHeaders.checksVersion)).toBe(checks);
        expect(((await second.json()) as UserChecks).addresses[0]!.checkedAt).toBe(((await first.json()) as UserChecks).addresses[0]!.checkedAt);
        expect((await get('/user/catalog-changes')).headers.get(BreachDataHeaders.catalogChangesVersion)).toBe(changes);

        // A resolution changes the list, not its follow-ups.
        const resolved = await fetch(`${service.apiBaseUrl}/user/breaches/resolutions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify([{ breachId: breaches[0]!.breach.id, dataClasses: [breaches[0]!.breach.dataClasses[0]], resolved: true }]),
        });
        expect(resolved.status).toBe(204);
        const after = await get('/user/breaches', { 'if-none-match': list.headers.get('etag')! });
        expect(after.status).toBe(200);
        expect(versionsOf(after)).toEqual([checks, changes]);

        // New exposures move the checks' version, on the list and on the checks alike.
        const put = await fetch(`${service.url}/__dev/exposures`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'alice@example.com', breachIds: [breaches[0]!.breach.id] }),
        });
        expect(put.ok).toBe(true);
        const moved = versionsOf(await get('/user/breaches'));
        expect(moved[0]).not.toBe(checks);
        expect(moved[1]).toBe(changes);
        expect((await get('/user/checks')).headers.get(BreachDataHeaders.checksVersion)).toBe(moved[0]);
      } finally {
        await service.close();
      }
    });
  });
}
