// The Pwned Passwords pass of an import (electron/core/passwords/pwnedPasswordPass.ts) against the
// stand-in of the range API over loopback HTTP (test/support/pwnedPasswordsStandIn.ts, as strict as
// haveibeenpwned.com/API/v3#PwnedPasswords): the counts are the stand-in's truth, a prefix is asked
// once however many passwords share it, nothing but prefixes reaches it, no more requests are in
// flight than allowed, the pass waits out a network that went away and goes on where it stopped,
// cancels at once (waiting or not), and fails in words on an answer it cannot read.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoreError } from '../../../shared/ipc/index.ts';
import { checkPwnedPasswords, DEFAULT_CONCURRENCY } from '../../../electron/core/passwords/pwnedPasswordPass.ts';
import { sha1Hex, startPwnedPasswordsStandIn, type PwnedPasswordsStandIn } from '../../support/pwnedPasswordsStandIn.ts';
import { eventually } from '../../support/waitFor.ts';

const WAITING = /^Waiting for the network to check passwords with Pwned Passwords…/;

/** Groups of invented passwords whose SHA-1s share their first 5 characters (found by hashing candidates). */
function passwordsSharingPrefixes(groups: number, size: number): string[][] {
  const byPrefix = new Map<string, string[]>();
  const found: string[][] = [];
  for (let i = 0; found.length < groups; i++) {
    const password = `shared prefix ${i}`;
    const prefix = sha1Hex(password).slice(0, 5);
    const group = byPrefix.get(prefix) ?? [];
    group.push(password);
    byPrefix.set(prefix, group);
    if (group.length === size) found.push(group);
  }
  return found;
}
const SHARING = passwordsSharingPrefixes(4, 3);

/** `count` distinct invented passwords, keyed like the import keys them (an opaque string per login). */
function logins(count: number, tag = 'pw'): Map<string, string> {
  return new Map(Array.from({ length: count }, (_, i) => [`login-${tag}-${i}`, `${tag} password ${i}`]));
}

const distinctPrefixes = (passwords: Iterable<string>) => new Set([...passwords].map((password) => sha1Hex(password).slice(0, 5))).size;
const prefixesAsked = (standIn: PwnedPasswordsStandIn) => standIn.requests.map((request) => request.path.slice('/range/'.length));

// A fresh stand-in per test: a request cancelled or cut by one test cannot land in the next one's record.
let standIn: PwnedPasswordsStandIn;
beforeEach(async () => {
  standIn = await startPwnedPasswordsStandIn({});
});
afterEach(() => standIn.close());

/** Sleeps recorded, not waited: the test decides when the network comes back. */
function recordedSleep(onSleep: (ms: number, calls: number) => void = () => undefined) {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms: number) => {
      delays.push(ms);
      onSleep(ms, delays.length);
      return Promise.resolve();
    },
  };
}

describe('checkPwnedPasswords', () => {
  it('answers every key with its password’s count, 0 when not found; progress is counted in passwords', async () => {
    standIn.setSeen({ 'P@ssw0rd': 52256, letmein: 3, 'not in the import': 9 });
    const passwords = new Map([
      ['a', 'P@ssw0rd'],
      ['b', 'letmein'],
      ['c', 'a long and unusual passphrase'],
      ['d', 'P@ssw0rd'], // the same password at another login: same count
    ]);
    const progress: Array<{ done: number; total: number }> = [];
    const counts = await checkPwnedPasswords(passwords, { baseUrl: standIn.origin, onProgress: (p) => progress.push(p) });
    expect(counts).toEqual(
      new Map([
        ['a', 52256],
        ['b', 3],
        ['c', 0],
        ['d', 52256],
      ]),
    );
    expect(progress[0]).toEqual({ done: 0, total: 4 });
    expect(progress.at(-1)).toEqual({ done: 4, total: 4 });
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((x, y) => x - y));
    // Three distinct passwords, three prefixes: the repeated password was asked once.
    expect(standIn.requests).toHaveLength(3);
  });

  it('asks a prefix once however many passwords share it, and tells them apart by the rest of the hash', async () => {
    const [group, other] = SHARING as [string[], string[]];
    // One of the group was seen, and so was a password of the same prefix that nobody imported.
    standIn.setSeen({ [group[1]!]: 42, [other[0]!]: 7 });
    const passwords = new Map([...group, ...other.slice(1)].map((password, i) => [`k${i}`, password]));
    const progress: number[] = [];
    const counts = await checkPwnedPasswords(passwords, { baseUrl: standIn.origin, onProgress: (p) => progress.push(p.done) });
    expect([...counts]).toEqual(expect.arrayContaining([...passwords].map(([key, password]) => [key, standIn.countOf(password)])));
    expect(counts.get('k1')).toBe(42);
    expect([...counts.values()].filter((count) => count > 0)).toEqual([42]);
    expect(prefixesAsked(standIn).sort()).toEqual([sha1Hex(group[0]!).slice(0, 5), sha1Hex(other[0]!).slice(0, 5)].sort());
    // Each answer settles a whole group: progress moves by 3, then by 2.
    expect(progress).toEqual([0, expect.any(Number), 5]);
  });

  it('sends nothing but the 5-character prefix: no password, no rest of a hash, no whole hash in any address, header or body', async () => {
    const passwords = new Map([...logins(50), ...SHARING.flat().map((password, i) => [`s${i}`, password] as const)]);
    standIn.setSeen(new Map([...passwords.values()].map((password, i) => [password, i + 1])));
    const logged = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level));
    try {
      await checkPwnedPasswords(passwords, { baseUrl: standIn.origin });
    } finally {
      for (const spy of logged) spy.mockRestore();
    }
    // And nothing was logged on the way.
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
    expect(standIn.requests).toHaveLength(distinctPrefixes(passwords.values()));
    for (const request of standIn.requests) {
      expect(request.method).toBe('GET');
      expect(request.path).toMatch(/^\/range\/[0-9A-F]{5}$/);
      expect(request.query).toBe('');
      expect(request.body).toBe('');
      expect(request.headers['add-padding']).toBe('true');
      expect(request.headers['user-agent']).toMatch(/^Breach-Monitor /);
    }
    const everything = JSON.stringify(standIn.requests).toUpperCase();
    for (const password of passwords.values()) {
      const hash = sha1Hex(password);
      expect(everything).not.toContain(password.toUpperCase());
      expect(everything).not.toContain(hash);
      // Not even a piece of the rest of the hash (8 characters: a chance match in the recorded JSON is ~1e-7).
      expect(everything).not.toContain(hash.slice(5, 13));
      expect(everything).not.toContain(hash.slice(-8));
    }
  });

  it('keeps no more requests in flight than its concurrency, and uses all of it', async () => {
    const passwords = logins(60);
    standIn.hold();
    const pass = checkPwnedPasswords(passwords, { baseUrl: standIn.origin, concurrency: 3 });
    await eventually('3 requests held by the stand-in', () => standIn.inFlight === 3);
    // Give a fourth request every chance to arrive before anything is answered.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(standIn.inFlight).toBe(3);
    standIn.release();
    await pass;
    expect(standIn.maxInFlight).toBe(3);
    expect(standIn.requests).toHaveLength(distinctPrefixes(passwords.values()));
  });

  it(`by default keeps ${DEFAULT_CONCURRENCY} requests in flight`, async () => {
    standIn.hold();
    const pass = checkPwnedPasswords(logins(40), { baseUrl: standIn.origin });
    await eventually(`${DEFAULT_CONCURRENCY} requests held`, () => standIn.inFlight === DEFAULT_CONCURRENCY);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(standIn.inFlight).toBe(DEFAULT_CONCURRENCY);
    standIn.release();
    await pass;
    expect(standIn.maxInFlight).toBe(DEFAULT_CONCURRENCY);
  });

  it('when the network goes away it waits and says so, probes after each delay, and goes on where it stopped once it is back', async () => {
    const passwords = logins(300);
    standIn.setSeen(new Map([...passwords.values()].filter((_, i) => i % 3 === 0).map((password, i) => [password, i + 1])));
    const waiting: Array<string | null> = [];
    let wentOffline = false;
    // Back after the second delay: the first probe finds the network still gone.
    const { delays, sleep } = recordedSleep((_, calls) => {
      if (calls === 2) standIn.behaviour = 'answer';
    });
    const counts = await checkPwnedPasswords(passwords, {
      baseUrl: standIn.origin,
      concurrency: 4,
      retryDelaysMs: [10, 20, 40],
      sleep,
      onWaiting: (message) => waiting.push(message),
      onProgress: ({ done }) => {
        if (done >= 100 && !wentOffline) {
          wentOffline = true;
          standIn.behaviour = 'offline';
        }
      },
    });
    expect(wentOffline).toBe(true);
    expect(delays).toEqual([10, 20]);
    expect(waiting).toHaveLength(3);
    expect(waiting[0]).toMatch(WAITING);
    expect(waiting[0]).toContain('cannot be reached');
    expect(waiting[1]).toMatch(WAITING);
    expect(waiting[2]).toBeNull();
    // Complete and right.
    expect(counts.size).toBe(passwords.size);
    for (const [key, password] of passwords) expect(counts.get(key)).toBe(standIn.countOf(password));
    // Where it stopped: every prefix was answered, and none twice but those cut off in flight.
    const asked = prefixesAsked(standIn);
    const prefixes = distinctPrefixes(passwords.values());
    expect(new Set(asked).size).toBe(prefixes);
    expect(asked.length).toBeLessThanOrEqual(prefixes + 4);
  });

  it('a 503 is waited out the same way', async () => {
    standIn.behaviour = 'server-error';
    const waiting: Array<string | null> = [];
    const { delays, sleep } = recordedSleep(() => (standIn.behaviour = 'answer'));
    const counts = await checkPwnedPasswords(logins(20), { baseUrl: standIn.origin, retryDelaysMs: [25], sleep, onWaiting: (message) => waiting.push(message) });
    expect(counts.size).toBe(20);
    expect(delays).toEqual([25]);
    expect(waiting).toEqual([expect.stringMatching(WAITING), null]);
    expect(waiting[0]).toContain('answered with an error');
  });

  it('a 429 waits as long as its Retry-After says, and the planned delay when it says nothing', async () => {
    standIn.setSeen({ 'pw password 3': 5 });
    standIn.behaviour = 'rate-limited';
    standIn.retryAfterSeconds = 7;
    const waiting: Array<string | null> = [];
    const first = recordedSleep(() => (standIn.behaviour = 'answer'));
    const counts = await checkPwnedPasswords(logins(10), { baseUrl: standIn.origin, retryDelaysMs: [25], sleep: first.sleep, onWaiting: (message) => waiting.push(message) });
    expect(counts.get('login-pw-3')).toBe(5);
    expect(first.delays).toEqual([7000]);
    expect(waiting).toEqual(['Waiting to check passwords with Pwned Passwords, which asked us to slow down: trying again in 7 s.', null]);

    standIn.behaviour = 'rate-limited';
    standIn.retryAfterSeconds = undefined;
    const second = recordedSleep(() => (standIn.behaviour = 'answer'));
    await checkPwnedPasswords(logins(10), { baseUrl: standIn.origin, retryDelaysMs: [25], sleep: second.sleep });
    expect(second.delays).toEqual([25]);
  });

  it('cancelling mid-way rejects with "cancelled" and asks nothing more', async () => {
    const controller = new AbortController();
    const passwords = logins(400);
    // Requests counted where they start, in the client: one sent before the cancel may still reach the stand-in after it.
    let started = 0;
    let startedAtCancel = -1;
    const countingFetch: typeof fetch = (input, init) => {
      started++;
      return fetch(input, init);
    };
    const pass = checkPwnedPasswords(passwords, {
      baseUrl: standIn.origin,
      fetch: countingFetch,
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done >= 50 && !controller.signal.aborted) {
          startedAtCancel = started;
          controller.abort();
        }
      },
    });
    await expect(pass).rejects.toEqual(new CoreError('cancelled', 'The check was cancelled.'));
    expect(startedAtCancel).toBeGreaterThan(0);
    expect(startedAtCancel).toBeLessThan(distinctPrefixes(passwords.values()));
    // Nothing was left running to ask later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(startedAtCancel);
  });

  it('cancelling while it waits for the network rejects at once, whatever the sleep', async () => {
    standIn.behaviour = 'offline';
    // The real sleep, a minute long: cancelling must not wait for it.
    const controller = new AbortController();
    const waiting: Array<string | null> = [];
    const pass = checkPwnedPasswords(logins(30), {
      baseUrl: standIn.origin,
      signal: controller.signal,
      retryDelaysMs: [60_000],
      onWaiting: (message) => {
        waiting.push(message);
        controller.abort();
      },
    });
    await expect(pass).rejects.toMatchObject({ code: 'cancelled' });
    expect(waiting).toEqual([expect.stringMatching(WAITING)]);

    // A sleep that never ends and ignores the signal: still cancelled at once.
    const second = new AbortController();
    const stuck = checkPwnedPasswords(logins(30), {
      baseUrl: standIn.origin,
      signal: second.signal,
      sleep: () => new Promise<void>(() => undefined),
      onWaiting: () => second.abort(),
    });
    await expect(stuck).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('an already cancelled signal asks nothing', async () => {
    await expect(checkPwnedPasswords(logins(5), { baseUrl: standIn.origin, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'cancelled' });
    expect(standIn.requests).toHaveLength(0);
  });

  it('an answer it cannot read fails the pass in words, without waiting; so does a refusal (a wrong address)', async () => {
    standIn.behaviour = 'garbage';
    const { delays, sleep } = recordedSleep();
    const waiting: Array<string | null> = [];
    const pass = checkPwnedPasswords(logins(30), { baseUrl: standIn.origin, sleep, onWaiting: (message) => waiting.push(message) });
    await expect(pass).rejects.toMatchObject({ code: 'unavailable', message: 'Pwned Passwords sent an answer this app cannot read (line 1). Check the address in Settings.' });
    expect(delays).toEqual([]);
    expect(waiting).toEqual([]);

    standIn.behaviour = 'answer';
    await expect(checkPwnedPasswords(logins(3), { baseUrl: `${standIn.origin}/not-the-api`, sleep })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/^Pwned Passwords answered 404\./),
    });
    expect(delays).toEqual([]);
  });

  it('no passwords: no request, an empty answer', async () => {
    const progress: Array<{ done: number; total: number }> = [];
    expect(await checkPwnedPasswords(new Map(), { baseUrl: standIn.origin, onProgress: (p) => progress.push(p) })).toEqual(new Map());
    expect(progress).toEqual([{ done: 0, total: 0 }]);
    expect(standIn.requests).toHaveLength(0);
  });

  it('2,000 distinct passwords: every count right, each distinct prefix asked once', async () => {
    const passwords = logins(2000, 'many');
    standIn.setSeen(new Map([...passwords.values()].filter((_, i) => i % 7 === 0).map((password, i) => [password, 1000 + i])));
    let last = { done: 0, total: 0 };
    const counts = await checkPwnedPasswords(passwords, { baseUrl: standIn.origin, onProgress: (p) => (last = p) });
    expect(last).toEqual({ done: 2000, total: 2000 });
    expect(counts.size).toBe(2000);
    for (const [key, password] of passwords) expect(counts.get(key)).toBe(standIn.countOf(password));
    expect([...counts.values()].filter((count) => count > 0)).toHaveLength(Math.ceil(2000 / 7));
    const asked = prefixesAsked(standIn);
    expect(asked).toHaveLength(new Set(asked).size);
    expect(asked).toHaveLength(distinctPrefixes(passwords.values()));
    expect(standIn.maxInFlight).toBeLessThanOrEqual(DEFAULT_CONCURRENCY);
  }, 60_000);

  it('property: for any set of passwords, the keys are the input’s and each count is the stand-in’s truth', async () => {
    const password = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom(...SHARING.flat()));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ key: fc.string({ minLength: 1, maxLength: 12 }), password, seen: fc.option(fc.integer({ min: 1, max: 50_000_000 }), { nil: undefined }) }), {
          selector: (login) => login.key,
          maxLength: 40,
        }),
        fc.array(fc.constantFrom(...SHARING.flat()), { maxLength: 3 }),
        async (rows, seenElsewhere) => {
          const seen = new Map<string, number>(seenElsewhere.map((other) => [other, 11]));
          for (const row of rows) if (row.seen !== undefined) seen.set(row.password, row.seen);
          standIn.setSeen(seen);
          const passwords = new Map(rows.map((row) => [row.key, row.password]));
          const counts = await checkPwnedPasswords(passwords, { baseUrl: standIn.origin, concurrency: 3 });
          expect([...counts.keys()].sort()).toEqual([...passwords.keys()].sort());
          for (const [key, value] of passwords) expect(counts.get(key)).toBe(standIn.countOf(value));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('property: outages of any kind at any point, at any concurrency, leave the answer complete and right', async () => {
    const base = logins(40, 'outage');
    standIn.setSeen(new Map([...base.values()].filter((_, i) => i % 4 === 0).map((password, i) => [password, i + 1])));
    const prefixes = distinctPrefixes(base.values());
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ atDone: fc.integer({ min: 0, max: 39 }), kind: fc.constantFrom('offline', 'server-error', 'rate-limited' as const), delays: fc.integer({ min: 1, max: 3 }) }), {
          maxLength: 3,
        }),
        fc.integer({ min: 1, max: 8 }),
        async (outages, concurrency) => {
          standIn.requests.length = 0;
          standIn.behaviour = 'answer';
          const pending = [...outages].sort((a, b) => a.atDone - b.atDone);
          let backAfter = 0;
          const waiting: Array<string | null> = [];
          const counts = await checkPwnedPasswords(base, {
            baseUrl: standIn.origin,
            concurrency,
            retryDelaysMs: [1],
            sleep: () => {
              if (--backAfter === 0) standIn.behaviour = 'answer';
              return Promise.resolve();
            },
            onWaiting: (message) => waiting.push(message),
            onProgress: ({ done }) => {
              if (standIn.behaviour !== 'answer' || pending.length === 0 || pending[0]!.atDone > done) return;
              const outage = pending.shift()!;
              standIn.behaviour = outage.kind;
              standIn.retryAfterSeconds = undefined;
              backAfter = outage.delays;
            },
          });
          standIn.behaviour = 'answer';
          expect(counts.size).toBe(base.size);
          for (const [key, password] of base) expect(counts.get(key)).toBe(standIn.countOf(password));
          // Every wait ended with null, and nothing was said after the last one.
          if (waiting.length > 0) expect(waiting.at(-1)).toBeNull();
          const answered = standIn.requests.filter((request) => request.headers['add-padding'] === 'true');
          expect(new Set(answered.map((request) => request.path)).size).toBe(prefixes);
        },
      ),
      { numRuns: 20 },
    );
  }, 60_000);
});
