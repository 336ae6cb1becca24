// npm run bench:idle — what the app costs while nobody uses it: the heavy user of bench:server
// signed in to the real core (startCore, as the tray app runs it), then left alone for
// BENCH_IDLE_MINUTES (10) simulated minutes, scheduled syncs included (the interval set to its
// shortest, 5 minutes, so the run holds two). Reported: the core's CPU milliseconds per idle
// minute (minutes without a request, and with), the timers fired per minute by where they were
// set, the requests of each scheduled sync by path, the service knocks, and RSS at the start
// and the end (each after a full GC).
//
// The core runs alone in a child process (this file with --core): its CPU is that process's
// process.cpuUsage(), the service's is in another process and not in it. The child counts its
// requests through the global fetch (the core is given no fetch of its own, so the ServiceWatch
// knocks as in the app) and wraps setTimeout/setInterval to tally every timer fired by its call
// site (first stack frame outside this file).
//
// Simulated time: a timer set by the project's code (electron/, shared/) waits its delay divided
// by BENCH_IDLE_SPEED (20): ten idle minutes pass in 30 s, and every callback still runs as
// often, doing the same work, as in ten real minutes. Node's own timers (undici's) keep real
// time, and Date.now is not moved: nothing the core does while idle depends on it. Only waiting
// is compressed, so CPU and counts per simulated minute are those of a real minute, except
// for the event loop's own idle cost (epoll waits), which is near nothing and not in it.
// Last line: one JSON object.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, startProcess, stopProcess } from './processes.ts';
import { BENCH_USERS, seedBenchCatalog, seedUser } from './seed.ts';

const MINUTES = Number(process.env.BENCH_IDLE_MINUTES ?? 10);
const SPEED = Number(process.env.BENCH_IDLE_SPEED ?? 20);
/** The shortest interval the setting takes (SyncIntervalMinutes): scheduled syncs within the run. */
const INTERVAL_MINUTES = 5;
const SELF = fileURLToPath(import.meta.url);
const OWNER = 'owner';
const TIMERS_MODULE = path.join('shared', 'base', 'timers.ts');

interface Metric {
  value: number;
  unit: string;
  target?: number;
  [extra: string]: unknown;
}
interface CoreArgs {
  origin: string;
  dir: string;
  secret: string;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

// ---- the core's process ------------------------------------------------------------------

/** Timers fired, by call site; and the project's timers compressed by SPEED. */
function instrumentTimers(): { fired: Map<string, number>; realSetTimeout: typeof setTimeout } {
  const fired = new Map<string, number>();
  const realSetTimeout = globalThis.setTimeout;
  const realSetInterval = globalThis.setInterval;
  const siteOf = (): { site: string; ours: boolean } => {
    const holder: { stack?: string } = {};
    Error.captureStackTrace(holder, siteOf);
    const frames = (holder.stack ?? '').split('\n').slice(2);
    // The first frame that is neither this wrapper nor the shared wrapper every scheduler sets its timers through.
    const frame = frames.find((line) => !line.includes(SELF) && !line.includes(TIMERS_MODULE)) ?? '';
    const file = /\(?((?:file:\/\/)?[^ ()]+?):(\d+):\d+\)?$/.exec(frame.trim());
    if (!file) return { site: frame.trim() || 'unknown', ours: false };
    const where = file[1]!.replace('file://', '');
    const ours = where.startsWith(ROOT) && !where.includes('node_modules');
    return { site: `${ours ? path.relative(ROOT, where) : where}:${file[2]}`, ours };
  };
  const wrap = (callback: unknown, site: string) =>
    typeof callback === 'function'
      ? (...args: unknown[]) => {
          fired.set(site, (fired.get(site) ?? 0) + 1);
          return (callback as (...a: unknown[]) => unknown)(...args);
        }
      : callback;
  const patched = (real: typeof setTimeout) =>
    function (callback: unknown, ms?: number, ...args: unknown[]) {
      const { site, ours } = siteOf();
      const delay = ours && typeof ms === 'number' ? ms / SPEED : ms;
      return (real as (...a: unknown[]) => unknown)(wrap(callback, site), delay, ...args);
    };
  globalThis.setTimeout = Object.assign(patched(realSetTimeout), realSetTimeout) as typeof setTimeout;
  globalThis.setInterval = Object.assign(patched(realSetInterval as unknown as typeof setTimeout), realSetInterval) as unknown as typeof setInterval;
  return { fired, realSetTimeout };
}

/** The core's requests, by method and path (ids and queries left out). */
function instrumentFetch(): Map<string, number>[] {
  const minutes: Map<string, number>[] = [new Map()];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const key = `${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname.replace(/\/api\/v1/, '')}`;
    const minute = minutes[minutes.length - 1]!;
    minute.set(key, (minute.get(key) ?? 0) + 1);
    return realFetch(input, init);
  };
  return minutes;
}

/** Connections the core opens: the ServiceWatch's knocks, and the others (fetch's, through undici). */
async function instrumentConnections(): Promise<{ knocks: number; others: number }> {
  const net = (await import('node:net')).default;
  const { syncBuiltinESMExports } = await import('node:module');
  const counter = { knocks: 0, others: 0 };
  const real = net.connect;
  (net as { connect: typeof net.connect }).connect = ((...args: Parameters<typeof net.connect>) => {
    if (new Error().stack?.includes('ServiceWatch')) counter.knocks++;
    else counter.others++;
    return (real as (...a: unknown[]) => ReturnType<typeof net.connect>)(...args);
  }) as typeof net.connect;
  syncBuiltinESMExports();
  return counter;
}

/**
 * With BENCH_IDLE_PROFILE=FILE, a CPU profile of the idle run (not of the sign-in before it) is
 * written to FILE (.cpuprofile, for Chrome's DevTools): where the idle minutes' CPU goes.
 */
async function startProfile(): Promise<(() => Promise<void>) | undefined> {
  const file = process.env.BENCH_IDLE_PROFILE;
  if (!file) return undefined;
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

async function core(args: CoreArgs): Promise<void> {
  const { fired, realSetTimeout } = instrumentTimers();
  const requests = instrumentFetch();
  const connections = await instrumentConnections();
  const { startCore } = await import('../../electron/core/app.ts');
  const realWait = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));
  const gc = () => (globalThis as { gc?: () => void }).gc?.();

  const issuer = `${args.origin}/oidc`;
  const app = await startCore({
    dataDir: path.join(args.dir, 'app'),
    keychain: false,
    config: { issuer, apiBaseUrl: `${args.origin}/api/v1` },
    host: {
      openExternal: () => Promise.reject(new Error('the owner signs in without a browser')),
      notify: () => {},
      setTrayState: () => {},
      localService: { apply: async () => {}, ownerSecret: (asked) => (asked === issuer ? args.secret : undefined) },
    },
  });
  await app.router.invoke('settings-set', { syncIntervalMinutes: INTERVAL_MINUTES });
  await app.router.invoke('auth-sign-in', {});
  for (let tries = 0; (await app.router.invoke('breaches-list', { includeSensitive: true })).total !== BENCH_USERS.heavy.breaches; tries++) {
    if (tries > 600) throw new Error('the first sync of the heavy user did not end');
    await realWait(100);
  }
  // The first sync's aftermath (details feed, addresses) settles, then the idle run starts.
  await realWait(2000);
  gc();
  const rssStart = process.memoryUsage();
  fired.clear();
  requests.splice(0, requests.length, new Map());
  connections.knocks = connections.others = 0;

  const profile = await startProfile();
  const minuteMs = 60_000 / SPEED;
  const cpu: number[] = [];
  const timersPerMinute: Map<string, number>[] = [];
  for (let minute = 0; minute < MINUTES; minute++) {
    const before = cpuMs();
    await realWait(minuteMs);
    cpu.push(cpuMs() - before);
    timersPerMinute.push(new Map(fired));
    fired.clear();
    requests.push(new Map());
  }
  requests.pop();
  await profile?.();
  const { knocks: knocked, others: connected } = connections;
  gc();
  const rssEnd = process.memoryUsage();
  await app.close();

  const quiet = cpu.filter((_, minute) => requests[minute]!.size === 0);
  const busy = cpu.filter((_, minute) => requests[minute]!.size > 0);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const timers = new Map<string, number>();
  for (const minute of timersPerMinute) for (const [site, count] of minute) timers.set(site, (timers.get(site) ?? 0) + count);
  const byPath = new Map<string, number>();
  for (const minute of requests) for (const [key, count] of minute) byPath.set(key, (byPath.get(key) ?? 0) + count);
  const syncs = byPath.get('GET /user/breaches') ?? 0;
  const totalRequests = [...byPath.values()].reduce((a, b) => a + b, 0);
  const metrics: Record<string, Metric> = {
    idle_cpu_per_minute: {
      value: round(mean(quiet)),
      unit: 'ms',
      target: 20,
      // The median beside the mean: one busy moment of the shared machine moves a minute.
      median: round([...quiet].sort((a, b) => a - b)[Math.floor(quiet.length / 2)] ?? 0),
      max: round(Math.max(...quiet, 0)),
      minutes: quiet.length,
      // Minutes in which a scheduled sync ran (any request sent), beside the quiet ones.
      with_sync: round(mean(busy)),
      with_sync_minutes: busy.length,
      per_minute: cpu.map((ms) => round(ms)),
    },
    timers_per_minute: {
      value: round([...timers.values()].reduce((a, b) => a + b, 0) / MINUTES),
      unit: 'timers',
      by_site: Object.fromEntries([...timers].sort((a, b) => b[1] - a[1]).map(([site, count]) => [site, round(count / MINUTES)])),
    },
    knocks_per_minute: { value: round(knocked / MINUTES), unit: 'knocks', other_connections: connected },
    scheduled_syncs: { value: syncs, unit: 'syncs', interval_minutes: INTERVAL_MINUTES },
    requests_per_scheduled_sync: {
      value: syncs ? round(totalRequests / syncs) : totalRequests,
      unit: 'requests',
      by_path: Object.fromEntries([...byPath].map(([key, count]) => [key, syncs ? round(count / syncs) : count])),
    },
    rss_start: { value: mb(rssStart.rss), unit: 'MB', heap_used: mb(rssStart.heapUsed) },
    rss_end: { value: mb(rssEnd.rss), unit: 'MB', heap_used: mb(rssEnd.heapUsed) },
    rss_growth: { value: mb(rssEnd.rss - rssStart.rss), unit: 'MB', target: 5, heap_used: mb(rssEnd.heapUsed - rssStart.heapUsed) },
  };
  process.send!(metrics);
}

// ---- the harness -------------------------------------------------------------------------

function child<T>(args: CoreArgs): Promise<T> {
  const process_ = fork(SELF, ['--core', JSON.stringify(args)], { execPath: process.execPath, execArgv: [...process.execArgv, '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let answer: T | undefined;
    process_.once('message', (message: T) => (answer = message));
    process_.once('exit', (code) => (answer !== undefined && code === 0 ? resolve(answer) : reject(new Error(`the core exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-idle-'));
  const serviceDir = path.join(dir, 'service');
  // The person's own loopback service (--owner): the core signs in as its owner, no browser.
  const service = await startProcess(['server/main.ts', '--port', '0', '--dev', '--owner', '--data', serviceDir, '--log-level', 'warn'], /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
  const origin = service.match[1]!;
  let metrics: Record<string, Metric>;
  try {
    const ids = await seedBenchCatalog(origin);
    const { heavy } = BENCH_USERS;
    await seedUser(origin, OWNER, heavy.emails, ids.slice(0, heavy.breaches));
    const secret = readFileSync(path.join(serviceDir, 'owner-secret'), 'utf8').trim();
    metrics = await child<Record<string, Metric>>({ origin, dir, secret });
  } finally {
    await stopProcess(service.child);
    rmSync(dir, { recursive: true, force: true });
  }

  const cpu = metrics.idle_cpu_per_minute!;
  const timers = metrics.timers_per_minute!;
  const sync = metrics.requests_per_scheduled_sync!;
  console.log(
    `\nbench:idle — ${MINUTES} simulated minutes (${SPEED}× faster), heavy user: ${BENCH_USERS.heavy.emails} emails, ${BENCH_USERS.heavy.breaches} breaches; sync every ${INTERVAL_MINUTES} minutes`,
  );
  console.log(
    `CPU per idle minute: ${cpu.value} ms over ${cpu.minutes} quiet minutes (median ${cpu.median}, max ${cpu.max}; target ≤ 20); ${cpu.with_sync} ms in the ${cpu.with_sync_minutes} with a sync`,
  );
  console.log(`timers fired per minute: ${timers.value}`);
  for (const [site, perMinute] of Object.entries(timers.by_site as Record<string, number>)) console.log(`  ${String(perMinute).padStart(8)}  ${site}`);
  console.log(`knocks on the service per minute: ${metrics.knocks_per_minute!.value}`);
  console.log(`scheduled syncs: ${metrics.scheduled_syncs!.value}; requests per scheduled sync: ${sync.value}`);
  for (const [key, perSync] of Object.entries(sync.by_path as Record<string, number>)) console.log(`  ${String(perSync).padStart(8)}  ${key}`);
  console.log(
    `RSS: ${metrics.rss_start!.value} MB at the start, ${metrics.rss_end!.value} MB at the end (growth ${metrics.rss_growth!.value} MB, target ≤ 5; heap ${metrics.rss_growth!.heap_used} MB)`,
  );
  console.log(JSON.stringify({ bench: 'idle', metrics }));
}

const [role, json] = process.argv.slice(2);
const run = role === '--core' ? core(JSON.parse(json!) as CoreArgs) : main();
run.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
