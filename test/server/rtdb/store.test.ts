// The RtdbStore contract, on SQLite and on PostgreSQL alike: subtree writes, all-or-nothing
// transactions, snapshots and their cache, change notices, secrets and service accounts. Two
// stores on one database stand for two instances.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openPostgresRtdbStoreAt, migratePostgresAt } from '../../support/storeOpeners.ts';
import type { RtdbChange, RtdbStore } from '../../../server/rtdb/RtdbStore.ts';
import { POSTGRES_SCHEMA_VERSION } from '../../../server/storage/migrations/index.ts';
import { createPool } from '../../../server/storage/pool.ts';
import { databaseAt, INJECTED_FAILURE } from '../../support/storeDialects.ts';
import { eventually } from '../../support/waitFor.ts';
import { STORE_KINDS, useRtdbStores } from './stores.ts';

const stores = useRtdbStores();

describe.each(STORE_KINDS)('RtdbStore on %s', (kind) => {
  async function open(count = 1): Promise<RtdbStore[] | undefined> {
    const place = await stores.place(kind);
    if (!place) return undefined;
    const opened: RtdbStore[] = [];
    for (let i = 0; i < count; i++) opened.push(await place.open());
    return opened;
  }

  it('replaces exactly the subtree written, turning a leaf above it into an object; a failed transaction writes nothing', async (ctx) => {
    const [store] = (await open()) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    await store!.transaction((tx) => tx.write([{ path: ['a'], value: { b: 1, bc: 2, c: { d: 'x' } } }]));
    await store!.transaction((tx) => tx.write([{ path: ['a', 'b', 'e'], value: true }]));
    expect(await store!.get(['a'])).toEqual({ b: { e: true }, bc: 2, c: { d: 'x' } });
    await store!.transaction((tx) => tx.write([{ path: ['a', 'c'], value: null }]));
    expect(await store!.get([])).toEqual({ a: { b: { e: true }, bc: 2 } });
    const before = await store!.snapshot(['a']);
    await expect(
      store!.transaction(async (tx) => {
        await tx.write([{ path: ['a'], value: 'gone' }]);
        expect(await tx.get(['a'])).toBe('gone');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store!.get(['a', 'bc'])).toBe(2);
    expect(await store!.snapshot(['a'])).toEqual(before);
  });

  it('takes back every write of a transaction whose last write fails in the database: nothing stored, nothing announced, the ETag kept', async (ctx) => {
    const place = (await stores.place(kind)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const [a, b] = [await place.open(), await place.open()];
    await a.transaction((tx) =>
      tx.write([
        { path: ['a'], value: { old: true } },
        { path: ['b'], value: { keep: 1 } },
      ]),
    );
    // A trigger on the leaf table (test/support/storeDialects.ts): only the database can stop this write.
    await databaseAt(kind === 'sqlite' ? { file: path.join(place.dataDir, 'rtdb.db') } : { url: place.databaseUrl! }).failWhen(kind === 'sqlite' ? 'leaves' : 'rtdb_leaves', "NEW.path = 'b/poison'");
    const before = { tree: await a.get([]), a: await a.snapshot(['a']), b: await b.snapshot(['b']) };
    const heard: RtdbChange[] = [];
    a.watch((change) => heard.push(change));
    await expect(
      a.transaction((tx) =>
        tx.write([
          { path: ['a'], value: { x: 1, y: 2 } },
          { path: ['c'], value: 'new' },
          { path: ['b', 'poison'], value: 1 },
        ]),
      ),
    ).rejects.toThrow(INJECTED_FAILURE);
    expect(await a.get([])).toEqual(before.tree);
    expect(await b.get([])).toEqual(before.tree);
    expect((await a.snapshot(['a'])).etag).toBe(before.a.etag);
    expect((await b.snapshot(['b'])).etag).toBe(before.b.etag);
    expect(heard).toEqual([]);
  });

  it("serves a cached snapshot until any instance writes, then the other instance's value", async (ctx) => {
    const [a, b] = (await open(2)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    await a!.transaction((tx) => tx.write([{ path: ['users', 'u1'], value: { theme: 'dark' } }]));
    const first = await b!.snapshot(['users', 'u1']);
    expect(first.value).toEqual({ theme: 'dark' });
    expect(await b!.snapshot(['users', 'u1'])).toBe(first);
    await a!.transaction((tx) => tx.write([{ path: ['users', 'u1', 'theme'], value: 'light' }]));
    const second = await b!.snapshot(['users', 'u1']);
    expect(second.value).toEqual({ theme: 'light' });
    expect(second.etag).not.toBe(first.etag);
  });

  it('lets exactly one of two conditional writes on one ETag win, through two instances', async (ctx) => {
    const [a, b] = (await open(2)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    await a!.transaction((tx) => tx.write([{ path: ['counter'], value: 0 }]));
    for (let round = 1; round <= 10; round++) {
      const { etag } = await a!.snapshot(['counter']);
      const attempt = (store: RtdbStore, value: string) =>
        store.transaction(async (tx) => {
          const current = await tx.snapshot(['counter']);
          if (current.etag !== etag) return false;
          await tx.write([{ path: ['counter'], value: `${round}-${value}` }]);
          return true;
        });
      const outcomes = await Promise.all([attempt(a!, 'a'), attempt(b!, 'b')]);
      expect(outcomes.filter(Boolean), `round ${round}`).toHaveLength(1);
      expect(await b!.get(['counter'])).toBe(`${round}-${outcomes[0] ? 'a' : 'b'}`);
    }
  });

  it('tells watchers about its own writes at once and, on PostgreSQL, about the other instance’s', async (ctx) => {
    const [a, b] = (await open(2)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const seenByA: RtdbChange[] = [];
    const seenByB: RtdbChange[] = [];
    a!.watch((change) => seenByA.push(change));
    const heard = new Promise<RtdbChange>((resolve) => b!.watch((change) => (seenByB.push(change), resolve(change))));
    await a!.transaction((tx) => tx.write([{ path: ['users', 'u2', 'prefs'], value: { x: 1 } }]));
    expect(seenByA).toEqual([{ paths: [['users', 'u2', 'prefs']], writes: [{ path: ['users', 'u2', 'prefs'], value: { x: 1 } }] }]);
    if (kind === 'postgres') expect(await heard).toEqual({ paths: [['users', 'u2', 'prefs']] });
    // A transaction that writes nothing announces nothing.
    await a!.transaction(async (tx) => void (await tx.get(['users'])));
    expect(seenByA).toHaveLength(1);
  });

  it('a watcher that throws neither fails the committed write nor keeps the watchers after it from hearing it', async (ctx) => {
    const [a, b] = (await open(2)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const broken = a!.watch(() => {
        throw new Error('watcher broke');
      });
      const seen: RtdbChange[] = [];
      const after = a!.watch((change) => seen.push(change));
      // Committed, so the writer is told it was: a listener's failure is the listener's own.
      await a!.transaction((tx) => tx.write([{ path: ['users', 'u3'], value: 1 }]));
      expect(seen.map((change) => change.paths)).toEqual([[['users', 'u3']]]);
      expect(await b!.get(['users', 'u3'])).toBe(1);
      expect(reported).toHaveBeenCalledOnce();
      broken.dispose();
      after.dispose();
    } finally {
      reported.mockRestore();
    }
  });

  it('keeps secrets and service accounts where every instance finds them', async (ctx) => {
    const [a, b] = (await open(2)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const { id, secret } = await a!.createSecret(new Date('2026-01-01T00:00:00Z'));
    expect(await b!.findLiveSecret(secret)).toBe(id);
    expect(await b!.findLiveSecret(secret + 'x')).toBeUndefined();
    expect(await b!.listSecrets()).toEqual([{ id, createdAt: '2026-01-01T00:00:00.000Z', revokedAt: null }]);
    expect(await b!.revokeSecret(id, new Date('2026-01-02T00:00:00Z'))).toBe(true);
    expect(await b!.revokeSecret(id, new Date('2026-01-03T00:00:00Z'))).toBe(true);
    expect(await a!.findLiveSecret(secret)).toBeUndefined();
    expect((await a!.listSecrets())[0]?.revokedAt).toBe('2026-01-02T00:00:00.000Z');
    expect(await a!.revokeSecret('nope')).toBe(false);

    await a!.putServiceAccount({ clientEmail: 'sa@x.test', keyId: 'k1', publicKeyPem: 'PEM', scopes: ['s1', 's2'] }, new Date('2026-01-01T00:00:00Z'));
    expect(await b!.getServiceAccount('sa@x.test')).toEqual({ clientEmail: 'sa@x.test', keyId: 'k1', publicKeyPem: 'PEM', scopes: ['s1', 's2'], createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await b!.getServiceAccount('other@x.test')).toBeUndefined();
    await expect(b!.putServiceAccount({ clientEmail: 'sa@x.test', keyId: 'k2', publicKeyPem: 'PEM', scopes: [] })).rejects.toThrow();
  });

  it('keeps settings and announces their change', async (ctx) => {
    const [a, b] = (await open(2)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    expect(await a!.getSetting('rules')).toBeUndefined();
    const heard = new Promise<RtdbChange>((resolve) => (kind === 'postgres' ? b! : a!).watch(resolve));
    await a!.putSetting('rules', '{"rules":{}}');
    await a!.putSetting('rules', '{"rules":{"x":{}}}');
    expect(await b!.getSetting('rules')).toBe('{"rules":{"x":{}}}');
    expect((await heard).paths).toEqual([['.settings', 'rules']]);
  });
});

describe('PostgreSQL: a conditional write held open across its check', () => {
  it("makes the other instance's transaction wait for it rather than read the value it is about to replace", async (ctx) => {
    const place = (await stores.place('postgres')) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const [a, b] = [await place.open(), await place.open()];
    const watcher = createPool({ url: place.databaseUrl!, max: 1, onIdleError: () => {} });
    try {
      await a.transaction((tx) => tx.write([{ path: ['slot'], value: 'free' }]));
      const { etag } = await a.snapshot(['slot']);
      let bChecked = false;
      const claim = (store: RtdbStore, who: string, hold: () => Promise<void>) =>
        store.transaction(async (tx) => {
          const current = await tx.snapshot(['slot']);
          if (who === 'b') bChecked = true;
          if (current.etag !== etag) return false;
          await hold();
          await tx.write([{ path: ['slot'], value: who }]);
          return true;
        });
      // A checks, then holds its transaction open until B has either checked too (the race is
      // lost: both would win) or is waiting for A's lock (what the store must do).
      let bDone: Promise<boolean> | undefined;
      const aWon = await claim(a, 'a', async () => {
        bDone = claim(b, 'b', async () => {});
        await eventually('B to check the slot or wait for the lock', async () => {
          if (bChecked) return true;
          const { rows } = await watcher.query<{ waiting: number }>("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()");
          return rows[0]!.waiting > 0;
        });
      });
      expect(aWon).toBe(true);
      expect(await bDone!).toBe(false);
      expect(await b.get(['slot'])).toBe('a');
    } finally {
      await watcher.end();
    }
  });
});

describe("the realtime database's PostgreSQL store and the one migration list", () => {
  it("opens only on a database migrated to this code's version, and refuses one that is behind or ahead", async (ctx) => {
    const server = stores.postgres.server() ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const url = await server.createDatabase();
    // The store no longer migrates: openStorage does, once, for every store.
    await expect(openPostgresRtdbStoreAt(url)).rejects.toThrow(`database schema version 0, this code needs ${POSTGRES_SCHEMA_VERSION}: the database was not migrated`);
    expect((await databaseAt({ url }).rows<{ name: string | null }>("SELECT to_regclass('rtdb_leaves')::text AS name"))[0]!.name).toBeNull();
    expect(await migratePostgresAt(url)).toMatchObject({ from: 0, to: POSTGRES_SCHEMA_VERSION });
    const store = await openPostgresRtdbStoreAt(url);
    await store.close();
    await databaseAt({ url }).exec(`UPDATE schema_version SET version = ${POSTGRES_SCHEMA_VERSION + 1000}`);
    await expect(openPostgresRtdbStoreAt(url)).rejects.toThrow(/newer than this code knows \(table schema_version/);
  });
});
