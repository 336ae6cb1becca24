// How many commits a pull makes, and with what durability: each is a write of the account
// database (and, at synchronous = FULL, an fsync). What a pull writes can all be asked for again
// (a power cut can only lose it), so it commits at synchronous = NORMAL, as few times as it can.
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogChange } from '../../../shared/api/index.ts';
import type { ListBreachesResult } from '../../../electron/core/api/BreachAlertClient.ts';
import { readChecksView, recordChecks, type ChecksAnswer } from '../../../electron/core/db/breachDataQueries.ts';
import type { WritableDB } from '../../../electron/core/db/Interface.ts';
import { listBreaches } from '../../../electron/core/db/breachQueries.ts';
import { getSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { item, memoryDatabase } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const HEADERS = { source: 'demo' as const, pending: 0 };
const LIST: ListBreachesResult = { status: 200, etag: '"v1"', items: [item({ id: 'Adobe', accounts: { [A]: [] } })], bytes: 1, breachData: HEADERS };
const CHECKS: ChecksAnswer = {
  status: 'served',
  headers: HEADERS,
  checks: {
    source: 'demo',
    attribution: null,
    addresses: [{ email: A, state: 'checked', checkedAt: '2026-01-01T00:00:00.000Z', nextCheckAt: null, breachCount: 1, viaDomainSearch: false }],
    queue: { requestsPerMinute: null, waiting: 0, nextCheckAt: null },
    stealerLogs: { available: false, entries: [] },
    problem: null,
  },
};
const CHANGES: CatalogChange[] = [];

const restore: (() => void)[] = [];
afterEach(() => restore.splice(0).forEach((undo) => undo()));

/** Records every COMMIT of `db` with the connection's `synchronous` setting at that moment (2 = FULL, 1 = NORMAL). */
function commitsOf(db: WritableDB): number[] {
  const commits: number[] = [];
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as { run: (...args: unknown[]) => unknown };
  const run = proto.run;
  proto.run = function (this: { source: string; database: unknown }, ...args: unknown[]) {
    if (this.database === db && this.source === 'COMMIT') commits.push(db.pragma('synchronous', { simple: true }) as number);
    return run.apply(this, args);
  };
  restore.push(() => (proto.run = run));
  return commits;
}

describe('the commits of a pull', () => {
  it('a pull that finds nothing new commits once, relaxed: the headers, the checks and the time of the sync together', async () => {
    const db = memoryDatabase();
    let answer: ListBreachesResult = LIST;
    const puller = new Puller({
      db,
      client: { listBreaches: async () => answer, getChecks: async () => CHECKS, catalogChanges: async () => ({ changes: CHANGES }) },
      now: () => new Date('2026-02-01T00:00:00.000Z'),
    });
    expect(await puller.pull()).toMatchObject({ status: 'applied', checks: 'recorded' });
    answer = { status: 304, etag: '"v1"', breachData: { source: 'demo', pending: 0 } };
    const commits = commitsOf(db);
    expect(await puller.pull()).toMatchObject({ status: 'unchanged', checks: 'recorded' });
    expect(commits).toEqual([1]);
    expect(getSyncState(db, 'lastSyncAt')).toBe('2026-02-01T00:00:00.000Z');
    expect(readChecksView(db)).toMatchObject({ checksServed: 'yes', source: 'demo', pending: 0 });
  });

  it('a failed check on a pull that finds nothing new still records the headers and the time, in that one commit', async () => {
    const db = memoryDatabase();
    const puller = new Puller({
      db,
      client: { listBreaches: async () => ({ status: 304, etag: '"v1"', breachData: { source: 'demo', pending: 2 } }), getChecks: () => Promise.reject(new Error('no route to host')) },
      now: () => new Date('2026-02-01T00:00:00.000Z'),
    });
    const commits = commitsOf(db);
    expect(await puller.pull()).toEqual({ status: 'unchanged', checks: 'failed', checksError: 'no route to host' });
    expect(commits).toEqual([1]);
    expect(getSyncState(db, 'lastSyncAt')).toBe('2026-02-01T00:00:00.000Z');
    expect(readChecksView(db)).toMatchObject({ source: 'demo', pending: 2, checksServed: 'unknown' });
  });

  it('a new list whose follow-ups are already in is written with them in one relaxed commit', async () => {
    const db = memoryDatabase();
    const puller = new Puller({
      db,
      client: {
        listBreaches: async (_query, options) => {
          options?.onListed?.();
          // The body takes longer to come than the follow-ups' answers.
          await new Promise((resolve) => setTimeout(resolve, 5));
          return LIST;
        },
        getChecks: async () => CHECKS,
        catalogChanges: async () => ({ changes: CHANGES }),
      },
    });
    const commits = commitsOf(db);
    expect(await puller.pull()).toMatchObject({ status: 'applied', checks: 'recorded' });
    expect(commits).toEqual([1]);
    expect(listBreaches(db).map((breach) => breach.id)).toEqual(['Adobe']);
    expect(readChecksView(db).checksServed).toBe('yes');
    expect(getSyncState(db, 'catalogChangesSeen')).toBe('0');
  });

  it('a new list whose follow-ups are still on their way is written first, and they after it, both relaxed', async () => {
    const db = memoryDatabase();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const puller = new Puller({
      db,
      client: {
        listBreaches: async () => LIST,
        getChecks: async () => {
          await held;
          return CHECKS;
        },
        catalogChanges: async () => ({ changes: CHANGES }),
      },
    });
    const commits = commitsOf(db);
    const pulled = puller.pull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(listBreaches(db).map((breach) => breach.id)).toEqual(['Adobe']);
    release();
    expect(await pulled).toMatchObject({ status: 'applied', checks: 'recorded' });
    expect(commits).toEqual([1, 1]);
  });
});

describe('the addresses a new list already holds (listed_json)', () => {
  it('are the same counted while the snapshot is written as counted from the stored table', async () => {
    const B = 'b@example.com';
    const items = [
      item({ id: 'Adobe', accounts: { [A]: [], [B]: [] } }),
      item({ id: 'Canva', accounts: { [A]: [], 'B@Example.com': [] } }),
      item({ id: 'Dropbox', accounts: { [B.toUpperCase()]: [] } }),
    ];
    const addresses = [
      { email: A, state: 'checked' as const, checkedAt: '2026-01-01T00:00:00.000Z', nextCheckAt: null, breachCount: 2, viaDomainSearch: false },
      { email: B, state: 'checked' as const, checkedAt: '2026-01-01T00:00:00.000Z', nextCheckAt: null, breachCount: 4, viaDomainSearch: false },
    ];
    const checks: ChecksAnswer = { ...CHECKS, checks: { ...(CHECKS as Extract<ChecksAnswer, { status: 'served' }>).checks, addresses } };
    for (const early of [true, false]) {
      const db = memoryDatabase();
      const puller = new Puller({
        db,
        client: {
          listBreaches: async (_query, options) => {
            if (early) options?.onListed?.();
            await new Promise((resolve) => setTimeout(resolve, early ? 5 : 0));
            return { ...LIST, items };
          },
          getChecks: async () => checks,
        },
      });
      expect(await puller.pull()).toMatchObject({ status: 'applied', checks: 'recorded' });
      const written = db.prepare('SELECT listed_json FROM breach_data').pluck().get();
      // A has its 2 breaches here; B's check found 4 and 3 are here.
      expect(written).toBe(JSON.stringify([A]));
      recordChecks(db, checks, '2026-01-02T00:00:00.000Z');
      expect(db.prepare('SELECT listed_json FROM breach_data').pluck().get()).toBe(written);
    }
  });
});
