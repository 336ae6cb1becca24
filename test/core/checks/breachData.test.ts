// What the service says about its exposures, from the core's side: the `breach-data` /
// `breach-checks-pending` headers (shared/api/checks.ts) read from real HTTP answers of
// `GET /user/breaches` (200 and 304) and `GET /user/checks`, kept per account in SQLite, demo
// exposures cleared when the source becomes real (a new baseline, nothing announced as new), a
// service that does not serve /user/checks (404) treated as unknown and never as an error, and a
// malformed checks answer leaving the sync itself intact.
//
// The service side of this contract is built beside this work (server/); here a loopback
// HTTP server answers exactly what shared/api/checks.ts says a service sends, so every
// combination (including the odd ones another party's service may send) is reachable.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BreachDataHeaders, type UserChecks } from '../../../shared/api/index.ts';
import { readBreachDataHeaders } from '../../../electron/core/api/breachDataHeaders.ts';
import { ChecksPublisher, FOLLOW_UP_MIN_MS } from '../../../electron/core/checks/ChecksPublisher.ts';
import { listPending, readChecksView } from '../../../electron/core/db/breachDataQueries.ts';
import { listBreaches } from '../../../electron/core/db/breachQueries.ts';
import { getSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import type { ServerUserBreach } from '../../../electron/core/api/serverBreaches.ts';
import { FakeTimers } from '../helpers/fakeTimers.ts';
import { item } from '../helpers/fixtures.ts';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

interface Answer {
  breaches: ServerUserBreach[];
  headers: Record<string, string>;
  etag: string;
  checks: { status: number; body: unknown; headers?: Record<string, string> };
}

let server: Server;
let origin: string;
let answer: Answer;
const seen: string[] = [];

function checksBody(overrides: Partial<UserChecks> = {}): UserChecks {
  return {
    source: 'hibp',
    attribution: 'Have I Been Pwned',
    addresses: [
      { email: ALICE, state: 'checked', checkedAt: '2026-11-26T09:00:00Z', nextCheckAt: null, breachCount: 1, viaDomainSearch: false },
      { email: BOB, state: 'pending', checkedAt: null, nextCheckAt: '2026-11-26T09:03:00Z', breachCount: null, viaDomainSearch: false },
    ],
    queue: { requestsPerMinute: 10, waiting: 1, nextCheckAt: '2026-11-26T09:03:00Z' },
    stealerLogs: { available: true, entries: [{ email: ALICE, domains: ['netflix.com', 'spotify.com'], checkedAt: '2026-11-26T09:00:00Z' }] },
    problem: null,
    ...overrides,
  };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (request.headers.authorization !== 'Bearer test-token') {
      response.writeHead(401).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/api/v1/user/breaches') {
      if (request.headers['if-none-match'] === answer.etag) {
        response.writeHead(304, { etag: answer.etag, ...answer.headers }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json', etag: answer.etag, ...answer.headers }).end(JSON.stringify(answer.breaches));
      return;
    }
    if (url.pathname === '/api/v1/user/checks') {
      const { status, body, headers } = answer.checks;
      response.writeHead(status, { 'content-type': 'application/json', ...answer.headers, ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const open: AccountSync[] = [];
afterEach(async () => {
  for (const sync of open.splice(0)) await sync.close();
  seen.length = 0;
});

function accountSync(): AccountSync {
  const sync = openAccountSync({
    file: ':memory:',
    apiBaseUrl: `${origin}/api/v1`,
    tokens: { getAccessToken: async () => 'test-token', refreshAfterUnauthorized: async () => 'test-token' },
    pushDelayMs: -1,
  });
  open.push(sync);
  return sync;
}

const demoBreaches = [item({ id: 'InventedOne', accounts: { [ALICE]: [] } }), item({ id: 'InventedTwo', accounts: { [ALICE]: [], [BOB]: [] } })];
const realBreaches = [item({ id: 'Adobe', accounts: { [ALICE]: [] } })];

describe('breach-data headers', () => {
  it('reads the three sources in any case and surrounding space; anything else is "not said"', () => {
    const read = (source: string | null, pending: string | null) =>
      readBreachDataHeaders(new Headers({ ...(source !== null ? { [BreachDataHeaders.source]: source } : {}), ...(pending !== null ? { [BreachDataHeaders.pending]: pending } : {}) }));
    expect(read('hibp', '0')).toEqual({ source: 'hibp', pending: 0 });
    expect(read(' Demo ', '12')).toEqual({ source: 'demo', pending: 12 });
    expect(read('NONE', null)).toEqual({ source: 'none', pending: undefined });
    expect(read(null, null)).toEqual({ source: undefined, pending: undefined });
    for (const bad of ['real', 'hibp,demo', '', 'h1bp']) expect(read(bad, null).source, bad).toBeUndefined();
    for (const bad of ['-1', '1.5', '1e3', 'two', '', '0x10', '12345678901']) expect(read(null, bad).pending, bad).toBeUndefined();
  });

  it('any non-negative count below a billion round-trips; any other text is not taken', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999 }), (n) => readBreachDataHeaders(new Headers({ [BreachDataHeaders.pending]: String(n) })).pending === n));
    fc.assert(
      fc.property(
        fc.string().filter((text) => !/^\s*\d{1,9}\s*$/.test(text)),
        (text) => {
          let headers: Headers;
          try {
            headers = new Headers({ [BreachDataHeaders.pending]: text });
          } catch {
            return true; // not a valid HTTP field value: no service can send it
          }
          return readBreachDataHeaders(headers).pending === undefined;
        },
      ),
    );
  });
});

describe('sync keeps what the service says, per account', () => {
  it('demo, then real: the invented breaches are removed first, the real snapshot is a new baseline, and the app says so', async () => {
    const sync = accountSync();
    answer = { breaches: demoBreaches, headers: { [BreachDataHeaders.source]: 'demo', [BreachDataHeaders.pending]: '0' }, etag: '"demo-1"', checks: { status: 404, body: '' } };
    const first = await sync.scheduler.syncNow('manual');
    expect(first.status).toBe('ok');
    expect(readChecksView(sync.database.db)).toMatchObject({ source: 'demo', pending: 0, checks: null, checksServed: 'no', demoClearedAt: null });
    expect(
      listBreaches(sync.database.db)
        .map((b) => b.id)
        .sort(),
    ).toEqual(['InventedOne', 'InventedTwo']);

    answer = { breaches: realBreaches, headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '1' }, etag: '"real-1"', checks: { status: 200, body: checksBody() } };
    const second = await sync.scheduler.syncNow('manual');
    expect(second.status).toBe('ok');
    expect(second.pull).toMatchObject({ status: 'applied', demoCleared: 2, checks: 'recorded' });
    // A new baseline: the real breach is not announced as "new" (it was not found since the last look; nobody had looked).
    expect(second.diff).toMatchObject({ baseline: true, newBreaches: [] });
    expect(listBreaches(sync.database.db).map((b) => b.id)).toEqual(['Adobe']);
    const view = readChecksView(sync.database.db);
    expect(view).toMatchObject({ source: 'hibp', pending: 1, checksServed: 'yes' });
    expect(view.demoClearedAt).not.toBeNull();
    expect(view.checks?.stealerLogs.entries[0]?.domains).toEqual(['netflix.com', 'spotify.com']);
  });

  it('a 304 still carries the headers: the pending count moves without a new snapshot', async () => {
    const sync = accountSync();
    answer = { breaches: realBreaches, headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '2' }, etag: '"r"', checks: { status: 200, body: checksBody() } };
    await sync.scheduler.syncNow('manual');
    expect(readChecksView(sync.database.db).pending).toBe(2);
    answer = { ...answer, headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '0' } };
    const report = await sync.scheduler.syncNow('manual');
    expect(report.pull?.status).toBe('unchanged');
    expect(seen.filter((line) => line.startsWith('GET /api/v1/user/breaches'))).toHaveLength(2);
    // The checks answer's own header wins over its body's pending list for the count.
    expect(readChecksView(sync.database.db).pending).toBe(0);
  });

  it('a service that does not serve /user/checks (404) is "unknown": no error, no invented state', async () => {
    const sync = accountSync();
    answer = { breaches: realBreaches, headers: {}, etag: '"x"', checks: { status: 404, body: { title: 'Not Found' } } };
    const report = await sync.scheduler.syncNow('manual');
    expect(report.status).toBe('ok');
    expect(report.pull).toMatchObject({ checks: 'not-served' });
    expect(readChecksView(sync.database.db)).toMatchObject({ source: 'unknown', pending: null, checks: null, checksServed: 'no' });
  });

  it('a malformed checks answer keeps what was known and does not fail the sync', async () => {
    const sync = accountSync();
    answer = { breaches: realBreaches, headers: { [BreachDataHeaders.source]: 'hibp' }, etag: '"y"', checks: { status: 200, body: checksBody() } };
    await sync.scheduler.syncNow('manual');
    answer = { ...answer, etag: '"y2"', checks: { status: 200, body: { ...checksBody(), addresses: [{ email: 'not an email' }] } } };
    const report = await sync.scheduler.syncNow('manual');
    expect(report.status).toBe('ok');
    expect(report.pull).toMatchObject({ status: 'applied', checks: 'failed', checksError: expect.stringContaining('/addresses/0') });
    expect(readChecksView(sync.database.db).checks?.addresses).toHaveLength(2);
    answer = { ...answer, etag: '"y3"', checks: { status: 200, body: 'not json' } };
    expect((await sync.scheduler.syncNow('manual')).pull).toMatchObject({ checks: 'failed', checksError: expect.stringContaining('not JSON') });
  });

  it('a problem the service reports is kept with its sentence; a server failure of the checks is not one of the breaches', async () => {
    const sync = accountSync();
    const problem = { code: 'key-refused' as const, detail: 'Have I Been Pwned refused the API key (401); check --hibp-api-key.' };
    answer = { breaches: [], headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '2' }, etag: '"p"', checks: { status: 200, body: checksBody({ problem }) } };
    await sync.scheduler.syncNow('manual');
    expect(readChecksView(sync.database.db).checks?.problem).toEqual(problem);
    answer = { ...answer, etag: '"p2"', checks: { status: 503, body: { title: 'Unavailable' } } };
    const report = await sync.scheduler.syncNow('manual');
    expect(report.status).toBe('ok');
    expect(report.pull).toMatchObject({ checks: 'failed' });
    expect(readChecksView(sync.database.db).checks?.problem).toEqual(problem);
  });

  it('a breach found by an address’s first check is not announced as new; one found for an address checked before is', async () => {
    const sync = accountSync();
    const pendingAlice = checksBody({
      addresses: [
        { email: ALICE, state: 'pending', checkedAt: null, nextCheckAt: '2026-11-26T09:03:00Z', breachCount: null, viaDomainSearch: false },
        { email: BOB, state: 'checked', checkedAt: '2026-11-26T09:00:00Z', nextCheckAt: null, breachCount: 0, viaDomainSearch: false },
      ],
    });
    answer = { breaches: [], headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '1' }, etag: '"f1"', checks: { status: 200, body: pendingAlice } };
    await sync.scheduler.syncNow('manual');
    answer = {
      breaches: [item({ id: 'FoundForAlice', accounts: { [ALICE]: [] } }), item({ id: 'NewForBob', accounts: { [BOB]: [] } }), item({ id: 'Both', accounts: { [ALICE]: [], [BOB]: [] } })],
      headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '0' },
      etag: '"f2"',
      checks: { status: 200, body: checksBody({ addresses: pendingAlice.addresses.map((address) => ({ ...address, state: 'checked', checkedAt: '2026-11-26T09:04:00Z', nextCheckAt: null })) }) },
    };
    const report = await sync.scheduler.syncNow('manual');
    expect(report.diff?.baseline).toBe(false);
    expect(report.diff?.newBreaches.map((breach) => breach.id).sort()).toEqual(['Both', 'NewForBob']);
  });

  it('an address checked between the service’s list and its checks answer: what its check found is still not news; what comes after is', async () => {
    const sync = accountSync();
    const aliceChecked = (breachCount: number) =>
      checksBody({ addresses: [{ email: ALICE, state: 'checked', checkedAt: '2026-11-26T09:00:01Z', nextCheckAt: null, breachCount, viaDomainSearch: false }] });
    // The list was taken while ALICE was pending; the checks, a moment later, say she was checked, in one breach.
    answer = { breaches: [], headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '1' }, etag: '"r1"', checks: { status: 200, body: aliceChecked(1) } };
    await sync.scheduler.syncNow('manual');
    answer = {
      breaches: [item({ id: 'FoundByTheCheck', accounts: { [ALICE]: [] } })],
      headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '0' },
      etag: '"r2"',
      checks: { status: 200, body: aliceChecked(1) },
    };
    expect((await sync.scheduler.syncNow('manual')).diff?.newBreaches).toEqual([]);
    // Her list now holds what her check found: a breach after that is news.
    answer = {
      breaches: [item({ id: 'FoundByTheCheck', accounts: { [ALICE]: [] } }), item({ id: 'RealNews', accounts: { [ALICE]: [] } })],
      headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '0' },
      etag: '"r3"',
      checks: { status: 200, body: aliceChecked(2) },
    };
    expect((await sync.scheduler.syncNow('manual')).diff?.newBreaches.map((breach) => breach.id)).toEqual(['RealNews']);
  });

  it('an address checked between the service’s list and its checks answer: the app looks again soon by itself, and the list catches up', async () => {
    const sync = accountSync();
    const { db } = sync.database;
    const aliceChecked = checksBody({
      addresses: [{ email: ALICE, state: 'checked', checkedAt: '2026-11-26T09:00:01Z', nextCheckAt: '2026-12-03T09:00:01Z', breachCount: 1, viaDomainSearch: false }],
    });
    aliceChecked.queue = { requestsPerMinute: 10, waiting: 0, nextCheckAt: '2026-12-03T09:00:01Z' };
    // The list was taken while ALICE was pending (left out of it); her check landed before the checks were read.
    answer = {
      breaches: [],
      headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '1' },
      etag: '"c1"',
      checks: { status: 200, body: aliceChecked, headers: { [BreachDataHeaders.pending]: '0' } },
    };
    await sync.scheduler.syncNow('manual');
    expect(readChecksView(db).pending).toBe(0);
    expect(listPending(db)).toBe(1);

    const timers = new FakeTimers(Date.parse('2026-11-26T09:00:02Z'));
    const publisher = new ChecksPublisher({
      read: () => readChecksView(db),
      listPending: () => listPending(db),
      emit: () => {},
      syncSoon: () => void sync.scheduler.syncNow('interval').then(() => publisher.publish()),
      timers,
      now: () => timers.now,
    });
    publisher.publish();
    // Nothing is pending any more, but the list is behind what the checks say: look again soon.
    expect(timers.armed).toEqual([FOLLOW_UP_MIN_MS]);

    answer = {
      breaches: [item({ id: 'FoundByTheCheck', accounts: { [ALICE]: [] } })],
      headers: { [BreachDataHeaders.source]: 'hibp', [BreachDataHeaders.pending]: '0' },
      etag: '"c2"',
      checks: { status: 200, body: aliceChecked },
    };
    await timers.advance(FOLLOW_UP_MIN_MS);
    await vi.waitFor(() => expect(listBreaches(db).map((breach) => breach.id)).toEqual(['FoundByTheCheck']));
    await vi.waitFor(() => expect(listPending(db)).toBe(0));
    // Caught up: no more follow-ups (the interval does the rest).
    expect(timers.armed).toEqual([]);
    publisher.stop();
  });

  it('the source alone moving (hibp → none) starts a new baseline but removes nothing', async () => {
    const sync = accountSync();
    answer = { breaches: realBreaches, headers: { [BreachDataHeaders.source]: 'hibp' }, etag: '"a"', checks: { status: 404, body: '' } };
    await sync.scheduler.syncNow('manual');
    answer = { ...answer, headers: { [BreachDataHeaders.source]: 'none' } };
    const report = await sync.scheduler.syncNow('manual');
    expect(report.pull).toMatchObject({ status: 'unchanged' });
    expect(report.pull).not.toHaveProperty('demoCleared');
    expect(getSyncState(sync.database.db, 'baselineAt')).toBeUndefined();
    expect(listBreaches(sync.database.db).map((b) => b.id)).toEqual(['Adobe']);
    expect(readChecksView(sync.database.db).source).toBe('none');
  });
});
