// What follows a new list (GET /user/checks, GET /user/catalog-changes): asked for once the
// list's headers are in, so their round trips overlap reading and writing the list; recorded
// after the snapshot; cancelled and dropped when the list is not applied; a cancelled sync keeps
// the snapshot it already wrote, as when the follow-ups were asked for one after the other.
import { describe, expect, it } from 'vitest';
import { NO_CATALOG_CHANGES_VERSION, type CatalogChange } from '../../../shared/api/index.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import type { CatalogChangesAnswer, ListBreachesResult } from '../../../electron/core/api/BreachAlertClient.ts';
import { addressesCheckedBefore, readChecksView, type ChecksAnswer } from '../../../electron/core/db/breachDataQueries.ts';
import { listBreaches } from '../../../electron/core/db/breachQueries.ts';
import { getSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { catalogNoticeOf } from '../../../electron/core/sync/catalogChanges.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { item, memoryDatabase } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const LIST: ListBreachesResult = { status: 200, etag: '"v1"', items: [item({ id: 'Adobe', accounts: { [A]: [] } })], bytes: 1 };
const CHANGE: CatalogChange = {
  id: 3,
  at: '2026-03-01T12:00:00.000Z',
  email: A,
  from: 'demo',
  to: 'file',
  removedFromCatalog: ['Gone'],
  inventedRemoved: [],
  resolutionsKept: 0,
  resolutionsRemoved: 0,
};

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A follow-up that answers when told to, and remembers the signal it was given. */
function held<T>() {
  const answer = deferred<T>();
  const calls: AbortSignal[] = [];
  return {
    calls,
    answer,
    call: (signal?: AbortSignal) => {
      calls.push(signal!);
      return new Promise<T>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        void answer.promise.then(resolve);
      });
    },
  };
}

describe('the follow-ups of a new list', () => {
  it('are asked for once the headers are in, before the body is read, and recorded after the snapshot', async () => {
    const db = memoryDatabase();
    const body = deferred<void>();
    const checks = held<ChecksAnswer>();
    const changes = held<CatalogChangesAnswer | undefined>();
    const puller = new Puller({
      db,
      client: {
        listBreaches: async (_query, options) => {
          options?.onListed?.();
          await body.promise;
          return LIST;
        },
        getChecks: checks.call,
        catalogChanges: changes.call,
      },
    });
    const pulled = puller.pull();
    await Promise.resolve();
    expect([checks.calls.length, changes.calls.length]).toEqual([1, 1]);
    body.resolve();
    checks.answer.resolve({ status: 'not-served' });
    changes.answer.resolve({ changes: [CHANGE] });
    expect(await pulled).toMatchObject({ status: 'applied', checks: 'not-served' });
    expect(listBreaches(db).map((breach) => breach.id)).toEqual(['Adobe']);
    expect(readChecksView(db).checksServed).toBe('no');
    // The first sync takes the changes it finds as seen.
    expect(getSyncState(db, 'catalogChangesSeen')).toBe('3');
    expect(catalogNoticeOf(db)).toBeUndefined();
  });

  it('are given a turn of the event loop to get on the wire before the snapshot is written', async () => {
    // fetch writes a request in a later turn than the one it was called in; the snapshot's write
    // is synchronous (milliseconds for a heavy user), so without the turn the service would only
    // see the follow-ups once the write is done.
    const db = memoryDatabase();
    const storedWhenSent: number[] = [];
    const puller = new Puller({
      db,
      client: {
        listBreaches: async (_query, options) => {
          options?.onListed?.();
          return LIST;
        },
        getChecks: () => new Promise((resolve) => setImmediate(() => (storedWhenSent.push(listBreaches(db).length), resolve({ status: 'not-served' })))),
        catalogChanges: () => new Promise((resolve) => setImmediate(() => (storedWhenSent.push(listBreaches(db).length), resolve({ changes: [CHANGE] })))),
      },
    });
    expect(await puller.pull()).toMatchObject({ status: 'applied', checks: 'not-served' });
    expect(storedWhenSent).toEqual([0, 0]);
    expect(listBreaches(db).map((breach) => breach.id)).toEqual(['Adobe']);
  });

  it('a sync cancelled in that turn writes nothing and cancels them', async () => {
    const db = memoryDatabase();
    const controller = new AbortController();
    const checks = held<ChecksAnswer>();
    const changes = held<CatalogChangesAnswer | undefined>();
    const puller = new Puller({
      db,
      client: {
        listBreaches: async (_query, options) => {
          options?.onListed?.();
          setImmediate(() => controller.abort(new DOMException('sync cancelled', 'AbortError')));
          return LIST;
        },
        getChecks: checks.call,
        catalogChanges: changes.call,
      },
    });
    await expect(puller.pull({ signal: controller.signal })).rejects.toThrow('sync cancelled');
    expect(checks.calls[0]!.aborted).toBe(true);
    expect(changes.calls[0]!.aborted).toBe(true);
    expect(listBreaches(db)).toEqual([]);
    expect(getSyncState(db, 'etag')).toBeUndefined();
  });

  it('are cancelled and dropped when the list turns out stale, or fails after its headers', async () => {
    for (const ending of ['stale', 'protocol'] as const) {
      const db = memoryDatabase();
      const checks = held<ChecksAnswer>();
      const changes = held<CatalogChangesAnswer | undefined>();
      const puller = new Puller({
        db,
        client: {
          listBreaches: async (_query, options) => {
            options?.onListed?.();
            if (ending === 'protocol') throw new ApiError('protocol', 'the service sent breaches in an unexpected shape at /0: bad', { status: 200 });
            return LIST;
          },
          getChecks: checks.call,
          catalogChanges: changes.call,
        },
      });
      const pulled = puller.pull({ isStale: () => true });
      if (ending === 'stale') expect(await pulled).toEqual({ status: 'stale' });
      else await expect(pulled).rejects.toThrow('unexpected shape');
      expect(checks.calls[0]!.aborted).toBe(true);
      expect(changes.calls[0]!.aborted).toBe(true);
      expect(listBreaches(db)).toEqual([]);
      expect(readChecksView(db).checksServed).toBe('unknown');
    }
  });

  it('a sync cancelled while they are on their way keeps the snapshot and records neither', async () => {
    const db = memoryDatabase();
    const controller = new AbortController();
    const checks = held<ChecksAnswer>();
    const changes = held<CatalogChangesAnswer | undefined>();
    const puller = new Puller({ db, client: { listBreaches: async () => LIST, getChecks: checks.call, catalogChanges: changes.call } });
    const pulled = puller.pull({ signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new DOMException('sync cancelled', 'AbortError'));
    await expect(pulled).rejects.toThrow('sync cancelled');
    expect(listBreaches(db).map((breach) => breach.id)).toEqual(['Adobe']);
    expect(readChecksView(db).checksServed).toBe('unknown');
    expect(getSyncState(db, 'catalogChangesSeen')).toBeUndefined();
  });

  it('a failed check is reported and the catalog changes are still recorded', async () => {
    const db = memoryDatabase();
    const puller = new Puller({
      db,
      client: {
        listBreaches: async () => LIST,
        getChecks: () => Promise.reject(new ApiError('network', 'could not reach the service')),
        catalogChanges: async () => ({ changes: [CHANGE] }),
      },
    });
    expect(await puller.pull()).toMatchObject({ status: 'applied', checks: 'failed', checksError: 'could not reach the service' });
    expect(getSyncState(db, 'catalogChangesSeen')).toBe('3');
  });
});

describe("the follow-ups' versions", () => {
  const checksOf = (state: 'pending' | 'checked', version: string | undefined): ChecksAnswer => ({
    status: 'served',
    headers: { source: 'hibp', pending: state === 'pending' ? 1 : 0, checksVersion: version },
    checks: {
      source: 'hibp',
      attribution: null,
      addresses: [{ email: A, state, checkedAt: state === 'checked' ? '2026-01-01T00:00:00.000Z' : null, nextCheckAt: null, breachCount: state === 'checked' ? 1 : null, viaDomainSearch: false }],
      queue: { requestsPerMinute: 10, waiting: 0, nextCheckAt: null },
      stealerLogs: { available: false, entries: [] },
      problem: null,
    },
  });
  const headers = (checksVersion: string | undefined, catalogChangesVersion: string | undefined) => ({ source: 'hibp' as const, pending: 0, checksVersion, catalogChangesVersion });

  /** A client whose list says `listed` and whose follow-ups answer what `answers` holds at the time; counts what was asked. */
  function client(answers: { list: ListBreachesResult; checks: ChecksAnswer; changes: CatalogChangesAnswer }) {
    const asked = { checks: 0, changes: 0 };
    return {
      asked,
      client: {
        listBreaches: async () => answers.list,
        getChecks: async () => (asked.checks++, answers.checks),
        catalogChanges: async () => (asked.changes++, answers.changes),
      },
    };
  }

  it('asks neither when the list names the versions recorded, and each again once its version moves or its answer was lost', async () => {
    const db = memoryDatabase();
    const answers = { list: { ...LIST, breachData: headers('c1', 'k1') } as ListBreachesResult, checks: checksOf('checked', 'c1'), changes: { changes: [], version: 'k1' } as CatalogChangesAnswer };
    const { asked, client: fake } = client(answers);
    const puller = new Puller({ db, client: fake });
    await puller.pull();
    expect(asked).toEqual({ checks: 1, changes: 1 });
    expect([getSyncState(db, 'checksVersion'), getSyncState(db, 'catalogChangesVersion')]).toEqual(['c1', 'k1']);

    answers.list = { status: 304, etag: '"v1"', breachData: headers('c1', 'k1') };
    expect(await puller.pull()).toEqual({ status: 'unchanged' });
    expect(asked).toEqual({ checks: 1, changes: 1 });

    // The catalog changes moved under a 304: asked; the checks did not: not asked.
    answers.list = { status: 304, etag: '"v1"', breachData: headers('c1', 'k2') };
    answers.changes = { changes: [CHANGE], version: 'k2' };
    await puller.pull();
    expect(asked).toEqual({ checks: 1, changes: 2 });
    expect(catalogNoticeOf(db)?.upTo).toBe(3);

    // A checks answer without its version (or lost) is asked again next time.
    answers.list = { status: 304, etag: '"v1"', breachData: headers('c2', 'k2') };
    answers.checks = checksOf('checked', undefined);
    await puller.pull();
    await puller.pull();
    expect(asked).toEqual({ checks: 3, changes: 2 });
  });

  it('records the documented version of no catalog changes without asking, and asks once it moves; changes recorded before are then cleared as the answer would', async () => {
    const db = memoryDatabase();
    const answers = {
      list: { ...LIST, breachData: headers('c1', NO_CATALOG_CHANGES_VERSION) } as ListBreachesResult,
      checks: checksOf('checked', 'c1'),
      changes: { changes: [CHANGE], version: 'k1' },
    };
    const { asked, client: fake } = client(answers);
    const puller = new Puller({ db, client: fake });
    await puller.pull();
    expect(asked).toEqual({ checks: 1, changes: 0 });
    expect(getSyncState(db, 'catalogChangesVersion')).toBe(NO_CATALOG_CHANGES_VERSION);

    // A change: its version moves, and the answer is asked within one sync.
    answers.list = { status: 304, etag: '"v1"', breachData: headers('c1', 'k1') };
    await puller.pull();
    expect(asked).toEqual({ checks: 1, changes: 1 });
    expect(catalogNoticeOf(db)?.upTo).toBe(3);

    // None again (the address went, and its changes with it): recorded as the empty answer would be, unasked.
    answers.list = { status: 304, etag: '"v1"', breachData: headers('c1', NO_CATALOG_CHANGES_VERSION) };
    await puller.pull();
    expect(asked).toEqual({ checks: 1, changes: 1 });
    expect(catalogNoticeOf(db)).toBeUndefined();
    expect(getSyncState(db, 'catalogChangesVersion')).toBe(NO_CATALOG_CHANGES_VERSION);
  });

  it('asks the checks while they wait on a lookup, whatever their version: their estimates move with time', async () => {
    const db = memoryDatabase();
    const answers = { list: { ...LIST, breachData: headers('c1', 'k1') } as ListBreachesResult, checks: checksOf('pending', 'c1'), changes: { changes: [], version: 'k1' } };
    const { asked, client: fake } = client(answers);
    const puller = new Puller({ db, client: fake });
    await puller.pull();
    answers.list = { status: 304, etag: '"v1"', breachData: headers('c1', 'k1') };
    await puller.pull();
    expect(asked).toEqual({ checks: 2, changes: 1 });
  });

  it('reads checks it did not ask again against a new list: an address checked before the list held its breaches is then known', async () => {
    const db = memoryDatabase();
    // The list does not hold A's breach yet; the checks already say A was checked and is in one.
    const answers = {
      list: { status: 200, etag: '"v0"', items: [], bytes: 1, breachData: headers('c1', 'k1') } as ListBreachesResult,
      checks: checksOf('checked', 'c1'),
      changes: { changes: [], version: 'k1' },
    };
    const { asked, client: fake } = client(answers);
    const puller = new Puller({ db, client: fake });
    await puller.pull();
    expect(addressesCheckedBefore(db)?.has(A)).toBe(false);
    answers.list = { ...LIST, breachData: headers('c1', 'k1') };
    expect(await puller.pull()).toMatchObject({ status: 'applied' });
    expect(asked).toEqual({ checks: 1, changes: 1 });
    expect(addressesCheckedBefore(db)?.has(A)).toBe(true);
  });
});
