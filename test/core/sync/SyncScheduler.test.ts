import { afterEach, describe, expect, it } from 'vitest';
import type { ResolutionItem } from '../../../shared/api/index.ts';
import type { WritableDB } from '../../../electron/core/db/Interface.ts';
import { getSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import { BackoffState } from '../../../electron/core/api/backoff.ts';
import { Outbox } from '../../../electron/core/outbox/Outbox.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { SyncScheduler, type SyncProgress, type SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';
import { catalogBreach, ContractServer } from '../helpers/contractServer.ts';
import { FakeTimers, settle } from '../helpers/fakeTimers.ts';
import { FROZEN_NOW, memoryDatabase } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const MINUTE = 60_000;

interface Harness {
  db: WritableDB;
  server: ContractServer;
  timers: FakeTimers;
  outbox: Outbox;
  scheduler: SyncScheduler;
  /** Every network call, in order. */
  calls: string[];
  /** Holds the next POST until released. */
  gate(): () => void;
}

const running: Harness[] = [];
afterEach(async () => {
  for (const h of running.splice(0)) {
    await h.scheduler.stop();
    h.server.close();
  }
});

function harness(options: { pushDelayMs?: number } = {}): Harness {
  const server = new ContractServer([catalogBreach('One'), catalogBreach('Two')], { [A]: ['One', 'Two'] });
  const db = memoryDatabase();
  const timers = new FakeTimers(FROZEN_NOW.getTime());
  const calls: string[] = [];
  let gate: Promise<void> | undefined;
  const sender = {
    async postResolutions(items: readonly ResolutionItem[], signal?: AbortSignal) {
      calls.push('POST');
      if (gate)
        await new Promise<void>((resolve, reject) => {
          void gate!.then(resolve);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      await server.postResolutions(items, signal);
    },
  };
  const client = {
    listBreaches: (query: unknown, options?: { etag?: string | undefined }) => {
      calls.push('GET');
      return server.listBreaches(query, options);
    },
  };
  const outbox = new Outbox({ db, sender, now: () => timers.now, random: () => 0.5 });
  const puller = new Puller({ db, client, now: () => new Date(timers.now) });
  const scheduler = new SyncScheduler({ db, outbox, puller, timers, now: () => timers.now, random: () => 0.5, pushDelayMs: options.pushDelayMs ?? -1 });
  const h: Harness = {
    db,
    server,
    timers,
    outbox,
    scheduler,
    calls,
    gate() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
  running.push(h);
  return h;
}

describe('SyncScheduler', () => {
  it('syncs at start, then every 30 minutes by default, or as configured', async () => {
    const { scheduler, timers, calls, db } = harness();
    const first = await scheduler.start();
    expect(first).toMatchObject({ trigger: 'start', status: 'ok', diff: { baseline: true } });
    expect(getSyncState(db, 'lastSyncAt')).toBe(FROZEN_NOW.toISOString());
    expect(timers.armed).toEqual([30 * MINUTE]);
    await timers.advance(30 * MINUTE);
    expect(scheduler.lastReport).toMatchObject({ trigger: 'interval', status: 'ok', pull: { status: 'unchanged' } });
    scheduler.setIntervalMinutes(5);
    expect(scheduler.intervalMinutes).toBe(5);
    expect(timers.armed).toEqual([5 * MINUTE]);
    expect(() => scheduler.setIntervalMinutes(0)).toThrow();
    await timers.advance(5 * MINUTE);
    expect(calls).toEqual(['GET', 'GET', 'GET']);
  });

  it('pushes before it pulls, and announces what the pull found', async () => {
    const { scheduler, server, outbox, calls } = harness();
    await scheduler.syncNow();
    outbox.record([{ breachId: 'One', resolved: true }]);
    server.store.putBreach(catalogBreach('Three'));
    server.store.setExposures(A, ['One', 'Two', 'Three']);
    const announced: SyncReport[] = [];
    scheduler.onDidSync((report) => announced.push(report));
    const report = await scheduler.syncNow();
    expect(calls).toEqual(['GET', 'POST', 'GET']);
    expect(report.push).toMatchObject({ status: 'done', delivered: 3 });
    expect(report.diff).toMatchObject({ baseline: false, newBreaches: [{ id: 'Three' }], modifiedBreaches: [], goneBreaches: [] });
    expect(announced).toEqual([report]);
  });

  it('runs one sync at a time; triggers during a run coalesce into one follow-up that sees later changes', async () => {
    const { scheduler, outbox, calls, gate, server } = harness();
    await scheduler.syncNow();
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    const release = gate();
    const first = scheduler.syncNow();
    await settle();
    outbox.record([{ breachId: 'Two', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    const second = scheduler.syncNow('manual');
    const third = scheduler.syncNow('online');
    expect(second).toBe(third);
    release();
    const [a, b] = await Promise.all([first, second]);
    // The running flush picks up the toggle in its next pass; the follow-up still pulls afterwards.
    expect(a.push).toMatchObject({ delivered: 2, requests: 2 });
    expect(b).toMatchObject({ trigger: 'manual', status: 'ok', push: { delivered: 0 } });
    expect(calls).toEqual(['GET', 'POST', 'POST', 'GET', 'GET']);
    expect(server.resolvedKeys()).toEqual(new Set(['One|a@example.com|passwords', 'Two|a@example.com|passwords']));
  });

  it('pushes shortly after a toggle, without a pull', async () => {
    const { scheduler, outbox, timers, calls, server } = harness({ pushDelayMs: 2000 });
    await scheduler.syncNow();
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Usernames'], resolved: true }]);
    await timers.advance(1999);
    expect(calls).toEqual(['GET']);
    await timers.advance(1);
    expect(calls).toEqual(['GET', 'POST']);
    expect(scheduler.lastReport).toMatchObject({ trigger: 'push', status: 'ok', pull: undefined });
    expect(server.resolvedKeys().size).toBe(2);
  });

  it('backs off after a failing push and retries by itself; back online cuts a network wait short', async () => {
    const { scheduler, outbox, timers, server } = harness();
    await scheduler.syncNow();
    outbox.record([{ breachId: 'One', resolved: true }]);
    server.faults.push('server-error');
    const failed = await scheduler.syncNow();
    expect(failed).toMatchObject({ status: 'backoff', retryAt: timers.now + 500, pull: undefined });
    expect(scheduler.state).toBe('backoff');
    await timers.advance(500);
    expect(scheduler.lastReport).toMatchObject({ trigger: 'retry', status: 'ok', push: { delivered: 3 } });

    outbox.record([{ breachId: 'Two', resolved: true }]);
    server.faults.push('drop-before');
    expect(await scheduler.syncNow()).toMatchObject({ status: 'backoff' });
    scheduler.notifyOnline();
    await settle();
    expect(scheduler.lastReport).toMatchObject({ trigger: 'online', status: 'ok', push: { delivered: 3 } });
    scheduler.notifyResume();
    await settle();
    expect(scheduler.lastReport).toMatchObject({ trigger: 'resume', status: 'ok' });
  });

  it('shares one wait between pull and push: a service that failed the pull gets no push until it is over', async () => {
    const server = new ContractServer([catalogBreach('One')], { [A]: ['One'] });
    const db = memoryDatabase();
    const timers = new FakeTimers(FROZEN_NOW.getTime());
    const calls: string[] = [];
    let failGets = 0;
    const backoffState = new BackoffState({ random: () => 0.5, now: () => timers.now });
    const outbox = new Outbox({ db, sender: { postResolutions: (items, signal) => (calls.push('POST'), server.postResolutions(items, signal)) }, now: () => timers.now, backoffState });
    const client = {
      listBreaches: (query: unknown, options?: { etag?: string | undefined }) => {
        calls.push('GET');
        if (failGets-- > 0) return Promise.reject(new ApiError('server', 'busy', { status: 503, retryAfterMs: 60_000 }));
        return server.listBreaches(query, options);
      },
    };
    const puller = new Puller({ db, client, now: () => new Date(timers.now) });
    const scheduler = new SyncScheduler({ db, outbox, puller, timers, now: () => timers.now, backoffState, pushDelayMs: -1 });
    running.push({ db, server, timers, outbox, scheduler, calls, gate: () => () => {} });
    await scheduler.syncNow();
    failGets = 1;
    expect(await scheduler.syncNow()).toMatchObject({ status: 'backoff', errorKind: 'server', retryAt: timers.now + 60_000 });
    outbox.record([{ breachId: 'One', resolved: true }]);
    expect(await scheduler.syncNow('push')).toMatchObject({ status: 'backoff', errorKind: 'server', push: { status: 'backoff', requests: 0 } });
    expect(calls).toEqual(['GET', 'GET']);
    await timers.advance(60_000);
    expect(scheduler.lastReport).toMatchObject({ trigger: 'retry', status: 'ok', push: { status: 'done', requests: 1 } });
    expect(calls).toEqual(['GET', 'GET', 'POST', 'GET']);
  });

  it('stops at sign-in-needed with everything kept', async () => {
    const { scheduler, outbox, server } = harness();
    await scheduler.syncNow();
    outbox.record([{ breachId: 'One', resolved: true }]);
    server.faults.push('forbidden');
    expect(await scheduler.syncNow()).toMatchObject({ status: 'sign-in-needed', pull: undefined });
    expect(scheduler.state).toBe('sign-in-needed');
    expect(outbox.summary()).toEqual({ pending: 3, sending: 0, failed: 0 });
  });

  it('can be cancelled mid-push: nothing is lost, the rows go out next time', async () => {
    const { scheduler, outbox, gate, server } = harness();
    await scheduler.syncNow();
    outbox.record([{ breachId: 'One', resolved: true }]);
    const release = gate();
    const run = scheduler.syncNow();
    const queued = scheduler.syncNow();
    await settle();
    scheduler.cancel();
    expect(await run).toMatchObject({ status: 'cancelled' });
    expect(await queued).toMatchObject({ status: 'cancelled' });
    expect(outbox.summary()).toEqual({ pending: 3, sending: 0, failed: 0 });
    release();
    expect(await scheduler.syncNow()).toMatchObject({ status: 'ok', push: { delivered: 3 } });
    expect(server.resolvedKeys().size).toBe(3);
  });

  it('reports progress by phase', async () => {
    const { scheduler } = harness();
    const phases: SyncProgress[] = [];
    scheduler.onProgress((p) => phases.push(p));
    await scheduler.syncNow();
    expect(phases.map((p) => p.phase)).toEqual(['push', 'pull', 'apply', 'done']);
    expect(phases[2]).toEqual({ phase: 'apply', trigger: 'manual', breaches: 2 });
  });

  it('stops: no timer left, no run after', async () => {
    const { scheduler, timers, calls } = harness({ pushDelayMs: 10 });
    await scheduler.start();
    await scheduler.stop();
    expect(timers.armed).toEqual([]);
    expect(await scheduler.syncNow()).toMatchObject({ status: 'cancelled' });
    await timers.advance(60 * MINUTE);
    expect(calls).toEqual(['GET']);
  });
});
