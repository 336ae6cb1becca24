// npm run bench:hardening — how long one client's small GET waits while another client does
// something heavy, beside the same GET on an idle service (the floor), all in one run on one
// service process (SQLite, --dev):
//   refused_15mb_write   anonymous 15 MB PUTs of 900,000 keys to /rtdb, back to back
//   largest_write        permitted writes of the largest size taken (MAX_WRITE_VALUES values)
//   sse_fanout_200       200 streaming reads of a location of 25 × MAX_WRITE_VALUES values (0.7 MB),
//                        one leaf of it written every 100 ms
//   retry_after_idle     idle CPU and log lines for 60 s after a 429 with retry-after 999999999
//                        (test/bench/hardening/retryAfter.ts)
// Beside each, the service's own event-loop delay (test/bench/loopDelayProbe.ts), which is the
// stall itself, apart from how busy the machine or the measuring client is.
// Also the median time of a shallow GET of that large location (beside the small GET's median).
// And the realtime database's streams under pressure, on a service of their own (hardening/streams.ts).
// The heavy client runs in its own process (this file with --heavy), so its own work does not
// delay the measuring client. The acceptance bar: p99 within 100 ms of the floor.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_WRITE_VALUES } from '../../server/rtdb/routes.ts';
import { measureIdleAfterHugeRetryAfter } from './hardening/retryAfter.ts';
import { startProcess, stopProcess } from './processes.ts';
import { measureStreams } from './hardening/streams.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION ?? 4) * 1000;
const READY = /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;
const STREAMS = 200;
const WATCHED_PARTS = 25;
/** sse_fanout_200's streams are one person's from one address: above the default stream caps. */
const STREAM_CAPS_FOR_FANOUT = ['--max-streams-per-ip', String(STREAMS + 1), '--max-streams-per-person', String(STREAMS)];

type Heavy = 'refused_15mb_write' | 'largest_write' | 'sse_fanout_200';

function flatObject(count: number, salt = 0): string {
  return '{' + Array.from({ length: count }, (_, i) => `"k${i}":${i + salt}`).join(',') + '}';
}

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status}`);
  return response.json();
}

/** The heavy client: runs `kind` against `origin` until told to stop, reporting each answer's status. */
async function runHeavy(kind: Heavy, origin: string, idToken: string): Promise<void> {
  const statuses = new Map<number | string, number>();
  let stopped = false;
  process.on('message', () => (stopped = true));
  // The load generator's own connection errors (a stream torn down at the end) are tallied, not fatal.
  process.on('uncaughtException', (error) => tally(`uncaught: ${error.message}`));

  const tally = (status: number | string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  /** Sends one request and tallies its status, or the error that stood in for one. */
  const attempt = (url: string, init: RequestInit) =>
    fetch(url, init).then(
      async (response) => tally((await response.arrayBuffer(), response.status)),
      (error: Error) => tally(`${error.message}: ${(error.cause as Error | undefined)?.message}`),
    );
  if (kind === 'refused_15mb_write') {
    const body = flatObject(900_000);
    while (!stopped) await attempt(`${origin}/rtdb/users/alice/big.json`, { method: 'PUT', body });
  } else if (kind === 'largest_write') {
    let salt = 0;
    while (!stopped) {
      const body = flatObject(MAX_WRITE_VALUES - 1, salt++);
      await attempt(`${origin}/rtdb/users/alice/full.json?auth=${idToken}`, { method: 'PUT', body });
    }
  } else {
    // Plain sockets that drop what they read: the streams' client must cost as little as it can.
    const url = new URL(origin);
    const streams = await Promise.all(
      Array.from(
        { length: STREAMS },
        () =>
          new Promise<ClientRequest>((resolve, reject) => {
            const req = request({ host: url.hostname, port: url.port, path: `/rtdb/users/alice/watched.json?auth=${idToken}`, headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
              res.on('error', () => {}); // ended by destroy() below
              res.resume();
              resolve(req);
            });
            req.on('error', (error) => (req.reusedSocket || req.destroyed ? undefined : reject(error)));
            req.end();
          }),
      ),
    );
    let n = 0;
    while (!stopped) {
      await attempt(`${origin}/rtdb/users/alice/watched/p0/k0.json?auth=${idToken}`, { method: 'PUT', body: String(n++) });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const stream of streams) stream.destroy();
  }
  // The IPC channel would keep this process alive: let go of it once the report is sent.
  process.send!({ statuses: Object.fromEntries(statuses) }, () => process.disconnect());
}

/** Latencies (ms) of back-to-back `GET /` for `ms` milliseconds on one kept-alive connection. */
async function sampleSmallGets(origin: string, ms: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(origin);
  const samples: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/', agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`GET /: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end();
    });
    samples.push(performance.now() - started);
    // A request every 2 ms: what a waiting client sees, not what a saturating one sees.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  agent.destroy();
  return samples;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const round = (value: number) => Math.round(value * 10) / 10;

async function measureUnder(kind: Heavy, origin: string, idToken: string): Promise<{ samples: number[]; statuses: Record<string, number> }> {
  const heavy: ChildProcess = fork(fileURLToPath(import.meta.url), ['--heavy', kind, origin, idToken], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Let the heavy client get going (its first 15 MB body is being built and sent).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const samples = await sampleSmallGets(origin, DURATION_MS);
  const report = new Promise<{ statuses: Record<string, number> }>((resolve, reject) => {
    heavy.once('message', (message) => resolve(message as { statuses: Record<string, number> }));
    heavy.once('exit', (code) => reject(new Error(`the ${kind} client exited (${code}) before reporting`)));
  });
  heavy.send('stop');
  const { statuses } = await report;
  await new Promise((resolve) => heavy.once('exit', resolve));
  return { samples, statuses };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-hardening-'));
  const { child, match } = await startProcess(
    ['--import', './test/bench/loopDelayProbe.ts', 'server/main.ts', '--port', '0', '--dev', '--data', dataDir, '--log-level', 'warn', ...STREAM_CAPS_FOR_FANOUT],
    READY,
  );
  /** The service's event-loop delay since the last call (test/bench/loopDelayProbe.ts). */
  const loopDelay = () =>
    new Promise<{ p99: number; max: number }>((resolve) => {
      let text = '';
      const onData = (chunk: Buffer) => {
        text += chunk.toString();
        const line = /loop-delay (\{.*\})\n/.exec(text);
        if (!line) return;
        child.stderr!.off('data', onData);
        resolve(JSON.parse(line[1]!) as { p99: number; max: number });
      };
      child.stderr!.on('data', onData);
      child.kill('SIGUSR2');
    });
  const origin = match[1]!;
  // Should this process die (an error, a timeout), the service goes with it.
  process.once('exit', () => child.kill());
  try {
    const { id_token: idToken } = (await post(`${origin}/__dev/id-token`, { sub: 'alice' })) as { id_token: string };
    // The streams' location: WATCHED_PARTS writes of the largest size.
    for (let part = 0; part < WATCHED_PARTS; part++) {
      const seeded = await fetch(`${origin}/rtdb/users/alice/watched/p${part}.json?auth=${idToken}`, { method: 'PUT', body: flatObject(MAX_WRITE_VALUES - 1) });
      if (!seeded.ok) throw new Error(`seeding the watched location: ${seeded.status}`);
    }

    // A shallow read of that location (25 children over 50,000 leaves) beside a full read of it.
    const timeGets = async (query: string) => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const response = await fetch(`${origin}/rtdb/users/alice/watched.json?auth=${idToken}${query}`);
        await response.arrayBuffer();
        times.push(performance.now() - started);
      }
      return percentile(times, 0.5);
    };
    const shallowMs = await timeGets('&shallow=true');
    const fullMs = await timeGets('');

    await sampleSmallGets(origin, 1000); // warm-up
    await loopDelay();
    const floor = await sampleSmallGets(origin, DURATION_MS);
    const floorDelay = await loopDelay();
    const floorP99 = percentile(floor, 0.99);
    const metrics: Record<string, { value: number; unit: string; floor: number; ratio: number }> = {};
    console.log(`GET / every 2 ms for ${DURATION_MS / 1000} s per run; idle service: p50 ${round(percentile(floor, 0.5))} ms, p99 ${round(floorP99)} ms, max ${round(Math.max(...floor))} ms`);
    // BENCH_ONLY=<kind>[,<kind>] measures only those.
    const kinds = (['refused_15mb_write', 'largest_write', 'sse_fanout_200'] as const).filter((kind) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes(kind));
    for (const kind of kinds) {
      await loopDelay();
      const { samples, statuses } = await measureUnder(kind, origin, idToken);
      const delay = await loopDelay();
      const p99 = percentile(samples, 0.99);
      console.log(
        `${kind.padEnd(20)} p50 ${round(percentile(samples, 0.5))} ms, p99 ${round(p99)} ms, max ${round(Math.max(...samples))} ms over ${samples.length} GETs; heavy client's answers ${JSON.stringify(statuses)}`,
      );
      metrics[`small_get_p99_${kind}`] = { value: round(p99), unit: 'ms', floor: round(floorP99), ratio: round(p99 / floorP99) };
      metrics[`small_get_max_${kind}`] = { value: round(Math.max(...samples)), unit: 'ms', floor: round(Math.max(...floor)), ratio: round(Math.max(...samples) / Math.max(...floor)) };
      console.log(`${''.padEnd(20)} the service's event-loop delay: p99 ${round(delay.p99)} ms, max ${round(delay.max)} ms (idle: p99 ${round(floorDelay.p99)}, max ${round(floorDelay.max)})`);
      metrics[`service_loop_delay_max_${kind}`] = { value: round(delay.max), unit: 'ms', floor: round(floorDelay.max), ratio: round(delay.max / floorDelay.max) };
    }
    console.log(`shallow GET of a location of ${WATCHED_PARTS} children, 50,000 leaves: median ${round(shallowMs)} ms (the full GET of it: ${round(fullMs)} ms)`);
    metrics.shallow_get_large_location = { value: round(shallowMs), unit: 'ms', floor: round(percentile(floor, 0.5)), ratio: round(shallowMs / percentile(floor, 0.5)) };
    if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes('streams')) Object.assign(metrics, await measureStreams());
    if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').includes('retry_after_idle')) Object.assign(metrics, await measureIdleAfterHugeRetryAfter());
    console.log(JSON.stringify({ bench: 'hardening', metrics }));
  } finally {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const heavyAt = process.argv.indexOf('--heavy');
if (heavyAt >= 0) {
  const [kind, origin, idToken] = process.argv.slice(heavyAt + 1) as [Heavy, string, string];
  await runHeavy(kind, origin, idToken);
} else {
  await main();
}
