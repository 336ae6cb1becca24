// What only the PostgreSQL store has, on a private server (test/support/postgres.ts): it opens only
// on a migrated database (the migrations: postgresMigrations.test.ts), per-email revisions that other instances' writes
// about other emails leave alone, LISTEN/NOTIFY invalidation, and a clear error naming the host
// (never the password) when unreachable. The rules it shares with the SQLite store (atomic and
// concurrent batches included) are in breachStore.contract.test.ts, run on both.
import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it, vi, type TestContext } from 'vitest';
import { migratePostgresAt, openPostgresBreachStoreAt } from '../../support/storeOpeners.ts';
import { POSTGRES_SCHEMA_VERSION } from '../../../server/storage/migrations/index.ts';
import type { PostgresBreachStore } from '../../../server/breaches/postgres/PostgresBreachStore.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { eventually } from '../../support/waitFor.ts';
import { breach } from './helpers.ts';

const postgres = usePrivatePostgres();

async function database(ctx: TestContext): Promise<string> {
  const server = postgres.server();
  if (!server) return ctx.skip('PostgreSQL could not start (see the message above)');
  const url = await server.createDatabase();
  await migratePostgresAt(url);
  return url;
}

async function withStore<T>(url: string, work: (store: PostgresBreachStore) => Promise<T>): Promise<T> {
  const store = await openPostgresBreachStoreAt({ url });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL schema', () => {
  it('opens only on a migrated database (the store does not migrate: openStorage does)', async (ctx) => {
    const server = postgres.server() ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const url = await server.createDatabase();
    await expect(openPostgresBreachStoreAt({ url })).rejects.toThrow(`database schema version 0, this code needs ${POSTGRES_SCHEMA_VERSION}: the database was not migrated`);
    expect(await query(url, "SELECT to_regclass('breaches')::text AS name")).toEqual([{ name: null }]);
  });

  it('refuses a database written by newer code', async (ctx) => {
    const url = await database(ctx);
    await withStore(url, async () => {});
    await query(url, 'UPDATE schema_version SET version = 9990');
    await expect(openPostgresBreachStoreAt({ url })).rejects.toThrow(/schema version 9990 is newer/);
  });
});

describe('PostgresBreachStore across instances', () => {
  it("moves an email's change stamp when another instance writes about it, and only then", async (ctx) => {
    const url = await database(ctx);
    await withStore(url, async (reader) => {
      await withStore(url, async (writer) => {
        await writer.replaceCatalog([breach('Adobe'), breach('Canva')]);
        await writer.setExposures('a@example.com', ['Adobe']);
        const before = await reader.changeStamp(['a@example.com']);
        await writer.setExposures('b@example.com', ['Canva']);
        await writer.createUser('someone');
        expect(await reader.changeStamp(['a@example.com'])).toBe(before);
        await writer.applyResolutionChanges([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolved: true }], '2026-02-01T10:00:00Z');
        const afterResolution = await reader.changeStamp(['a@example.com']);
        expect(afterResolution).not.toBe(before);
        await writer.putBreach(breach('Dropbox'));
        expect(await reader.changeStamp(['a@example.com'])).not.toBe(afterResolution);
        expect((await reader.listBreaches()).map((b) => b.id)).toEqual(['Adobe', 'Canva', 'Dropbox']);
      });
    });
  });
});

describe('LISTEN/NOTIFY invalidation (--database-invalidation notify)', () => {
  it("moves the stamp at once for its own writes, and for another instance's once the notice arrives, without a query", async (ctx) => {
    const url = await database(ctx);
    const reader = await openPostgresBreachStoreAt({ url, invalidation: 'notify' });
    ctx.onTestFinished(() => reader.close());
    await withStore(url, async (writer) => {
      const initial = await reader.changeStamp(['a@example.com']);
      await writer.replaceCatalog([breach('Adobe')]);
      // The catalog's notice arrives when it does: wait for it, or it could be taken below for the resolution's.
      await eventually("the reader noticed the other instance's catalog", async () => (await reader.changeStamp(['a@example.com'])) !== initial);
      await reader.setExposures('a@example.com', ['Adobe']);
      const afterOwn = await reader.changeStamp(['a@example.com']);
      expect(afterOwn).toMatch(/^n\d+\./);
      await writer.applyResolutionChanges([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolved: true }], '2026-02-01T10:00:00Z');
      await eventually("the reader noticed the other instance's write", async () => (await reader.changeStamp(['a@example.com'])) !== afterOwn);
      const noticed = await reader.changeStamp(['a@example.com']);
      await writer.setExposures('b@example.com', ['Adobe']);
      await eventually('the notice about another email arrived', async () => (await reader.changeStamp(['b@example.com'])) !== (await reader.changeStamp(['c@example.com'])));
      expect(await reader.changeStamp(['a@example.com'])).toBe(noticed);
    });
  });
});

describe('readAccount under LISTEN/NOTIFY', () => {
  it("reads an account once, then answers from memory until an account write is announced, its own at once and another instance's when its notice arrives", async (ctx) => {
    const url = await database(ctx);
    const reader = await openPostgresBreachStoreAt({ url, invalidation: 'notify' });
    ctx.onTestFinished(() => reader.close());
    await withStore(url, async (writer) => {
      const initial = await reader.changeStamp([]);
      await writer.putAccount({ sub: 'someone', emails: ['a@example.com'], deleted: false });
      // The write's notice arrives when it does: wait for it, or it could make the read below the second of two.
      await eventually("the reader noticed the other instance's account write", async () => (await reader.changeStamp([])) !== initial);
      expect((await reader.readAccount('someone', [])).account?.emails).toEqual(['a@example.com']);
      // The account from memory: the one statement reaching the pool reads the person's added
      // addresses, whose writes are not announced (the store's every read goes through pool.query).
      const queries = vi.spyOn(pg.Pool.prototype, 'query');
      ctx.onTestFinished(() => queries.mockRestore());
      expect((await reader.readAccount('someone', ['x@example.com'])).account?.emails).toEqual(['a@example.com']);
      expect(queries.mock.calls.map(([statement]) => String(statement)).filter((text) => !/FROM person_emails WHERE sub = \$1/.test(text))).toEqual([]);
      queries.mockRestore();
      await writer.putAccount({ sub: 'someone', emails: ['b@example.com'], deleted: false });
      await eventually("the reader noticed the other instance's account write", async () => (await reader.readAccount('someone', [])).account?.emails[0] === 'b@example.com');
      await reader.putAccount({ sub: 'someone', emails: ['c@example.com'], deleted: true });
      expect((await reader.readAccount('someone', [])).account).toEqual({ sub: 'someone', emails: ['c@example.com'], deleted: true });
      // The stamps still come from the notices: one's own exposure write moves it at once.
      const before = (await reader.readAccount('someone', [])).changeStamp(['c@example.com']);
      await reader.setExposures('c@example.com', ['Adobe']);
      expect((await reader.readAccount('someone', [])).changeStamp(['c@example.com'])).not.toBe(before);
    });
  });
});

describe('readAccount under the per-request check', () => {
  it('asks the reads of one turn in one query, identical ones once, each with its own account and stamps', async (ctx) => {
    const url = await database(ctx);
    await withStore(url, async (store) => {
      await store.putAccount({ sub: 'alice', emails: ['a@example.com', 'shared@example.com'], deleted: false });
      await store.putAccount({ sub: 'bob', emails: ['b@example.com'], deleted: true });
      await store.setExposures('a@example.com', ['Adobe']);
      const queries = vi.spyOn(pg.Pool.prototype, 'query');
      ctx.onTestFinished(() => queries.mockRestore());
      const reads = await Promise.all([
        store.readAccount('alice', []),
        store.readAccount('bob', []),
        store.readAccount('alice', []),
        store.readAccount('nobody', ['Fallback@Example.com', 'a@example.com']),
      ]);
      expect(queries).toHaveBeenCalledTimes(1);
      queries.mockRestore();
      expect(reads.map((read) => read.account)).toEqual([
        { sub: 'alice', emails: ['a@example.com', 'shared@example.com'], deleted: false },
        { sub: 'bob', emails: ['b@example.com'], deleted: true },
        { sub: 'alice', emails: ['a@example.com', 'shared@example.com'], deleted: false },
        undefined,
      ]);
      expect(reads[0]!.account).not.toBe(reads[2]!.account);
      // The same stamps as one read alone gives (a fallback's addresses for an unknown account).
      const alone = await store.readAccount('alice', []);
      expect(reads[0]!.changeStamp(['a@example.com', 'shared@example.com'])).toBe(alone.changeStamp(['a@example.com', 'shared@example.com']));
      expect(reads[3]!.changeStamp(['fallback@example.com', 'a@example.com'])).toBe(
        (await store.readAccount('nobody', ['fallback@example.com', 'a@example.com'])).changeStamp(['fallback@example.com', 'a@example.com']),
      );
      expect(() => reads[1]!.changeStamp(['a@example.com'])).toThrow(/did not cover/);
    });
  });

  it("never answers a read from a query that started before it was asked: another instance's write committed before the read is seen", async (ctx) => {
    const url = await database(ctx);
    await withStore(url, async (writer) => {
      const reader = await openPostgresBreachStoreAt({ url });
      ctx.onTestFinished(() => reader.close());
      await writer.putAccount({ sub: 'alice', emails: ['a@example.com'], deleted: false });
      for (let round = 0; round < 20; round++) {
        // Reads in flight while the other instance writes; the read asked after the write commits sees it.
        const inFlight = Promise.all([reader.readAccount('alice', []), reader.readAccount('alice', [])]);
        const before = (await reader.readAccount('alice', [])).changeStamp(['a@example.com']);
        await writer.setExposures('a@example.com', round % 2 === 0 ? ['Adobe'] : []);
        const after = (await reader.readAccount('alice', [])).changeStamp(['a@example.com']);
        expect(after).not.toBe(before);
        await inFlight;
      }
    });
  });

  it('a failed query fails every read of its batch, and the next reads ask again', async (ctx) => {
    const url = await database(ctx);
    await withStore(url, async (store) => {
      await store.putAccount({ sub: 'alice', emails: ['a@example.com'], deleted: false });
      const queries = vi.spyOn(pg.Pool.prototype, 'query').mockRejectedValueOnce(new Error('connection lost'));
      ctx.onTestFinished(() => queries.mockRestore());
      const failed = await Promise.allSettled([store.readAccount('alice', []), store.readAccount('bob', [])]);
      expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
      queries.mockRestore();
      expect((await store.readAccount('alice', [])).account?.emails).toEqual(['a@example.com']);
    });
  });
});

describe('an unreachable PostgreSQL', () => {
  it('fails to open with a message naming host and port, never the password', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const error = (await openPostgresBreachStoreAt({ url: `postgres://breach:s3cret-pw@127.0.0.1:${port}/alerts` }).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`cannot reach the PostgreSQL database at 127.0.0.1:${port}/alerts`);
    expect(error.message).not.toContain('s3cret-pw');
    expect(error.message).not.toContain('breach:');
  });
});
