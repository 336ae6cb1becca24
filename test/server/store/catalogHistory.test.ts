// Catalog history in the breach store, on SQLite and PostgreSQL alike: a breach that leaves the
// catalog keeps its last known fields and its people's resolutions (still changeable), every
// address exposed to it gets a change record, and invented exposures are removed (with their
// resolutions, and a record) without touching real ones. Migration 40 marks an older store's
// exposures invented unless the lookup queue checked the address.
import Database from 'better-sqlite3';
import { describe, expect, it, type TestContext } from 'vitest';
import { asyncBreachStore, type BreachStore } from '../../../server/breaches/BreachStore.ts';
import { migrate } from '../../../server/storage/sqliteMigrate.ts';
import { MIGRATIONS } from '../../../server/breaches/migrations/index.ts';
import { migratePostgresAt, openPostgresBreachStoreAt } from '../../support/storeOpeners.ts';
import { ResolutionChangeError } from '../../../server/breaches/errors.ts';
import { SqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { breach, memoryStore } from './helpers.ts';

const postgres = usePrivatePostgres();
const AT = '2026-03-01T12:00:00.000Z';
const RESOLVED_AT = '2026-02-01T10:00:00Z';

const stores: { name: string; open(ctx: TestContext): Promise<BreachStore> }[] = [
  { name: 'sqlite', open: async () => asyncBreachStore(memoryStore()) },
  {
    name: 'postgres',
    open: async (ctx) => {
      const server = postgres.server();
      if (!server) return ctx.skip('PostgreSQL could not start (see the message above)');
      const url = await server.createDatabase();
      await migratePostgresAt(url);
      return openPostgresBreachStoreAt({ url });
    },
  },
];

for (const { name, open } of stores) {
  describe(`catalog history (${name})`, () => {
    async function withStore(ctx: TestContext, work: (store: BreachStore) => Promise<void>): Promise<void> {
      const store = await open(ctx);
      try {
        await work(store);
      } finally {
        await store.close();
      }
    }

    it('a breach dropped from a refreshed catalog keeps its last known fields, its exposures and resolutions, and each exposed address is told', async (ctx) => {
      await withStore(ctx, async (store) => {
        const gone = breach('Gone', { dataClasses: ['Email addresses', 'Passwords'], isSensitive: true });
        await store.replaceCatalog([breach('Adobe'), gone], { origin: 'hibp', file: null, at: '2026-01-01T00:00:00.000Z' });
        await store.setExposures('a@example.com', ['Adobe', 'Gone']);
        await store.setExposures('b@example.com', ['Gone']);
        await store.setExposures('c@example.com', ['Adobe']);
        await store.applyResolutionChanges([{ email: 'a@example.com', breachId: 'Gone', dataClass: 'Passwords', resolved: true }], RESOLVED_AT);
        const stamp = await store.changeStamp(['c@example.com']);

        await store.replaceCatalog([breach('Adobe', { modifiedDate: '2026-02-01T00:00:00Z' })], { origin: 'hibp', file: null, at: AT });

        expect((await store.listBreaches()).map((b) => b.id)).toEqual(['Adobe']);
        expect(await store.getBreach('Gone')).toBeUndefined();
        expect(await store.removedBreaches()).toEqual(new Map([['Gone', { breach: gone, removedAt: AT }]]));
        expect(await store.getExposures(['a@example.com'])).toEqual(new Map([['a@example.com', ['Adobe', 'Gone']]]));
        expect(await store.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Gone', dataClass: 'Passwords', resolvedAt: RESOLVED_AT }]);
        const changes = await store.catalogChanges(['a@example.com', 'b@example.com', 'c@example.com']);
        expect(changes.map(({ id: _id, ...change }) => change)).toEqual([
          { at: AT, email: 'a@example.com', from: 'hibp', to: 'hibp', removedFromCatalog: ['Gone'], inventedRemoved: [], resolutionsKept: 1, resolutionsRemoved: 0 },
          { at: AT, email: 'b@example.com', from: 'hibp', to: 'hibp', removedFromCatalog: ['Gone'], inventedRemoved: [], resolutionsKept: 0, resolutionsRemoved: 0 },
        ]);
        expect(changes[1]!.id).toBeGreaterThan(changes[0]!.id);
        // A catalog change moves every answer's stamp (the list now marks Gone removed).
        expect(await store.changeStamp(['c@example.com'])).not.toBe(stamp);

        // Still resolvable by its last known data classes; a class it never had is refused.
        await store.applyResolutionChanges([{ email: 'b@example.com', breachId: 'Gone', dataClass: 'email addresses', resolved: true }], RESOLVED_AT);
        expect(await store.getResolutions(['b@example.com'])).toEqual([{ email: 'b@example.com', breachId: 'Gone', dataClass: 'Email addresses', resolvedAt: RESOLVED_AT }]);
        const refused = await store.applyResolutionChanges([{ email: 'b@example.com', breachId: 'Gone', dataClass: 'Shoe sizes', resolved: true }], RESOLVED_AT).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(ResolutionChangeError);
        const unknown = await store.applyResolutionChanges([{ email: 'b@example.com', breachId: 'Never', dataClass: 'Passwords', resolved: true }], RESOLVED_AT).catch((error: unknown) => error);
        expect((unknown as ResolutionChangeError).problem).toBe('unknown-breach');

        // A real answer that no longer names it (HIBP stops listing a retired breach) keeps it.
        await store.setExposures('b@example.com', ['Adobe']);
        expect(await store.getExposures(['b@example.com'])).toEqual(new Map([['b@example.com', ['Adobe', 'Gone']]]));
        // An invented record is replaced exactly, and so is one a real answer replaces.
        await store.setExposures('d@example.com', ['Gone'], true);
        await store.setExposures('d@example.com', ['Adobe']);
        expect(await store.getExposures(['d@example.com'])).toEqual(new Map([['d@example.com', ['Adobe']]]));

        // Back in the catalog: no longer removed, and its resolutions are where they were.
        await store.replaceCatalog([breach('Adobe'), gone], { origin: 'hibp', file: null, at: '2026-04-01T00:00:00.000Z' });
        expect(await store.removedBreaches()).toEqual(new Map());
        expect(await store.getResolutions(['a@example.com'])).toHaveLength(1);
        expect(await store.catalogChanges(['a@example.com'])).toHaveLength(1);
      });
    });

    it('a removed breach written back one at a time or in bulk is in the catalog again, no longer removed', async (ctx) => {
      await withStore(ctx, async (store) => {
        await store.replaceCatalog([breach('Adobe'), breach('Gone'), breach('AlsoGone')], { origin: 'hibp', file: null, at: '2026-01-01T00:00:00.000Z' });
        await store.setExposures('a@example.com', ['Gone', 'AlsoGone']);
        await store.replaceCatalog([breach('Adobe')], { origin: 'hibp', file: null, at: AT });
        expect([...(await store.removedBreaches()).keys()]).toEqual(['AlsoGone', 'Gone']);
        // Read once so a cached snapshot of the catalog is what the writes below must change.
        expect(await store.listBreaches()).toHaveLength(1);

        await store.putBreach(breach('Gone', { domain: 'back.example' }));
        expect([...(await store.removedBreaches()).keys()]).toEqual(['AlsoGone']);
        expect((await store.getBreach('Gone'))?.domain).toBe('back.example');
        await store.putBreaches([breach('AlsoGone')]);
        expect(await store.removedBreaches()).toEqual(new Map());
        expect((await store.listBreaches()).map((b) => b.id)).toEqual(['Adobe', 'AlsoGone', 'Gone']);
        // Back in the catalog, a real answer that no longer names them replaces them as any other.
        await store.setExposures('a@example.com', ['Adobe']);
        expect(await store.getExposures(['a@example.com'])).toEqual(new Map([['a@example.com', ['Adobe']]]));
      });
    });

    it('records which catalog is loaded, and keeps it when a replacement does not say', async (ctx) => {
      await withStore(ctx, async (store) => {
        expect(await store.loadedCatalog()).toBeUndefined();
        await store.replaceCatalog([breach('Adobe')], { origin: 'file', file: '/tmp/breaches.json', at: AT });
        expect(await store.loadedCatalog()).toEqual({ origin: 'file', file: '/tmp/breaches.json' });
        await store.replaceCatalog([breach('Adobe'), breach('Canva')]);
        expect(await store.loadedCatalog()).toEqual({ origin: 'file', file: '/tmp/breaches.json' });
        await expect(store.replaceCatalog([], { origin: 'elsewhere' as 'file', file: null, at: AT })).rejects.toThrow();
        await expect(store.replaceCatalog([], { origin: 'hibp', file: null, at: 'yesterday' })).rejects.toThrow(/ISO 8601/);
        expect(await store.catalogSize()).toBe(2);
      });
    });

    it('removes invented exposures with their resolutions and a record per address; real exposures and their resolutions stay', async (ctx) => {
      await withStore(ctx, async (store) => {
        await store.replaceCatalog([breach('Adobe'), breach('Canva'), breach('Dropbox')], { origin: 'demo', file: null, at: '2026-01-01T00:00:00.000Z' });
        await store.setExposures('demo@example.com', ['Canva', 'Adobe'], true);
        await store.setExposures('real@example.com', ['Adobe']);
        // A real lookup answering for an address with invented data makes its record real.
        await store.setExposures('became@example.com', ['Dropbox'], true);
        await store.setExposures('became@example.com', ['Canva']);
        await store.applyResolutionChanges(
          [
            { email: 'demo@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolved: true },
            { email: 'demo@example.com', breachId: 'Canva', dataClass: 'Passwords', resolved: true },
            // A resolution of a breach the invented record does not name is the person's own, and stays.
            { email: 'demo@example.com', breachId: 'Dropbox', dataClass: 'Passwords', resolved: true },
            { email: 'real@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolved: true },
          ],
          RESOLVED_AT,
        );
        const stamp = await store.changeStamp(['demo@example.com']);

        expect(await store.removeInventedExposures({ at: AT, to: 'hibp' })).toEqual(['demo@example.com']);

        expect(await store.getExposures(['demo@example.com', 'real@example.com', 'became@example.com'])).toEqual(
          new Map([
            ['real@example.com', ['Adobe']],
            ['became@example.com', ['Canva']],
          ]),
        );
        expect((await store.getResolutions(['demo@example.com', 'real@example.com'])).map((row) => `${row.email} ${row.breachId}`)).toEqual(['demo@example.com Dropbox', 'real@example.com Adobe']);
        expect((await store.catalogChanges(['demo@example.com', 'real@example.com'])).map(({ id: _id, ...change }) => change)).toEqual([
          { at: AT, email: 'demo@example.com', from: 'demo', to: 'hibp', removedFromCatalog: [], inventedRemoved: ['Adobe', 'Canva'], resolutionsKept: 0, resolutionsRemoved: 2 },
        ]);
        expect(await store.changeStamp(['demo@example.com'])).not.toBe(stamp);
        // Nothing invented is left: a second start changes nothing.
        expect(await store.removeInventedExposures({ at: AT, to: 'hibp' })).toEqual([]);
        expect(await store.catalogChanges(['demo@example.com'])).toHaveLength(1);
      });
    });
  });
}

describe('SQLite migration 40 (catalog history)', () => {
  it("marks an older store's exposures invented unless the lookup queue checked the address; removing one makes its address unknown again", () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 30),
    );
    db.exec(`
      INSERT INTO exposure_records (email) VALUES ('demo@example.com'), ('checked@example.com'), ('waiting@example.com');
      INSERT INTO address_checks (email, domain, added_at, seen_at, checked_at, via_domain) VALUES
        ('checked@example.com', 'example.com', 1, 1, 2, 0), ('waiting@example.com', 'example.com', 1, 1, NULL, 0);
    `);
    migrate(db, MIGRATIONS);
    expect(db.prepare('SELECT email, invented FROM exposure_records ORDER BY email').raw().all()).toEqual([
      ['checked@example.com', 0],
      ['demo@example.com', 1],
      ['waiting@example.com', 1],
    ]);
    const sqlite = new SqliteBreachStore(db);
    // The development surface overwrites a checked address's real record with an invented one.
    sqlite.setExposures('checked@example.com', ['Adobe'], true);
    expect(sqlite.removeInventedExposures({ at: AT, to: 'hibp' })).toEqual(['checked@example.com', 'demo@example.com', 'waiting@example.com']);
    // The lookup answer that record replaced is gone too: the address is unknown and due, never clean.
    expect(db.prepare("SELECT checked_at, breach_count, due_at FROM address_checks WHERE email = 'checked@example.com'").raw().get()).toEqual([null, null, Date.parse(AT)]);
    expect(db.prepare("SELECT checked_at, due_at FROM address_checks WHERE email = 'waiting@example.com'").raw().get()).toEqual([null, null]);
    sqlite.close();
  });
});
