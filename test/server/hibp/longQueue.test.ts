// A long lookup queue (a new breach at a million people makes every address due) is counted for a
// person's checks at most every few seconds per instance, not on every answer: counting reads every
// waiting row (issue 39, `npm run bench:scale`). A short queue is counted on every answer.
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../server/app.ts';
import { MONITORED_WITHIN_MS } from '../../../server/hibp/LookupStore.ts';
import { SERVICE_DB_FILE } from '../../../server/openStorage.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { checks, KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const START = Date.parse('2026-03-02T09:00:00Z');
const dirs: string[] = [];
const running: { service?: RunningService; standIn?: HibpStandIn } = {};
afterEach(async () => {
  await running.service?.close();
  await running.standIn?.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `count` addresses waiting for their first lookup, added before anyone else's, straight into the service's database. */
function addWaiting(file: string, from: number, count: number): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO address_checks (email, domain, added_at, seen_at, due_at, via_domain) SELECT 'q' || i || '@queue.example', 'queue.example', ?, ?, ?, 0 FROM n`,
    ).run(from, from + count, START - 1, START, START);
  } finally {
    db.close();
  }
}

function waitingInStore(file: string, now: number): number {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare('SELECT count(*) FROM address_checks WHERE via_domain = 0 AND due_at <= ? AND (checked_at IS NULL OR seen_at >= ?)')
      .pluck()
      .get(now, now - MONITORED_WITHIN_MS) as number;
  } finally {
    db.close();
  }
}

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP long queue'))('a long lookup queue in the checks', () => {
  it('counts a short queue on every answer, and reuses a count of 10,000 or more for a while', async () => {
    const clock = new SimulatedClock(START, 1);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 1 } }, now: () => clock.now() });
    running.standIn = standIn;
    const dataDir = tempDir('hibp-long-queue-', dirs);
    const service = await startAgainst(standIn, clock, { dataDir, hibpApiKey: KEY, catalogFile: HIBP_FIXTURE_CATALOG });
    running.service = service;
    const file = path.join(dataDir, SERVICE_DB_FILE);
    const token = await signIn(service, 'carol', ['carol@example.org']);
    await clock.settle();

    // Short: every answer counts again.
    const short = (await checks(service, token)).body.queue.waiting;
    addWaiting(file, 0, 5);
    expect((await checks(service, token)).body.queue.waiting).toBe(short + 5);

    // Long: the count is reused while the queue moves on…
    addWaiting(file, 5, 10_000);
    const long = (await checks(service, token)).body.queue.waiting;
    expect(long).toBe(short + 10_005);
    addWaiting(file, 10_005, 7);
    expect((await checks(service, token)).body.queue.waiting).toBe(long);

    // …and counted again once its time is up (a minute later here; the lookup made meanwhile is counted too).
    await clock.advanceBy(60_000);
    await clock.settle();
    expect((await checks(service, token)).body.queue.waiting).toBe(waitingInStore(file, clock.now()));
  });
});
