// One `retry-after: 999999999` from Have I Been Pwned holds the service a day at most (said once,
// then it asks again), and a hold stored by an earlier run is brought back within a day at start:
// on SQLite and on PostgreSQL, against the HIBP stand-in on a simulated clock.
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/log.ts';
import { KEY, startAgainst, tempDir } from '../../support/hibpService.ts';
import { SCENARIO_START } from '../../support/hibpScenarios.ts';
import { HibpStandIn } from '../../support/hibpStandIn.ts';
import { serviceStores } from '../../support/postgres.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const DAY = 24 * 3600 * 1000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function captureLines(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, destination };
}

describe.each(await serviceStores())('a retry-after of 999999999 on $name', (kind) => {
  if (!kind.available) {
    it.skip('PostgreSQL could not start (see the message above)', () => {});
    return;
  }

  it('holds the service a day at most, said once; the service then asks again', async () => {
    const clock = new SimulatedClock(SCENARIO_START, 2);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts: { 'alice@example.com': ['Adobe'] }, now: () => clock.now() });
    // One 429 asking for 31 years; the stand-in then keeps the key waiting that long, as HIBP would.
    let stormed = false;
    standIn.storm(() => (stormed ? undefined : ((stormed = true), 999_999_999)));
    const { lines, destination } = captureLines();
    const service = await startAgainst(
      standIn,
      clock,
      { dataDir: tempDir('hibp-retry-after-', dirs), hibpApiKey: KEY, ...(await kind.serviceOptions()) },
      createLogger({ level: 'info', destination }),
    );
    try {
      const state = await service.breachData.lookups!.state();
      expect(state.blockedUntil).toBeGreaterThan(clock.now());
      expect(state.blockedUntil).toBeLessThanOrEqual(clock.now() + DAY);
      expect(state.problem).toMatchObject({ code: 'rate-limited' });
      const keyed = () => standIn.requests.filter((r) => r.key !== undefined);
      expect(keyed().map((r) => r.status)).toEqual([429]);

      // Three simulated days: asked again about once a day (each 429 holding it a day more), never more often.
      await clock.advanceBy(3 * DAY + 60_000);
      expect(keyed().length).toBeGreaterThanOrEqual(3);
      expect(keyed().length).toBeLessThanOrEqual(4);
      expect(keyed().every((r) => r.status === 429)).toBe(true);
      expect(lines.filter((line) => line.includes('retry-after asked to wait'))).toHaveLength(1);
    } finally {
      await service.close();
      await standIn.close();
    }
  }, 60_000);

  it('a hold stored by an earlier run is brought back within a day at start', async () => {
    const clock = new SimulatedClock(SCENARIO_START, 2);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } }, accounts: { 'alice@example.com': ['Adobe'] }, now: () => clock.now() });
    const config = { dataDir: tempDir('hibp-stored-hold-', dirs), hibpApiKey: KEY, ...(await kind.serviceOptions()) };
    const first = await startAgainst(standIn, clock, config);
    // What a run before this bound stored: a hold until 2058.
    await first.breachData.lookups!.updateState({ blockedUntil: clock.now() + 999_999_999_000, backoffUntil: clock.now() + 999_999_999_000 });
    await first.close();
    const { lines, destination } = captureLines();
    const second = await startAgainst(standIn, clock, config, createLogger({ level: 'info', destination }));
    try {
      const state = await second.breachData.lookups!.state();
      expect(state.blockedUntil).toBeLessThanOrEqual(clock.now() + DAY);
      expect(state.backoffUntil).toBeLessThanOrEqual(clock.now() + DAY);
      expect(lines.some((line) => line.includes('lasted longer than a day'))).toBe(true);
    } finally {
      await second.close();
      await standIn.close();
    }
  }, 60_000);
});

describe('the idle service after a retry-after of 999999999 (real clock)', () => {
  it('sleeps: no timer armed for 1 ms, no request, no log line per turn', async () => {
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
    standIn.storm(() => 999_999_999);
    const { lines, destination } = captureLines();
    let overflows = 0;
    const onWarning = (warning: Error) => {
      if (warning.name === 'TimeoutOverflowWarning') overflows++;
    };
    process.on('warning', onWarning);
    const service = await startAgainst(standIn, undefined, { dataDir: tempDir('hibp-idle-', dirs), hibpApiKey: KEY }, createLogger({ level: 'info', destination }));
    try {
      const linesAtStart = lines.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(overflows).toBe(0);
      expect(standIn.requests.filter((r) => r.key !== undefined)).toHaveLength(1);
      expect(lines.length - linesAtStart).toBeLessThanOrEqual(1);
    } finally {
      process.off('warning', onWarning);
      await service.close();
      await standIn.close();
    }
  });
});
