// The lookup queue stays within the key's rate limit whatever HIBP answers: over a storm of 429s
// (another client sharing the key) with 50 addresses waiting, no request goes before a
// retry-after has passed and no 60 s window holds more than Rpm requests; 5xx answers and
// timeouts make it back off. On a simulated clock, against the HIBP stand-in.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { breaches, checks, KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { runStorm, SCENARIO_START } from '../../support/hibpScenarios.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP rate budget'))('the rate budget', () => {
  it('under a 429 storm with 50 addresses: nothing before retry-after, never more than Rpm in any minute, every address checked', async () => {
    const result = await runStorm({ dataDir: tempDir('hibp-storm-', dirs), rpm: 10, addresses: 50, stormMinutes: 3 });
    // Demand lasted well over 3 simulated minutes (50 lookups at 10 a minute, and the storm).
    expect(result.durationMs).toBeGreaterThanOrEqual(3 * 60_000);
    expect(result.refused).toBeGreaterThan(0);
    expect(result.standIn.requestsBeforeRetryAfter()).toEqual([]);
    expect(result.busiestMinute).toBeLessThanOrEqual(10);
    expect(result.lookups).toBe(50);
  }, 120_000);

  it('keeps the queue and a retry-after hold across a restart: pending addresses are checked, nothing goes before the hold ends', async () => {
    const clock = new SimulatedClock(SCENARIO_START, 1);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 100 } }, accounts: { 'a@example.org': ['Adobe'], 'b@example.org': ['Canva'] }, now: () => clock.now() });
    const dataDir = tempDir('hibp-restart-', dirs);
    let service = await startAgainst(standIn, clock, { dataDir, hibpApiKey: KEY, catalogFile: HIBP_FIXTURE_CATALOG });
    try {
      // The first lookup is told to wait 5 minutes; the service stops meanwhile.
      standIn.storm(() => 300);
      await signIn(service, 'ab', ['a@example.org', 'b@example.org']);
      await clock.settle();
      standIn.storm(undefined);
      expect(standIn.requests.at(-1)).toMatchObject({ status: 429, retryUntil: SCENARIO_START + 300_000 });
      await service.close();

      clock.loops = 0; // nothing runs while the service is down
      await clock.advanceBy(60_000);
      clock.loops = 1;
      service = await startAgainst(standIn, clock, { dataDir, hibpApiKey: KEY, catalogFile: HIBP_FIXTURE_CATALOG });
      // Started a minute later, it waits out the hold before any request, the status read included.
      // (A new port is a new issuer: the person signs in again, which asks HIBP nothing.)
      const again = await signIn(service, 'ab', ['a@example.org', 'b@example.org']);
      await clock.settle();
      await clock.runUntil(async () => (await breaches(service, again)).pending === 0, 10 * 60_000);
      expect(standIn.requestsBeforeRetryAfter()).toEqual([]);
      const afterRestart = standIn.requests.filter((r) => r.at > SCENARIO_START);
      expect(afterRestart[0]!.at).toBe(SCENARIO_START + 300_000);
      expect(afterRestart.map((r) => r.path.split('?')[0]).sort()).toEqual(['breachedaccount/a%40example.org', 'breachedaccount/b%40example.org', 'subscription/status']);
    } finally {
      await service.close();
      await standIn.close();
    }
  });

  it('backs off on 5xx answers, growing the pause, and says the source cannot be reached meanwhile', async () => {
    const clock = new SimulatedClock(SCENARIO_START, 1);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 100 } }, accounts: { 'a@example.org': ['Adobe'] }, now: () => clock.now() });
    const service = await startAgainst(standIn, clock, { dataDir: tempDir('hibp-5xx-', dirs), hibpApiKey: KEY, catalogFile: HIBP_FIXTURE_CATALOG });
    try {
      standIn.failNext(503, 3);
      const token = await signIn(service, 'a', ['a@example.org']);
      await clock.settle();
      const during = await checks(service, token);
      expect(during.body.problem).toMatchObject({ code: 'source-unreachable' });
      expect(during.body.addresses[0]).toMatchObject({ state: 'pending' });
      await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 10 * 60_000);
      const attempts = standIn.requests.filter((r) => r.path.startsWith('breachedaccount/')).map((r) => r.at - SCENARIO_START);
      // 503 at 0 s, then after 5 s, 10 s and 20 s pauses; the fourth try answers.
      expect(attempts).toEqual([0, 5_000, 15_000, 35_000]);
      expect((await checks(service, token)).body.problem).toBeNull();
    } finally {
      await service.close();
      await standIn.close();
    }
  });
});
