import { afterEach, describe, expect, it } from 'vitest';
import type { ResolutionItem } from '../../../shared/api/index.ts';
import type { WritableDB } from '../../../electron/core/db/Interface.ts';
import { markInFlight, pendingRows } from '../../../electron/core/db/outboxQueries.ts';
import { UnknownTargetError } from '../../../electron/core/outbox/errors.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import { Outbox, type ResolutionSender } from '../../../electron/core/outbox/Outbox.ts';
import { CONTRACT_LIMITS } from '../../../electron/core/outbox/packing.ts';
import { getLocalBreach, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { canSendUnderFirefox } from '../../../electron/core/api/FirefoxMonitorClient.ts';
import { catalogBreach, ContractServer } from '../helpers/contractServer.ts';
import { FROZEN_NOW, memoryDatabase } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const B = 'b@example.com';

const servers: ContractServer[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

interface Setup {
  db: WritableDB;
  server: ContractServer;
  outbox: Outbox;
  clock: { now: number };
  pull(): Promise<void>;
}

async function setup(sender?: (server: ContractServer) => ResolutionSender): Promise<Setup> {
  const server = new ContractServer([catalogBreach('One'), catalogBreach('Two'), catalogBreach('Three', ['Email addresses'])], {
    [A]: ['One', 'Two', 'Three'],
    [B]: ['One', 'Two'],
  });
  servers.push(server);
  const db = memoryDatabase();
  const clock = { now: FROZEN_NOW.getTime() };
  const outbox = new Outbox({ db, sender: sender ? sender(server) : server, now: () => clock.now, random: () => 0.5, backoff: { baseMs: 1000, capMs: 60_000 } });
  const puller = new Puller({ db, client: server, now: () => new Date(clock.now) });
  await puller.pull();
  return { db, server, outbox, clock, pull: async () => void (await puller.pull()) };
}

describe('Outbox.record', () => {
  it('writes the intent and the optimistic view together, coalesced to the last intent', async () => {
    const { db, outbox } = await setup();
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    outbox.record([{ breachId: 'One', emails: ['A@EXAMPLE.COM'], dataClasses: ['passwords'], resolved: false }]);
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['PASSWORDS'], resolved: true }]);
    const rows = pendingRows(db);
    expect(rows).toHaveLength(1);
    // The middle toggle went back to what the service has, so the row was withdrawn and made anew.
    expect(rows[0]).toMatchObject({ email: A, breachId: 'One', classKey: 'passwords', dataClass: 'Passwords', resolved: true, version: 1, state: 'pending' });
    expect(getLocalBreach(db, 'One', { email: A })!.breachedAccounts[0]).toEqual({ email: A, resolvedDataClasses: { Passwords: {} }, pending: ['Passwords'], failed: [] });
    expect(outbox.summary()).toEqual({ pending: 1, sending: 0, failed: 0 });
  });

  it('withdraws a toggle undone before it was sent: nothing is queued, nothing is sent', async () => {
    const { db, server, outbox } = await setup();
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    expect(outbox.summary()).toEqual({ pending: 1, sending: 0, failed: 0 });
    expect(outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: false }])).toEqual({ intents: 0 });
    expect(pendingRows(db)).toEqual([]);
    expect(outbox.summary()).toEqual({ pending: 0, sending: 0, failed: 0 });
    expect(getLocalBreach(db, 'One', { email: A })!.breachedAccounts[0]).toEqual({ email: A, resolvedDataClasses: {}, pending: [], failed: [] });
    expect(await outbox.flush()).toMatchObject({ requests: 0, delivered: 0 });
    expect(server.calls).toBe(0);
  });

  it('asking for what the service already has queues nothing', async () => {
    const { db, outbox } = await setup();
    expect(outbox.record([{ breachId: 'One', resolved: false }])).toEqual({ intents: 0 });
    expect(pendingRows(db)).toEqual([]);
  });

  it('an undo of a toggle that is on the wire is still sent, since that send may land', async () => {
    const { db, outbox } = await setup();
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    markInFlight(db, [pendingRows(db)[0]!.id], FROZEN_NOW.toISOString());
    expect(outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: false }])).toEqual({ intents: 1 });
    expect(pendingRows(db)).toMatchObject([{ resolved: false, version: 2 }]);
  });

  it('expands omitted emails and classes to what the breach has', async () => {
    const { outbox } = await setup();
    expect(outbox.record([{ breachId: 'One', resolved: true }])).toEqual({ intents: 6 });
  });

  it('refuses unknown targets and records nothing of the batch', async () => {
    const { db, outbox } = await setup();
    const ok = { breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true };
    expect(() => outbox.record([ok, { breachId: 'Nope', resolved: true }])).toThrow(UnknownTargetError);
    expect(() => outbox.record([ok, { breachId: 'Three', emails: [B], resolved: true }])).toThrow(/does not affect b@example.com/);
    expect(() => outbox.record([ok, { breachId: 'Three', dataClasses: ['Passwords'], resolved: true }])).toThrow(/no data class "passwords"/);
    expect(() => outbox.record([{ breachId: 'One', emails: ['not-an-email'], resolved: true }])).toThrow();
    expect(pendingRows(db)).toEqual([]);
  });
});

describe('Outbox.flush', () => {
  it('delivers in as few requests as the contract allows and settles the view', async () => {
    const { db, server, outbox } = await setup();
    outbox.record([{ breachId: 'One', emails: [A, B], dataClasses: ['Passwords'], resolved: true }]);
    outbox.record([{ breachId: 'Two', emails: [A], resolved: true }]);
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Usernames'], resolved: true }]);
    const result = await outbox.flush();
    // One needs two items (A wants two classes, B one), and a breach may appear once per request.
    expect(result).toEqual({ status: 'done', requests: 2, delivered: 6, failed: 0, breachIds: ['One', 'Two'] });
    expect([...server.resolvedKeys()].sort()).toEqual([
      'One|a@example.com|passwords',
      'One|a@example.com|usernames',
      'One|b@example.com|passwords',
      'Two|a@example.com|email-addresses',
      'Two|a@example.com|passwords',
      'Two|a@example.com|usernames',
    ]);
    expect(outbox.summary()).toEqual({ pending: 0, sending: 0, failed: 0 });
    expect(getLocalBreach(db, 'One', { email: A })!.breachedAccounts[0]).toEqual({ email: A, resolvedDataClasses: { Passwords: {}, Usernames: {} }, pending: [], failed: [] });
    expect(await outbox.flush()).toEqual({ status: 'done', requests: 0, delivered: 0, failed: 0, breachIds: [] });
  });

  it('keeps a change made while its older intent is on the wire, and sends it next', async () => {
    let toggled = false;
    const { db, server, outbox } = await setup((s) => ({
      async postResolutions(items: readonly ResolutionItem[]) {
        await s.postResolutions(items);
        if (!toggled) {
          toggled = true;
          outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: false }]);
        }
      },
    }));
    outbox.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    const result = await outbox.flush();
    expect(result).toMatchObject({ status: 'done', requests: 2, delivered: 2 });
    expect(server.accepted.map((body) => body[0]!.resolved)).toEqual([true, false]);
    expect(server.resolvedKeys().has('One|a@example.com|passwords')).toBe(false);
    expect(pendingRows(db)).toEqual([]);
  });

  it('isolates the items the service refuses (404) and sends the rest, with pointers as hints', async () => {
    const { db, server, outbox } = await setup();
    server.removeEmail(B);
    outbox.record([{ breachId: 'One', resolved: true }]); // A and B, three classes
    outbox.record([{ breachId: 'Two', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    outbox.record([{ breachId: 'Three', resolved: true }]);
    const result = await outbox.flush();
    expect(result).toMatchObject({ status: 'done', delivered: 5, failed: 3 });
    // whole batch, then the rest alone and the suspect item alone, then its emails apart
    expect(result.requests).toBeLessThanOrEqual(6);
    const failed = outbox.items('failed');
    expect(failed.map((f) => `${f.breachId}|${f.email}|${f.dataClass}`).sort()).toEqual(['One|b@example.com|Email addresses', 'One|b@example.com|Passwords', 'One|b@example.com|Usernames']);
    expect(failed.every((f) => f.failure?.status === 404 && f.failure.reason === 'email not found for breach "One"')).toBe(true);
    expect([...server.resolvedKeys()].filter((k) => k.startsWith('One|')).sort()).toEqual(['One|a@example.com|email-addresses', 'One|a@example.com|passwords', 'One|a@example.com|usernames']);
    expect(getLocalBreach(db, 'One', { email: B })!.breachedAccounts[0]!.failed.map((f) => f.dataClass)).toEqual(['Email addresses', 'Passwords', 'Usernames']);
  });

  it('isolates a data class the breach no longer has (400) with the service reason', async () => {
    const { server, outbox } = await setup();
    outbox.record([{ breachId: 'One', emails: [A], resolved: true }]);
    server.store.putBreach(catalogBreach('One', ['Email addresses', 'Passwords']));
    const result = await outbox.flush();
    expect(result).toMatchObject({ status: 'done', delivered: 2, failed: 1 });
    expect(outbox.items('failed')).toMatchObject([{ dataClass: 'Usernames', failure: { status: 400, reason: 'breach "One" has no data class "Usernames"' } }]);
  });

  it('stops on 401-after-refresh and 403 with everything kept, nothing failed', async () => {
    for (const fault of ['unauthorized', 'forbidden'] as const) {
      const { server, outbox } = await setup();
      outbox.record([{ breachId: 'One', resolved: true }]);
      server.faults.push(fault);
      expect(await outbox.flush()).toMatchObject({ status: 'sign-in-needed', requests: 1, delivered: 0, failed: 0 });
      expect(outbox.status.state).toBe('sign-in-needed');
      expect(outbox.summary()).toEqual({ pending: 6, sending: 0, failed: 0 });
      expect(await outbox.flush()).toMatchObject({ status: 'done', delivered: 6 });
    }
  });

  it('backs off on 5xx and network failures with capped exponential full jitter', async () => {
    const { server, outbox, clock } = await setup();
    outbox.record([{ breachId: 'One', resolved: true }]);
    server.faults.push('server-error', 'drop-before', 'server-error');
    const first = await outbox.flush();
    expect(first).toMatchObject({ status: 'backoff', requests: 1, retryAt: clock.now + 500 }); // random 0.5 × base 1 s
    expect(await outbox.flush()).toMatchObject({ status: 'backoff', requests: 0 }); // too early: nothing sent
    expect(server.calls).toBe(1);
    clock.now = first.retryAt!;
    expect(await outbox.flush()).toMatchObject({ status: 'backoff', retryAt: clock.now + 1000 }); // 0.5 × 2 s
    clock.now += 1000;
    expect(await outbox.flush()).toMatchObject({ status: 'backoff', retryAt: clock.now + 2000 });
    clock.now += 2000;
    expect(await outbox.flush()).toMatchObject({ status: 'done', delivered: 6 });
    expect(outbox.status.state).toBe('idle');
  });

  it('honours Retry-After over a shorter jittered delay, and a back-online signal does not cut it short', async () => {
    const { server, outbox, clock } = await setup();
    outbox.record([{ breachId: 'One', resolved: true }]);
    server.retryAfterMs = 30_000;
    server.faults.push('rate-limited');
    expect(await outbox.flush()).toMatchObject({ status: 'backoff', retryAt: clock.now + 30_000 });
    outbox.resetBackoff();
    expect(await outbox.flush()).toMatchObject({ status: 'backoff', requests: 0 });
    server.faults.push('drop-before');
    clock.now += 30_000;
    expect(await outbox.flush()).toMatchObject({ status: 'backoff' });
    outbox.resetBackoff(); // a network failure: back online means try now
    expect(await outbox.flush()).toMatchObject({ status: 'done', delivered: 6 });
  });

  it('re-sends after an answer lost after the service committed: same state, nothing failed', async () => {
    const { server, outbox, clock } = await setup();
    outbox.record([{ breachId: 'Two', emails: [A], dataClasses: ['Passwords'], resolved: true }]);
    server.faults.push('drop-after');
    expect(await outbox.flush()).toMatchObject({ status: 'backoff' });
    expect(server.resolvedKeys().has('Two|a@example.com|passwords')).toBe(true);
    clock.now += 60_000;
    expect(await outbox.flush()).toMatchObject({ status: 'done', delivered: 1, failed: 0 });
    expect(server.accepted).toHaveLength(2);
  });

  it('re-sends rows left on the wire by a crash', async () => {
    const { db, server, outbox } = await setup();
    outbox.record([{ breachId: 'Three', resolved: true }]);
    markInFlight(db, [pendingRows(db)[0]!.id], FROZEN_NOW.toISOString()); // the process died here
    expect(outbox.items()).toMatchObject([{ state: 'sending', attempts: 1 }]);
    const restarted = new Outbox({ db, sender: server, now: () => FROZEN_NOW.getTime() });
    expect(await restarted.flush()).toMatchObject({ status: 'done', delivered: 1 });
    expect(server.resolvedKeys().has('Three|a@example.com|email-addresses')).toBe(true);
  });

  it('after a crash mid-send, a restarted outbox counts the rows as pending, not as sending', async () => {
    const { db, server, outbox } = await setup();
    outbox.record([{ breachId: 'Three', resolved: true }]);
    markInFlight(db, [pendingRows(db)[0]!.id], FROZEN_NOW.toISOString()); // the process died here
    expect(outbox.summary()).toEqual({ pending: 0, sending: 1, failed: 0 });
    const restarted = new Outbox({ db, sender: server, now: () => FROZEN_NOW.getTime() });
    expect(restarted.summary()).toEqual({ pending: 1, sending: 0, failed: 0 });
    expect(restarted.items()).toMatchObject([{ state: 'pending', attempts: 1 }]);
  });

  it('keeps failed items until retried or discarded; discard returns to the confirmed state', async () => {
    const { db, server, outbox } = await setup();
    server.removeEmail(B);
    outbox.record([{ breachId: 'Two', emails: [B], dataClasses: ['Passwords', 'Usernames'], resolved: true }]);
    await outbox.flush();
    const failed = outbox.items('failed');
    expect(failed).toHaveLength(2);
    expect(await outbox.flush()).toMatchObject({ requests: 0 }); // failed items are not retried by themselves

    expect(outbox.discard([failed[0]!.id])).toBe(1);
    expect(getLocalBreach(db, 'Two', { email: B })!.breachedAccounts[0]).toMatchObject({ resolvedDataClasses: { Usernames: {} }, pending: [] });

    server.store.putAccount({ sub: 'tester', emails: [A, B], deleted: false });
    expect(outbox.retry([failed[1]!.id, 9999])).toBe(1);
    expect(await outbox.flush()).toMatchObject({ status: 'done', delivered: 1 });
    expect([...server.resolvedKeys()]).toEqual(['Two|b@example.com|usernames']);
    expect(outbox.discard([failed[1]!.id])).toBe(0);
  });

  it('announces changes and drains on shutdown', async () => {
    const { outbox } = await setup();
    const seen: unknown[] = [];
    outbox.onDidChange((summary) => seen.push(summary));
    outbox.record([{ breachId: 'Three', resolved: true }]);
    const flushing = outbox.flush();
    await outbox.shutdown();
    expect(await flushing).toMatchObject({ status: 'done', delivered: 1 });
    expect(seen[0]).toEqual({ pending: 1, sending: 0, failed: 0 });
    expect(seen.at(-1)).toEqual({ pending: 0, sending: 0, failed: 0 });
    expect(await outbox.flush()).toMatchObject({ status: 'cancelled' });
  });
});

/**
 * A service whose answers the test gives: each request waits until `answer` is called, which
 * either applies it at the contract server or fails it with the error given.
 */
function gatedSender(server: ContractServer) {
  const requests: { breachIds: string[]; answer(error?: Error): Promise<void> }[] = [];
  const wire = { now: 0, most: 0 };
  const sender: ResolutionSender = {
    postResolutions(items) {
      wire.now++;
      wire.most = Math.max(wire.most, wire.now);
      return new Promise<void>((resolve, reject) => {
        requests.push({
          breachIds: items.map((item) => item.breachId),
          async answer(error) {
            wire.now--;
            if (error) reject(error);
            else await server.postResolutions(items).then(resolve, reject);
            await turns();
          },
        });
      });
    },
  };
  return { sender, requests, wire };
}

/** A few turns of the event loop: what the outbox does next has happened. */
async function turns(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('Outbox.flush with two requests on the wire', () => {
  // One item per request: One, Two and Three (all of A's classes each) make three requests.
  async function threeRequests() {
    const { db, server } = await setup();
    const gate = gatedSender(server);
    const outbox = new Outbox({ db, sender: gate.sender, now: () => FROZEN_NOW.getTime(), random: () => 0.5, limits: { ...CONTRACT_LIMITS, maxItems: 1 } });
    for (const breachId of ['One', 'Two', 'Three']) outbox.record([{ breachId, emails: [A], resolved: true }]);
    const rowsOf = (breachId: string) => pendingRows(db).filter((row) => row.breachId === breachId);
    return { db, server, outbox, ...gate, rowsOf };
  }

  it('sends the next request before the one before it is answered, never more than two at once', async () => {
    const { server, outbox, requests, wire } = await threeRequests();
    const flushing = outbox.flush();
    await turns();
    // The service has the second request while it works on the first.
    expect(requests.map((r) => r.breachIds)).toEqual([['One'], ['Two']]);
    await requests[0]!.answer();
    expect(requests).toHaveLength(3);
    await requests[1]!.answer();
    await requests[2]!.answer();
    expect(await flushing).toMatchObject({ status: 'done', requests: 3, delivered: 7, failed: 0 });
    expect(wire.most).toBe(2);
    expect(server.resolvedKeys().size).toBe(7);
    expect(outbox.summary()).toEqual({ pending: 0, sending: 0, failed: 0 });
  });

  it('a request that fails while the next is on the wire: the next is settled when it is delivered, the failed one is in doubt, the unsent one as it was', async () => {
    const { server, outbox, requests, rowsOf } = await threeRequests();
    const flushing = outbox.flush();
    await turns();
    await requests[0]!.answer(new ApiError('server', 'unavailable', { status: 503 }));
    // The flush stops sending, but waits for what is already on the wire.
    expect(requests).toHaveLength(2);
    await requests[1]!.answer();
    expect(await flushing).toMatchObject({ status: 'backoff', requests: 2, delivered: 3, failed: 0 });
    expect([...server.resolvedKeys()].every((key) => key.startsWith('Two|'))).toBe(true);
    expect(rowsOf('Two')).toEqual([]);
    expect(rowsOf('One').map((row) => [row.inDoubt, row.sentVersion])).toEqual([
      [true, null],
      [true, null],
      [true, null],
    ]);
    expect(rowsOf('Three').map((row) => [row.inDoubt, row.sentVersion])).toEqual([[false, null]]);
    expect(outbox.summary()).toEqual({ pending: 4, sending: 0, failed: 0 });
  });

  it.each([
    ['a 429 (nothing applied)', () => new ApiError('rate-limited', 'slow down', { status: 429 }), false],
    ['a timeout (outcome unknown)', () => new ApiError('timeout', 'the service did not answer within 5 s'), true],
  ] as const)('when the request on the wire fails too, after %s its rows are in doubt only if its send may have landed', async (_, error, inDoubt) => {
    const { outbox, requests, rowsOf } = await threeRequests();
    const flushing = outbox.flush();
    await turns();
    await requests[0]!.answer(new ApiError('server', 'unavailable', { status: 503 }));
    await requests[1]!.answer(error());
    expect(await flushing).toMatchObject({ status: 'backoff', requests: 2, delivered: 0 });
    expect(rowsOf('One').every((row) => row.inDoubt && row.sentVersion === null)).toBe(true);
    expect(rowsOf('Two').map((row) => [row.inDoubt, row.sentVersion])).toEqual([
      [inDoubt, null],
      [inDoubt, null],
      [inDoubt, null],
    ]);
    expect(outbox.summary()).toEqual({ pending: 7, sending: 0, failed: 0 });
  });

  it('a request the service refuses is split and sent again while the next one is delivered', async () => {
    const { server, outbox, requests, wire } = await threeRequests();
    // The service no longer lists Usernames for One: it refuses that class (400, with a pointer).
    server.store.putBreach(catalogBreach('One', ['Email addresses', 'Passwords']));
    const flushing = outbox.flush();
    await turns();
    expect(requests.map((r) => r.breachIds)).toEqual([['One'], ['Two']]);
    for (let answered = 0; answered < requests.length; answered++) await requests[answered]!.answer();
    expect(await flushing).toMatchObject({ status: 'done', delivered: 6, failed: 1 });
    expect(outbox.items('failed')).toMatchObject([{ breachId: 'One', dataClass: 'Usernames', failure: { status: 400 } }]);
    expect(server.resolvedKeys().size).toBe(6);
    expect(wire.most).toBe(2);
  });
});

describe('pull after push', () => {
  it('shows the service state once the outbox has delivered', async () => {
    const { db, outbox, pull } = await setup();
    outbox.record([{ breachId: 'One', resolved: true }]);
    await outbox.flush();
    await pull();
    const view = queryBreaches(db, { unresolvedDataClasses: ['Passwords'] });
    expect(view.items.map((i) => i.breach.id)).toEqual(['Two']);
    expect(getLocalBreach(db, 'One')!.breachedAccounts[0]!.resolvedDataClasses.Passwords).toEqual({ resolvedAt: '2026-02-14T09:30:00Z' });
  });
});

describe('Outbox across a contract switch', () => {
  it('re-decides what waits: the newer contract keeps what it cannot carry on this machine, the original sends it again', async () => {
    const { db, server } = await setup();
    const original = new Outbox({ db, sender: server, now: () => FROZEN_NOW.getTime() });
    original.record([{ breachId: 'One', emails: [A], dataClasses: ['Passwords', 'Usernames'], resolved: true }]);
    const states = (outbox: Outbox) => Object.fromEntries(outbox.items().map((item) => [item.dataClass, item.state]));
    expect(states(original)).toEqual({ Passwords: 'pending', Usernames: 'pending' });

    // Signed in again under the newer contract: Usernames cannot be marked resolved there, so it is not sent.
    const newer = new Outbox({ db, sender: server, now: () => FROZEN_NOW.getTime(), canSend: canSendUnderFirefox });
    expect(states(newer)).toEqual({ Passwords: 'pending', Usernames: 'local' });
    await newer.flush();
    expect(server.calls).toBe(1);
    expect(states(newer)).toEqual({ Usernames: 'local' });

    // And back: the original contract carries it, so it is queued to send, not lost.
    const back = new Outbox({ db, sender: server, now: () => FROZEN_NOW.getTime() });
    expect(states(back)).toEqual({ Usernames: 'pending' });
    await back.flush();
    expect(back.items()).toEqual([]);
  });
});
