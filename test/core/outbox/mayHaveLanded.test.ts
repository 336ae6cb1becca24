// A send whose outcome the app never learned (answer lost, timeout, the app killed after the
// service committed) may have changed the service; the local "confirmed" state does not show
// it. Such a row must never be withdrawn against that stale state: the person's way back is
// sent (issue 26, finding 3: a resolve dropped twice, committed with its answer lost, then
// undone, was withdrawn and the service kept the resolve).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolutionItem } from '../../../shared/api/index.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import { openAccountDatabase, type AccountDatabase } from '../../../electron/core/db/openAccountDatabase.ts';
import { outboxRows } from '../../../electron/core/db/outboxQueries.ts';
import { Outbox, type ResolutionSender } from '../../../electron/core/outbox/Outbox.ts';
import { getLocalBreach } from '../../../electron/core/queries/localQueries.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { catalogBreach, ContractServer, type Fault } from '../helpers/contractServer.ts';
import { FROZEN_NOW } from '../helpers/fixtures.ts';

const A = 'a@example.com';
const KEY = 'One|a@example.com|passwords';
const RESOLVE = { breachId: 'One', emails: [A], dataClasses: ['Passwords'], resolved: true };
const UNRESOLVE = { ...RESOLVE, resolved: false };
const HOUR = 3_600_000;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

interface Setup {
  server: ContractServer;
  file: string;
  database: AccountDatabase;
  outbox: Outbox;
  clock: { now: number };
  /** The app starts again on the same file (the previous process is gone). */
  reopen(sender?: ResolutionSender): Outbox;
}

/** A service with breach One for A, and the app on a real SQLite file, pulled once. */
async function setup(sender?: (server: ContractServer) => ResolutionSender): Promise<Setup> {
  const server = new ContractServer([catalogBreach('One')], { [A]: ['One'] });
  const dir = mkdtempSync(path.join(tmpdir(), 'outbox-landed-'));
  cleanups.push(
    () => server.close(),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  const file = path.join(dir, 'account.db');
  const clock = { now: FROZEN_NOW.getTime() };
  const open = (with_: ResolutionSender) => {
    const database = openAccountDatabase(file);
    cleanups.push(() => database.close());
    return { database, outbox: new Outbox({ db: database.db, sender: with_, now: () => clock.now, random: () => 0.5 }) };
  };
  const first = open(sender ? sender(server) : server);
  await new Puller({ db: first.database.db, client: server }).pull();
  const setup: Setup = {
    server,
    file,
    clock,
    ...first,
    reopen(next = server) {
      // A killed process writes nothing more; its connection is simply gone.
      setup.database.close();
      Object.assign(setup, open(next));
      return setup.outbox;
    },
  };
  return setup;
}

/** What the app shows for A's passwords in breach One. */
function shownResolved(database: AccountDatabase): boolean {
  return 'Passwords' in getLocalBreach(database.db, 'One', { email: A })!.breachedAccounts[0]!.resolvedDataClasses;
}

async function flushWith(s: Setup, fault: Fault | undefined): Promise<void> {
  if (fault) s.server.faults.push(fault);
  s.clock.now += HOUR; // past any backoff
  await s.outbox.flush();
  s.server.faults.length = 0;
}

describe('a send that may have landed is never withdrawn', () => {
  it('the reported sequence: dropped twice before the service, committed with the answer lost, then undone — the undo is sent', async () => {
    const s = await setup();
    s.outbox.record([RESOLVE]);
    await flushWith(s, 'drop-before');
    await flushWith(s, 'drop-before');
    await flushWith(s, 'drop-after');
    expect(s.server.resolvedKeys().has(KEY), 'the service committed the resolve').toBe(true);

    // The app never heard: as far as it knows the service still has "unresolved".
    expect(s.outbox.record([UNRESOLVE])).toEqual({ intents: 1 });
    expect(outboxRows(s.database.db)).toMatchObject([{ resolved: false, state: 'pending' }]);
    expect(shownResolved(s.database)).toBe(false);

    await flushWith(s, undefined);
    expect(s.server.resolvedKeys().has(KEY), 'the service holds the last choice').toBe(false);
    expect(s.outbox.summary()).toEqual({ pending: 0, sending: 0, failed: 0 });
  });

  it('killed after the service committed: the reopened file still knows the send may have landed', async () => {
    let committed!: () => void;
    const reached = new Promise<void>((resolve) => (committed = resolve));
    const s = await setup((server) => ({
      async postResolutions(items: readonly ResolutionItem[]) {
        await server.postResolutions(items);
        committed();
        return new Promise<never>(() => {}); // the process dies before the answer arrives
      },
    }));
    s.outbox.record([RESOLVE]);
    void s.outbox.flush();
    await reached;
    expect(s.server.resolvedKeys().has(KEY)).toBe(true);

    const outbox = s.reopen();
    expect(outbox.record([UNRESOLVE])).toEqual({ intents: 1 });
    expect(await outbox.flush()).toMatchObject({ status: 'done', delivered: 1 });
    expect(s.server.resolvedKeys().has(KEY)).toBe(false);
    expect(outbox.summary()).toEqual({ pending: 0, sending: 0, failed: 0 });
  });

  it('killed after the answer was lost and the row put back: the mark survives the restart', async () => {
    const s = await setup();
    s.outbox.record([RESOLVE]);
    await flushWith(s, 'drop-after');
    const outbox = s.reopen();
    expect(outbox.record([UNRESOLVE])).toEqual({ intents: 1 });
    s.clock.now += HOUR;
    await outbox.flush();
    expect(s.server.resolvedKeys().has(KEY)).toBe(false);
  });

  it.each<[string, (server: ContractServer) => ResolutionSender]>([
    ['a timeout', () => ({ postResolutions: () => Promise.reject(new ApiError('timeout', 'the service did not answer within 5 s')) })],
    ['a 500', () => ({ postResolutions: () => Promise.reject(new ApiError('server', 'failed', { status: 500 })) })],
    ['an answer off the contract', () => ({ postResolutions: () => Promise.reject(new ApiError('protocol', 'unexpected 302', { status: 302 })) })],
    ['a cancelled request', () => ({ postResolutions: () => Promise.reject(new DOMException('aborted', 'AbortError')) })],
    ['a failure of our own while reading the answer', () => ({ postResolutions: () => Promise.reject(new Error('disk I/O error')) })],
  ])('after %s the undo is sent, not withdrawn', async (_, failing) => {
    let fail = true;
    const s = await setup((server) => ({
      postResolutions: (items: readonly ResolutionItem[]) => (fail ? failing(server).postResolutions(items) : server.postResolutions(items)),
    }));
    s.outbox.record([RESOLVE]);
    await flushWith(s, undefined);
    fail = false;
    expect(s.outbox.record([UNRESOLVE])).toEqual({ intents: 1 });
    const calls = s.server.calls;
    await flushWith(s, undefined);
    expect(s.server.calls - calls, 'the way back went to the service').toBe(1);
    expect(s.server.resolvedKeys().has(KEY)).toBe(false);
  });

  it.each<Fault>(['rate-limited', 'unauthorized', 'forbidden'])('a %s answer says nothing landed: an undo before anything landed is still withdrawn, nothing sent', async (fault) => {
    const s = await setup();
    s.outbox.record([RESOLVE]);
    await flushWith(s, fault);
    expect(s.outbox.record([UNRESOLVE])).toEqual({ intents: 0 });
    expect(outboxRows(s.database.db)).toEqual([]);
    const calls = s.server.calls;
    await flushWith(s, undefined);
    expect(s.server.calls).toBe(calls);
    expect(s.server.resolvedKeys().has(KEY)).toBe(false);
  });

  it('a refusal after an earlier lost answer does not clear the doubt', async () => {
    const s = await setup();
    s.outbox.record([RESOLVE]);
    await flushWith(s, 'drop-after');
    await flushWith(s, 'rate-limited');
    expect(s.outbox.record([UNRESOLVE])).toEqual({ intents: 1 });
    await flushWith(s, undefined);
    expect(s.server.resolvedKeys().has(KEY)).toBe(false);
  });

  it('an acknowledged send ends the doubt: the service holds exactly what the app confirmed', async () => {
    const s = await setup();
    s.outbox.record([RESOLVE]);
    await flushWith(s, 'drop-after');
    await flushWith(s, undefined); // the resolve again: 204, confirmed
    expect(shownResolved(s.database)).toBe(true);
    expect(s.outbox.record([UNRESOLVE])).toEqual({ intents: 1 });
    // Back to what the service acknowledged, never sent since: withdrawn.
    expect(s.outbox.record([RESOLVE])).toEqual({ intents: 0 });
    expect(outboxRows(s.database.db)).toEqual([]);
    expect(s.server.resolvedKeys().has(KEY)).toBe(true);
  });

  it('a pull that shows the lost send landed is the service speaking: the undo goes out against it', async () => {
    const s = await setup();
    s.outbox.record([RESOLVE]);
    await flushWith(s, 'drop-after');
    await new Puller({ db: s.database.db, client: s.server }).pull();
    expect(s.outbox.record([UNRESOLVE])).toEqual({ intents: 1 });
    await flushWith(s, undefined);
    expect(s.server.resolvedKeys().has(KEY)).toBe(false);
  });
});
