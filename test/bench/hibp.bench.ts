// npm run bench:hibp — the lookup queue against the HIBP stand-in on a simulated clock (minutes
// of demand in seconds): lookups per minute under a 429 storm against the key's Rpm (floor: the
// Rpm, the most the key allows), the busiest 60 s window, and the time from one person's first
// sign-in until all 20 of their addresses are checked at Rpm 10 (floor: the earliest the budget
// allows, the status read at start included).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { slotTime } from '../../server/hibp/HibpExposures.ts';
import { WINDOW_MARGIN_MS } from '../../server/hibp/index.ts';
import { RATE_WINDOW_MS } from '../../server/hibp/LookupQueue.ts';
import { runStorm, timeToAllChecked } from '../support/hibpScenarios.ts';

const RPM = 10;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-hibp-'));
  try {
    const storm = await runStorm({ dataDir: path.join(dir, 'storm'), rpm: RPM, addresses: 50, stormMinutes: 3 });
    const violations = storm.standIn.requestsBeforeRetryAfter().length;
    if (violations > 0) throw new Error(`${violations} requests went before a retry-after had passed`);
    const first = await timeToAllChecked({ dataDir: path.join(dir, 'first'), rpm: RPM, addresses: 20 });
    const windowMs = RATE_WINDOW_MS + WINDOW_MARGIN_MS;
    // The status read at start took a place; 20 lookups follow as the budget allows.
    const floorMs = slotTime([0], 19, 0, RPM, windowMs);

    console.log(`\n429 storm: 50 addresses, Rpm ${RPM}, a third of requests refused (retry-after 1–20 s) for 3 minutes`);
    console.log(`  ${storm.lookups} lookups in ${(storm.durationMs / 60_000).toFixed(2)} simulated minutes, ${storm.refused} answered 429, busiest minute ${storm.busiestMinute} requests`);
    console.log(`first sign-in with 20 addresses at Rpm ${RPM}: all checked after ${(first.durationMs / 1000).toFixed(1)} s (floor ${floorMs / 1000} s)`);
    for (const point of first.timeline) console.log(`  +${String(point.atMs / 1000).padStart(5)} s  pending ${String(point.pending).padStart(2)}  next check ${point.nextCheckAt ?? '-'}`);

    const round = (n: number) => Math.round(n * 100) / 100;
    const lookupsPerMinute = round(storm.lookupsPerMinute);
    const metrics = {
      storm_lookups_per_minute: { value: lookupsPerMinute, unit: 'lookups/min', floor: RPM, ratio: round(lookupsPerMinute / RPM) },
      storm_busiest_minute: { value: storm.busiestMinute, unit: 'requests', floor: RPM, ratio: round(storm.busiestMinute / RPM) },
      first_signin_20_addresses_rpm10: { value: round(first.durationMs / 1000), unit: 's', floor: floorMs / 1000, ratio: round(first.durationMs / floorMs) },
    };
    console.log(JSON.stringify({ bench: 'hibp', metrics }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
