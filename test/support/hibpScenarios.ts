// Scenarios of demand on the lookup queue against the HIBP stand-in, on a simulated clock: shared
// by the tests (which assert the rules) and by `npm run bench:hibp` (which reports the figures).
import { createRng } from '../../server/catalog/prng.ts';
import type { RunningService } from '../../server/app.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from './hibpStandIn.ts';
import { breaches, checks, KEY, signIn, startAgainst } from './hibpService.ts';
import { SimulatedClock } from './simulatedClock.ts';

export const SCENARIO_START = Date.parse('2026-03-02T09:00:00Z');
const BREACH_NAMES = ['Adobe', 'LinkedIn', 'Dropbox', 'Canva', 'Gawker', 'MySpace', '000webhost'];

/** `count` addresses on one domain, each in a few of the well-known breaches, or none (every fifth one). */
export function scenarioAccounts(count: number): Record<string, string[]> {
  const rng = createRng(count);
  const accounts: Record<string, string[]> = {};
  for (let i = 0; i < count; i++) accounts[`person${String(i).padStart(2, '0')}@example.org`] = i % 5 === 0 ? [] : BREACH_NAMES.filter(() => rng.chance(0.4));
  return accounts;
}

/** Signs in subjects of up to 20 addresses each (the contract's limit) until all `emails` are monitored; their tokens. */
export async function signInAll(service: RunningService, emails: readonly string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < emails.length; i += 20) tokens.push(await signIn(service, `person-group-${i / 20}`, emails.slice(i, i + 20)));
  return tokens;
}

export async function pendingOf(service: RunningService, tokens: readonly string[]): Promise<number> {
  let pending = 0;
  for (const token of tokens) pending += (await breaches(service, token)).pending ?? 0;
  return pending;
}

export interface StormResult {
  standIn: HibpStandIn;
  rpm: number;
  /** Simulated milliseconds from the first sign-in until every address was checked. */
  durationMs: number;
  lookups: number;
  refused: number;
  /** Successful account lookups per simulated minute over the run. */
  lookupsPerMinute: number;
  busiestMinute: number;
}

/**
 * 50 addresses signed in at once on a key of `rpm`, while another client sharing the key makes
 * HIBP answer 429 (retry-after 1–20 s) to a third of the requests for the first `stormMinutes`.
 */
export async function runStorm(options: { dataDir: string; rpm: number; addresses: number; stormMinutes: number; databaseUrl?: string }): Promise<StormResult> {
  const clock = new SimulatedClock(SCENARIO_START, 1);
  const accounts = scenarioAccounts(options.addresses);
  const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: options.rpm } }, accounts, now: () => clock.now() });
  const rng = createRng(7);
  standIn.storm((now) => (now < SCENARIO_START + options.stormMinutes * 60_000 && rng.chance(1 / 3) ? rng.int(1, 20) : undefined));
  let service: RunningService | undefined;
  try {
    service = await startAgainst(standIn, clock, {
      dataDir: options.dataDir,
      hibpApiKey: KEY,
      catalogFile: HIBP_FIXTURE_CATALOG,
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    });
    const started = clock.now();
    const tokens = await signInAll(service, Object.keys(accounts));
    await clock.settle();
    const durationMs = await clock.runUntil(async () => (await pendingOf(service!, tokens)) === 0, 60 * 60_000);
    const lookups = standIn.requests.filter((r) => r.path.startsWith('breachedaccount/') && (r.status === 200 || r.status === 404)).length;
    return {
      standIn,
      rpm: options.rpm,
      durationMs: clock.now() - started,
      lookups,
      refused: standIn.requests.filter((r) => r.status === 429).length,
      lookupsPerMinute: lookups / (durationMs / 60_000),
      busiestMinute: standIn.busiestMinute(KEY),
    };
  } finally {
    await service?.close();
    await standIn.close();
  }
}

/** Time from the first sign-in of one person with `addresses` addresses until all are checked, at `rpm`. */
export async function timeToAllChecked(options: {
  dataDir: string;
  rpm: number;
  addresses: number;
}): Promise<{ durationMs: number; requests: number; timeline: { atMs: number; pending: number; nextCheckAt: string | null }[] }> {
  const clock = new SimulatedClock(SCENARIO_START, 1);
  const accounts = scenarioAccounts(options.addresses);
  const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: options.rpm } }, accounts, now: () => clock.now() });
  let service: RunningService | undefined;
  try {
    service = await startAgainst(standIn, clock, { dataDir: options.dataDir, hibpApiKey: KEY, catalogFile: HIBP_FIXTURE_CATALOG });
    const started = clock.now();
    const token = await signIn(service, 'one-person', Object.keys(accounts));
    await clock.settle();
    // What the person's app is told meanwhile, every 10 simulated seconds.
    const timeline: { atMs: number; pending: number; nextCheckAt: string | null }[] = [];
    await clock.runUntil(
      async () => {
        const known = await checks(service!, token);
        if ((clock.now() - started) % 10_000 === 0) timeline.push({ atMs: clock.now() - started, pending: known.pending ?? 0, nextCheckAt: known.body.queue.nextCheckAt });
        return known.pending === 0;
      },
      60 * 60_000,
      500,
    );
    return { durationMs: clock.now() - started, requests: standIn.requests.length, timeline };
  } finally {
    await service?.close();
    await standIn.close();
  }
}
