// Whatever Have I Been Pwned calls a breach is stored, served and fed: names such as `Foo.Bar`,
// `a/b`, `$`, `#`, `[`, `]` and `__proto__` are encoded into details-feed keys and back (the app
// reads them with their names), one record that is not valid or too long a key costs only itself
// (logged once), never the feed. And stealer-log "domains" are website domains, bounded, or left
// out. On SQLite and on PostgreSQL, against the HIBP stand-in on a simulated clock.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import { RealtimeDatabaseClient } from '../../../electron/core/feed/RealtimeDatabaseClient.ts';
import { syncCatalogDetails } from '../../../electron/core/feed/syncCatalogDetails.ts';
import { createLogger } from '../../../server/log.ts';
import type { RunningService } from '../../../server/app.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { checks, KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { SCENARIO_START } from '../../support/hibpScenarios.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn, type CatalogRecord } from '../../support/hibpStandIn.ts';
import { serviceStores } from '../../support/postgres.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const ODD_NAMES = ['Foo.Bar', 'a/b', 'Cost$', 'Hash#Tag', '[Bracketed]', '__proto__', 'constructor', '100%Real'];
const LONG_NAME = 'L'.repeat(800);
const dirs: string[] = [];
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const part of running.splice(0).reverse()) await part.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The fixture catalog with records named as HIBP may name them, one record that is not valid, and one whose name is too long for a key. */
function oddCatalog(): string {
  const records = JSON.parse(readFileSync(HIBP_FIXTURE_CATALOG, 'utf8')) as CatalogRecord[];
  const template = records.find((record) => record.Name === 'Adobe')!;
  const odd = [...ODD_NAMES, LONG_NAME].map((name) => ({ ...template, Name: name, Title: `The ${name.slice(0, 20)} breach`, Domain: 'odd.example' }));
  const invalid = { ...template, Name: 'NotADate', BreachDate: 'yesterday' };
  const dir = mkdtempSync(path.join(tmpdir(), 'hibp-odd-catalog-'));
  dirs.push(dir);
  const file = path.join(dir, 'breaches.json');
  writeFileSync(file, JSON.stringify([...records, ...odd, invalid]));
  return file;
}

function captureLines(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, destination };
}

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP names'))('upstream names', async () => {
  const stores = await serviceStores();
  describe.each(stores)('on $name', (kind) => {
    if (!kind.available) {
      it.skip('PostgreSQL could not start (see the message above)', () => {});
      return;
    }

    async function start(options: { catalogFile?: string; stealer?: Record<string, string[]> }): Promise<{ clock: SimulatedClock; standIn: HibpStandIn; service: RunningService; lines: string[] }> {
      const clock = new SimulatedClock(SCENARIO_START, 2);
      const standIn = await HibpStandIn.start({
        keys: { [KEY]: { rpm: 10, stealerLogs: true } },
        accounts: { 'alice@example.com': ['Adobe'] },
        stealerLogs: options.stealer ?? {},
        now: () => clock.now(),
        ...(options.catalogFile ? { catalogFile: options.catalogFile } : {}),
      });
      running.push(standIn);
      const { lines, destination } = captureLines();
      const service = await startAgainst(
        standIn,
        clock,
        { dataDir: tempDir('hibp-names-', dirs), hibpApiKey: KEY, catalogRefreshSec: 3600, ...(await kind.serviceOptions()) },
        createLogger({ level: 'info', destination }),
      );
      running.push(service);
      return { clock, standIn, service, lines };
    }

    it('every breach HIBP names is stored, served and fed; the app reads each back by its name', async () => {
      const { clock, service, lines } = await start({ catalogFile: oddCatalog() });
      for (const name of [...ODD_NAMES, LONG_NAME]) expect((await service.store.getBreach(name))?.id).toBe(name);
      // The record that is not valid costs only itself.
      expect(await service.store.getBreach('NotADate')).toBeUndefined();
      expect(await service.store.getBreach('Adobe')).toBeDefined();

      const feed = (await service.rtdb.get(['catalog', 'breaches'])) as Record<string, { title: string }>;
      expect(feed['Adobe']?.title).toBe('Adobe');
      expect(feed['Foo%2EBar']?.title).toBe('The Foo.Bar breach');
      expect(feed['a%2Fb']?.title).toBe('The a/b breach');
      expect(Object.hasOwn(feed, '%5F_proto__')).toBe(true);
      // Over 768 bytes: no key can hold it, so only its details are left out.
      expect(Object.keys(feed).some((key) => key.startsWith('LLLL'))).toBe(false);

      // The app's copy of the feed, by breach id.
      const dir = tempDir('hibp-names-app-', dirs);
      const details = new DetailsStore(path.join(dir, 'catalog-details.db'));
      try {
        const report = await syncCatalogDetails(new RealtimeDatabaseClient({ url: `${service.url}/rtdb`, credential: { kind: 'none' } }), details);
        expect(report.skipped).toEqual([]);
        for (const name of ODD_NAMES) expect(details.get(name)?.title).toBe(`The ${name} breach`);
        expect(details.get('Adobe')?.title).toBe('Adobe');
      } finally {
        details.close();
      }

      // A refresh of the same catalog says nothing again about what it left out.
      await clock.advanceBy(2 * 3_600_000);
      expect(lines.filter((line) => line.includes('NotADate'))).toHaveLength(1);
      expect(lines.filter((line) => line.includes('left out of the details feed'))).toHaveLength(1);
    }, 60_000);

    it('stealer-log entries that are not website domains are left out, never stored or served', async () => {
      const huge = `${'x'.repeat(100_000)}.example`;
      const { clock, service } = await start({ stealer: { 'alice@example.com': ['netflix.com', huge, 'Spotify.com', 'not a domain', '-bad-.com'] } });
      const token = await signIn(service, 'alice', ['alice@example.com']);
      await clock.settle();
      await clock.runUntil(async () => (await checks(service, token)).body.stealerLogs.pending === 0, 10 * 60_000);
      const answer = (await checks(service, token)).body;
      expect(answer.stealerLogs.entries).toMatchObject([{ email: 'alice@example.com', domains: ['netflix.com', 'spotify.com'] }]);
      const row = (await service.breachData.lookups!.checks(['alice@example.com'])).get('alice@example.com');
      expect(row?.stealerDomains).toEqual(['netflix.com', 'spotify.com']);
    }, 60_000);
  });
});
