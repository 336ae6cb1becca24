// Two instances of the service on one PostgreSQL share one lookup queue and one rate budget: with
// addresses signed in on both, in a 429 storm, the key never sees more than its Rpm in any
// minute, and a retry-after one instance was told holds the other back too.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../server/app.ts';
import { createRng } from '../../../server/catalog/prng.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { pendingOf, SCENARIO_START, scenarioAccounts } from '../../support/hibpScenarios.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP shared budget'))('two instances on one PostgreSQL', () => {
  const postgres = usePrivatePostgres();
  beforeEach((ctx) => {
    if (!postgres.server()) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  it('share one budget: never more than Rpm a minute between them, and a 429 told to one holds back both', async () => {
    const databaseUrl = await postgres.server()!.createDatabase();
    const dataDir = tempDir('hibp-shared-', dirs);
    const clock = new SimulatedClock(SCENARIO_START, 2);
    const accounts = scenarioAccounts(40);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts, now: () => clock.now() });
    const rng = createRng(11);
    standIn.storm((now) => (now < SCENARIO_START + 2 * 60_000 && rng.chance(0.25) ? rng.int(2, 15) : undefined));
    let a: RunningService | undefined;
    let b: RunningService | undefined;
    try {
      a = await startAgainst(standIn, clock, { dataDir: path.join(dataDir, 'a'), hibpApiKey: KEY, catalogFile: HIBP_FIXTURE_CATALOG, databaseUrl });
      b = await startAgainst(standIn, clock, { dataDir: path.join(dataDir, 'b'), hibpApiKey: KEY, catalogFile: HIBP_FIXTURE_CATALOG, databaseUrl, identityOrigin: a.url });
      const emails = Object.keys(accounts);
      const tokenA = await signIn(a, 'on-a', emails.slice(0, 20));
      const tokenB = await signIn(b, 'on-b', emails.slice(20));
      await clock.settle();
      const took = await clock.runUntil(async () => (await pendingOf(a!, [tokenA])) + (await pendingOf(b!, [tokenB])) === 0, 30 * 60_000);

      expect(standIn.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
      expect(standIn.requestsBeforeRetryAfter()).toEqual([]);
      expect(standIn.busiestMinute(KEY)).toBeLessThanOrEqual(10);
      expect(standIn.requests.filter((r) => r.path.startsWith('breachedaccount/') && r.status !== 429)).toHaveLength(40);
      // 40 lookups and 2 status reads at 10 a minute between them: at least 4 minutes, whoever sent them.
      expect(took).toBeGreaterThanOrEqual(4 * 60_000);
    } finally {
      await b?.close();
      await a?.close();
      await standIn.close();
    }
  }, 180_000);
});
