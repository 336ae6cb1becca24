// npm run bench:scale — the service at a million people on PostgreSQL. For each size, a fresh
// database on a private PostgreSQL server, two service processes on it (as behind a load balancer,
// looking addresses up in the HIBP stand-in at Rpm 10), and N people with 2N addresses and their
// exposures seeded in bulk (test/bench/scale/seed.ts). Measured at each size:
//   typical_read_rps / _p99       GET /user/breaches of 2,000 people spread over all, across both instances
//   typical_read_*_all_due        the same while every address waits for its re-check (after a new breach)
//   queue_claim_p50 / _p99        the lookup queue's claim with N addresses waiting for their first lookup
//   queue_next_due, _waiting_count, _ahead_of   the queue's other reads (each worker turn, each person's checks; ahead as the service counts it)
//   catalog_add_one_ms            one breach added to the catalog (POST /__dev/breaches: store and details)
//   hibp_refresh_ms               HIBP's catalog refreshed with one new breach (the store's replacement)
//   hibp_due_again_ms             …which makes every address checked before it due again (decision 0125)
//   hibp_refresh_one_leaving_ms   HIBP's catalog refreshed with one seeded breach gone (its addresses' catalog changes)
//   new_breach_visible_ms         a new breach that 100,000 addresses are in written to all of them, as
//                                 the lookup queue writes each answer (8 at a time), and seen in reads
//   *_longest_transaction_ms      the longest transaction open during each write (pg_stat_activity)
//   bytes_per_person              pg_database_size / N
// `floor` is the same figure at 10,000 people, measured in the same run; `ratio` is value / floor
// (for req/s too: the target is ≥ 0.8 there, ≤ 1.5 for the claim). SCALE_PEOPLE sets N
// (1,000,000 by default; develop at 100,000), SCALE_FAN_OUT the new breach's addresses.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Breach } from '../../shared/api/index.ts';
import { dueForNewestBreach } from '../../server/hibp/CatalogRefresher.ts';
import { AHEAD_COUNTED_MINUTES } from '../../server/hibp/HibpExposures.ts';
import { DEFAULT_RPM } from '../../server/hibp/LookupQueue.ts';
import { openPostgresLookupStore, openPostgresBreachStoreAt } from '../support/storeOpeners.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../../tools/privatePostgres.ts';
import { HibpStandIn } from '../support/hibpStandIn.ts';
import { startProcess, stopProcess } from './processes.ts';
import { autovacuumDone, settle, timed } from './scale/longestTransaction.ts';
import { addressOf, breachesOf, makeWaiting, seedPeople, subOf } from './scale/seed.ts';
import { call, mintToken } from './seed.ts';

const FLOOR_PEOPLE = 10_000;
const PEOPLE = Number(process.env.SCALE_PEOPLE ?? 1_000_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const READERS = 2000;
const CONNECTIONS = 32;
/** SCALE_FAN_OUT: how many addresses the new breach reaches (100,000; fewer for a quick run). */
const FAN_OUT = Number(process.env.SCALE_FAN_OUT ?? 100_000);
const WRITERS = 8;
const CLAIMS = 300;
const KEY = '0123456789abcdef0123456789abcdef';
const READY = /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;
const DAY_MS = 24 * 3600 * 1000;
/** SCALE_SLOW_MS: PostgreSQL logs every statement slower than this, copied to SLOW_LOG at the end. */
const SLOW_MS = process.env.SCALE_SLOW_MS === undefined ? undefined : Number(process.env.SCALE_SLOW_MS);
const SLOW_LOG = path.join(tmpdir(), 'bench-scale-postgres.log');
const BREACHES_PATH = '/api/v1/user/breaches?includeSensitive=true';

interface Figures {
  people: number;
  seedS: number;
  readRps: number;
  readP50: number;
  readP99: number;
  claimP50: number;
  claimP99: number;
  nextDueP50: number;
  waitingCountP50: number;
  aheadOfP50: number;
  removalMs: number;
  removalLongestTxMs: number;
  readQueuedRps: number;
  readQueuedP99: number;
  catalogAddOneMs: number;
  catalogAddOneLongestTxMs: number;
  hibpRefreshMs: number;
  hibpDueMs: number;
  hibpDueCount: number;
  hibpLongestTxMs: number;
  dueLongestTxMs: number;
  followUpLongestTxMs: number;
  fanOut: number;
  visibleMs: number;
  visibleLongestTxMs: number;
  bytesPerPerson: number;
}

const log = (line: string) => console.log(line);

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `work` on every item, `parallel` at a time. */
async function eachParallel<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** A breach that is in nothing yet, added to the catalog at `now` (minute precision, as HIBP's). */
function newBreach(id: string, now: number): Breach {
  const at = new Date(Math.floor(now / 60_000) * 60_000).toISOString().replace('.000Z', 'Z');
  return { id, domain: `${id.toLowerCase()}.example`, breachDate: at.slice(0, 10), addedDate: at, modifiedDate: at, dataClasses: ['Email addresses', 'Passwords'], isSensitive: false };
}

async function startInstances(dataDir: string, databaseUrl: string, hibpUrl: string): Promise<{ origins: string[]; children: Awaited<ReturnType<typeof startProcess>>['child'][] }> {
  const origins: string[] = [];
  const children = [];
  for (let index = 0; index < 2; index++) {
    const args = ['server/main.ts', '--port', '0', '--dev', '--data', path.join(dataDir, `instance-${index}`), '--log-level', 'warn', '--database-url', databaseUrl];
    args.push('--hibp-api-key', KEY, '--hibp-url', hibpUrl);
    if (origins[0]) args.push('--identity-origin', origins[0]);
    const started = await startProcess(args, READY);
    children.push(started.child);
    origins.push(started.match[1]!);
  }
  return { origins, children };
}

/** The seeded breaches: HIBP's catalog (the stand-in's, loaded by the instances at start) with email addresses. */
async function seededBreachIds(client: pg.Client): Promise<string[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM breaches WHERE data_classes ? 'Email addresses' ORDER BY id COLLATE "C"`);
    if (rows.length > 0) return rows.map((row) => row.id);
    if (Date.now() > until) throw new Error('the instances did not load the catalog within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function measureReads(origins: string[], tokens: readonly string[]): Promise<{ rps: number; p50: number; p99: number }> {
  let next = 0;
  const options = {
    url: origins as unknown as string, // autocannon spreads connections over a list of URLs; its types say string
    connections: CONNECTIONS,
    requests: [
      { method: 'GET' as const, path: BREACHES_PATH, setupRequest: (request: autocannon.Request) => ({ ...request, headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}` } }) },
    ],
  };
  // Warm-up: JIT, connections, and each reader's first (uncached) answer on both instances.
  await autocannon({ ...options, duration: 3 });
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`reads: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function measureSize(postgres: PrivatePostgres, standIn: HibpStandIn, people: number): Promise<Figures> {
  log(`\n${people.toLocaleString('en')} people, ${(2 * people).toLocaleString('en')} addresses`);
  const databaseUrl = await postgres.createDatabase(`scale_${people}_${Date.now().toString(36)}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-scale-'));
  const { origins, children } = await startInstances(dataDir, databaseUrl, standIn.url);
  const origin = origins[0]!;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const store = await openPostgresBreachStoreAt({ url: databaseUrl, poolSize: WRITERS + 2 });
  const lookups = openPostgresLookupStore({ url: databaseUrl });
  try {
    const ids = await seededBreachIds(client);
    const seedMs = await seedPeople(client, people, ids, Date.now(), log);
    const addresses = 2 * people;

    await settle(databaseUrl);
    await autovacuumDone(databaseUrl);
    const readers = Array.from({ length: Math.min(READERS, people) }, (_, i) => Math.floor((i * people) / Math.min(READERS, people)));
    const tokens: string[] = [];
    await eachParallel(readers, 16, async (person) => void tokens.push(await mintToken(origin, subOf(person))));
    const reads = await measureReads(origins, tokens);
    log(`  reads: ${reads.rps.toFixed(0)} req/s, p50 ${reads.p50} ms, p99 ${reads.p99} ms`);

    await settle(databaseUrl);
    // One breach into the catalog through the service (store, details feed, search index): the median of five.
    const adds: { ms: number; longestTransactionMs: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const breach = newBreach(`ScaleAdded${i}`, Date.now());
      adds.push(await timed(databaseUrl, () => call(origin, 'POST', '/__dev/breaches', breach)));
    }
    const catalogAddOneMs = percentile(
      adds.map((add) => add.ms),
      50,
    );
    log(`  one breach added: ${catalogAddOneMs.toFixed(1)} ms (median of 5)`);

    await settle(databaseUrl);
    // HIBP's catalog refreshed with one new breach, as CatalogRefresher applies it.
    const now = Date.now();
    const added = newBreach('ScaleNew', now);
    const catalog = [...(await store.listBreaches()), added];
    const refresh = await timed(databaseUrl, () => store.replaceCatalog(catalog, { origin: 'hibp', file: null, at: new Date(now).toISOString() }));
    // What the replacement sets off in the instances (the search index and graph follow the catalog), over before the next step.
    const followUp = await timed(databaseUrl, () => settle(databaseUrl, 1000, 300_000));
    const due = await timed(databaseUrl, () => dueForNewestBreach(catalog, lookups, Date.now()));
    log(`  HIBP refresh with one new breach: ${refresh.ms.toFixed(0)} ms (longest transaction ${refresh.longestTransactionMs.toFixed(0)} ms: ${refresh.longestQuery})`);
    log(`  ${due.result} addresses due again in ${due.ms.toFixed(0)} ms (longest transaction ${due.longestTransactionMs.toFixed(0)} ms: ${due.longestQuery})`);
    log(`  the instances followed the new catalog (search index, graph) within ${(followUp.ms / 1000).toFixed(1)} s; longest transaction ${followUp.longestTransactionMs.toFixed(0)} ms`);

    // Reads while every address waits for its re-check (each answer's checks count the queue and the places ahead).
    const readsQueued = await measureReads(origins, tokens);
    log(`  reads with ${due.result} addresses due: ${readsQueued.rps.toFixed(0)} req/s, p50 ${readsQueued.p50} ms, p99 ${readsQueued.p99} ms`);

    await settle(databaseUrl);
    // The new breach reaches 100,000 addresses (all of them on a smaller run): each answer written as the queue writes it.
    const fanOut = Math.min(FAN_OUT, addresses);
    const step = Math.floor(addresses / fanOut);
    const reached = Array.from({ length: fanOut }, (_, i) => i * step);
    const visible = await timed(databaseUrl, () =>
      eachParallel(reached, WRITERS, async (a) => {
        const names = [...breachesOf(a, ids), added.id];
        await store.setExposures(addressOf(a), names);
        const at = Date.now();
        await lookups.accountChecked(addressOf(a), at, names.length, at + 7 * DAY_MS);
      }),
    );
    for (const a of [reached[0]!, reached[Math.floor(fanOut / 2)]!, reached.at(-1)!]) {
      const token = await mintToken(origins[1]!, subOf(a >> 1));
      const list = (await (await call(origins[1]!, 'GET', BREACHES_PATH, undefined, token)).json()) as { breachId?: string; id?: string; name?: string }[];
      if (!JSON.stringify(list).includes(`"${added.id}"`)) throw new Error(`${subOf(a >> 1)} does not see ${added.id} after it was written`);
    }
    log(`  new breach visible to ${fanOut} addresses: ${(visible.ms / 1000).toFixed(1)} s; longest transaction ${visible.longestTransactionMs.toFixed(0)} ms (${visible.longestQuery})`);

    // The queue with N addresses waiting for their first lookup.
    await makeWaiting(client, addresses, people, Date.now());
    await settle(databaseUrl);
    const claims: number[] = [];
    const nextDues: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < CLAIMS; i++) {
      const at = Date.now();
      let started = performance.now();
      const job = await lookups.claim(at, at + 120_000, 'bench-scale', false);
      claims.push(performance.now() - started);
      if (job?.kind !== 'account') throw new Error(`claim ${i}: expected an address, got ${JSON.stringify(job)}`);
      if (i % 10 === 0) {
        started = performance.now();
        await lookups.nextDue(at, false);
        nextDues.push(performance.now() - started);
        started = performance.now();
        await lookups.waiting(at, false);
        counts.push(performance.now() - started);
      }
    }
    const aheads: number[] = [];
    const waitingStep = Math.max(1, Math.floor(addresses / people));
    for (let k = 0; k < 20; k++) {
      const started = performance.now();
      await lookups.aheadOf(addressOf(waitingStep * Math.floor((k * people) / 20)), Date.now(), DEFAULT_RPM * AHEAD_COUNTED_MINUTES);
      aheads.push(performance.now() - started);
    }
    log(`  claim with ${people} waiting: p50 ${percentile(claims, 50).toFixed(2)} ms, p99 ${percentile(claims, 99).toFixed(2)} ms`);

    // HIBP retires a breach: its addresses (about 0.4% of them) get a catalog change each, in the replacement's transaction.
    await settle(databaseUrl);
    const leaving = ids[0]!;
    const remaining = (await store.listBreaches()).filter((breach) => breach.id !== leaving);
    const removal = await timed(databaseUrl, () => store.replaceCatalog(remaining, { origin: 'hibp', file: null, at: new Date().toISOString() }));
    const { rows: changed } = await client.query<{ n: string }>('SELECT count(*) AS n FROM catalog_changes');
    log(`  one breach leaving (${changed[0]!.n} addresses in it): ${removal.ms.toFixed(0)} ms (longest transaction ${removal.longestTransactionMs.toFixed(0)} ms: ${removal.longestQuery})`);
    await settle(databaseUrl, 1000, 300_000);

    const { rows } = await client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return {
      people,
      seedS: seedMs / 1000,
      readRps: reads.rps,
      readP50: reads.p50,
      readP99: reads.p99,
      claimP50: percentile(claims, 50),
      claimP99: percentile(claims, 99),
      nextDueP50: percentile(nextDues, 50),
      waitingCountP50: percentile(counts, 50),
      aheadOfP50: percentile(aheads, 50),
      removalMs: removal.ms,
      removalLongestTxMs: removal.longestTransactionMs,
      readQueuedRps: readsQueued.rps,
      readQueuedP99: readsQueued.p99,
      catalogAddOneMs,
      catalogAddOneLongestTxMs: Math.max(...adds.map((add) => add.longestTransactionMs)),
      hibpRefreshMs: refresh.ms,
      hibpDueMs: due.ms,
      hibpDueCount: due.result,
      hibpLongestTxMs: refresh.longestTransactionMs,
      dueLongestTxMs: due.longestTransactionMs,
      followUpLongestTxMs: followUp.longestTransactionMs,
      fanOut,
      visibleMs: visible.ms,
      visibleLongestTxMs: visible.longestTransactionMs,
      bytesPerPerson: Number(rows[0]!.bytes) / people,
    };
  } finally {
    await lookups.close();
    await store.close();
    await client.end();
    for (const child of children) await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(big: Figures, floor: Figures): void {
  const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
  const metric = (unit: string, value: number, floorValue: number) => ({ value: round(value), unit, floor: round(floorValue), ratio: round(value / Math.max(floorValue, 0.01)) });
  console.log(`\nfigures at ${big.people.toLocaleString('en')} people beside ${floor.people.toLocaleString('en')} (the floor), same run:`);
  const rows: [string, number, number, string][] = [
    ['seeding', big.seedS, floor.seedS, 's'],
    ['typical read', big.readRps, floor.readRps, 'req/s'],
    ['typical read p99', big.readP99, floor.readP99, 'ms'],
    ['typical read, all addresses due', big.readQueuedRps, floor.readQueuedRps, 'req/s'],
    ['typical read p99, all addresses due', big.readQueuedP99, floor.readQueuedP99, 'ms'],
    ['claim p50', big.claimP50, floor.claimP50, 'ms'],
    ['claim p99', big.claimP99, floor.claimP99, 'ms'],
    ['queue nextDue p50', big.nextDueP50, floor.nextDueP50, 'ms'],
    ['queue waiting count p50', big.waitingCountP50, floor.waitingCountP50, 'ms'],
    ['queue places ahead of an address p50', big.aheadOfP50, floor.aheadOfP50, 'ms'],
    ['one breach added', big.catalogAddOneMs, floor.catalogAddOneMs, 'ms'],
    ['HIBP refresh, one new breach', big.hibpRefreshMs, floor.hibpRefreshMs, 'ms'],
    ['HIBP refresh, one breach leaving', big.removalMs, floor.removalMs, 'ms'],
    [`  addresses due again (${big.hibpDueCount} / ${floor.hibpDueCount})`, big.hibpDueMs, floor.hibpDueMs, 'ms'],
    [`new breach visible (${big.fanOut} / ${floor.fanOut} addresses)`, big.visibleMs, floor.visibleMs, 'ms'],
    [
      'longest transaction, any write',
      Math.max(big.catalogAddOneLongestTxMs, big.hibpLongestTxMs, big.dueLongestTxMs, big.visibleLongestTxMs),
      Math.max(floor.catalogAddOneLongestTxMs, floor.hibpLongestTxMs, floor.dueLongestTxMs, floor.visibleLongestTxMs),
      'ms',
    ],
    ['longest transaction, catalog follow-up', big.followUpLongestTxMs, floor.followUpLongestTxMs, 'ms'],
    ['database bytes per person', big.bytesPerPerson, floor.bytesPerPerson, 'B'],
  ];
  for (const [name, value, floorValue, unit] of rows) console.log(`  ${name.padEnd(44)} ${value.toFixed(1).padStart(12)} ${floorValue.toFixed(1).padStart(12)}  ${unit}`);
  const metrics = {
    typical_read_rps: metric('req/s', big.readRps, floor.readRps),
    typical_read_p99: metric('ms', big.readP99, floor.readP99),
    typical_read_rps_all_due: metric('req/s', big.readQueuedRps, floor.readQueuedRps),
    typical_read_p99_all_due: metric('ms', big.readQueuedP99, floor.readQueuedP99),
    queue_claim_p50: metric('ms', big.claimP50, floor.claimP50),
    queue_claim_p99: metric('ms', big.claimP99, floor.claimP99),
    queue_next_due_p50: metric('ms', big.nextDueP50, floor.nextDueP50),
    queue_waiting_count_p50: metric('ms', big.waitingCountP50, floor.waitingCountP50),
    queue_ahead_of_p50: metric('ms', big.aheadOfP50, floor.aheadOfP50),
    catalog_add_one_ms: metric('ms', big.catalogAddOneMs, floor.catalogAddOneMs),
    hibp_refresh_ms: metric('ms', big.hibpRefreshMs, floor.hibpRefreshMs),
    hibp_due_again_ms: metric('ms', big.hibpDueMs, floor.hibpDueMs),
    hibp_refresh_one_leaving_ms: metric('ms', big.removalMs, floor.removalMs),
    hibp_refresh_one_leaving_longest_transaction_ms: metric('ms', big.removalLongestTxMs, floor.removalLongestTxMs),
    hibp_due_again_longest_transaction_ms: metric('ms', big.dueLongestTxMs, floor.dueLongestTxMs),
    hibp_refresh_longest_transaction_ms: metric('ms', big.hibpLongestTxMs, floor.hibpLongestTxMs),
    new_breach_visible_longest_transaction_ms: metric('ms', big.visibleLongestTxMs, floor.visibleLongestTxMs),
    new_breach_visible_ms: metric('ms', big.visibleMs, floor.visibleMs),
    new_breach_visible_per_address_ms: metric('ms', big.visibleMs / big.fanOut, floor.visibleMs / floor.fanOut),
    longest_transaction_ms: metric(
      'ms',
      Math.max(big.catalogAddOneLongestTxMs, big.hibpLongestTxMs, big.dueLongestTxMs, big.visibleLongestTxMs),
      Math.max(floor.catalogAddOneLongestTxMs, floor.hibpLongestTxMs, floor.dueLongestTxMs, floor.visibleLongestTxMs),
    ),
    // The instances re-indexing the catalog after the replacement: proportional to the catalog, not to people.
    catalog_follow_up_longest_transaction_ms: metric('ms', big.followUpLongestTxMs, floor.followUpLongestTxMs),
    bytes_per_person: metric('B', big.bytesPerPerson, floor.bytesPerPerson),
    seed_s: metric('s', big.seedS, floor.seedS),
  };
  console.log(JSON.stringify({ bench: 'scale', people: big.people, metrics }));
}

async function logSlowStatements(postgres: PrivatePostgres, ms: number): Promise<void> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query(`ALTER SYSTEM SET log_min_duration_statement = ${Math.max(0, Math.floor(ms))}`);
  await client.query('SELECT pg_reload_conf()');
  await client.end();
  log(`statements slower than ${ms} ms are logged to ${SLOW_LOG}`);
}

async function main(): Promise<void> {
  if (!Number.isInteger(PEOPLE) || PEOPLE < FLOOR_PEOPLE) throw new Error(`SCALE_PEOPLE must be a whole number of at least ${FLOOR_PEOPLE}, not ${process.env.SCALE_PEOPLE}`);
  let postgres: PrivatePostgres | undefined;
  // The stand-in answers every address "in no breach" at Rpm 10: the instances' queues run, slowly.
  const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
  try {
    postgres = await startPrivatePostgres();
    if (SLOW_MS !== undefined) await logSlowStatements(postgres, SLOW_MS);
    const floor = await measureSize(postgres, standIn, FLOOR_PEOPLE);
    // At the floor's own size the one measurement is both.
    const big = PEOPLE === FLOOR_PEOPLE ? floor : await measureSize(postgres, standIn, PEOPLE);
    report(big, floor);
  } finally {
    if (SLOW_MS !== undefined && postgres) copyFileSync(path.join(postgres.dir, 'server.log'), SLOW_LOG);
    await postgres?.close();
    await standIn.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
