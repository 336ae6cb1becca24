// npm run bench:server — GET /user/breaches for a typical user (5 emails, ~60 breaches) and a
// heavy user (20 emails, 2,000 breaches), 64 connections over loopback, a JWT verified on every
// request; beside a bare Node http server answering the same bytes, measured in the same run.
// `-- --store postgres --instances 2` measures that many instances sharing a private PostgreSQL
// (connections spread over them) beside the bare floor and beside one SQLite instance.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startPrivatePostgres, type PrivatePostgres } from '../../tools/privatePostgres.ts';
import { startProcess, stopProcess } from './processes.ts';
import { BENCH_USERS, call, seedBenchCatalog, seedUser } from './seed.ts';

const CONNECTIONS = 64;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time the server process spent per answered request (µs), when the platform tells. */
  cpuUs: number | undefined;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * CPU seconds (user + system) a process has used, from /proc (Linux). Unlike requests per
 * second, this barely moves when other work shares the machine's cores.
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** `url` may list several instances: autocannon spreads its connections over them. `pids` are summed for CPU time. */
async function load(url: string | string[], headers: Record<string, string>, bytes: number, pids: (number | undefined)[]): Promise<Measured> {
  // autocannon takes a list of URLs and assigns connections to them in turn; its types say string.
  const target = url as string;
  await autocannon({ url: target, connections: CONNECTIONS, duration: 1, headers }); // warm-up: JIT, caches, connections
  const cpuBefore = totalCpuSeconds(pids);
  const result = await autocannon({ url: target, connections: CONNECTIONS, duration: DURATION_S, headers });
  const cpuAfter = totalCpuSeconds(pids);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const perRequest = result.throughput.average / result.requests.average;
  if (Math.abs(perRequest - bytes) / bytes > 0.2) throw new Error(`${url}: answers of ${Math.round(perRequest)} bytes, expected about ${bytes}`);
  const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / result.requests.total : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

function totalCpuSeconds(pids: (number | undefined)[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const seconds = cpuSeconds(pid);
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  return total;
}

const READY = /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;

/** Instances of the service on `databaseUrl` (SQLite in its data folder without one); the first one's origin is the issuer of all. */
async function startInstances(dataDir: string, count: number, databaseUrl?: string, invalidation = 'check'): Promise<{ origins: string[]; children: ChildProcess[] }> {
  const origins: string[] = [];
  const children: ChildProcess[] = [];
  for (let index = 0; index < count; index++) {
    const args = ['server/main.ts', '--port', '0', '--dev', '--data', path.join(dataDir, `instance-${index}`), '--log-level', 'warn'];
    if (databaseUrl) args.push('--database-url', databaseUrl, '--database-invalidation', invalidation);
    if (origins[0]) args.push('--identity-origin', origins[0]);
    const started = await startProcess(args, READY);
    children.push(started.child);
    origins.push(started.match[1]!);
  }
  return { origins, children };
}

type Results = Record<string, { service: Measured; baseline: Measured; bytes: number; breaches: number }>;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { store: { type: 'string', default: 'sqlite' }, instances: { type: 'string', default: '1' } } });
  const instances = Number(values.instances);
  if (values.store !== 'sqlite' && values.store !== 'postgres') throw new Error(`--store must be sqlite or postgres, not ${JSON.stringify(values.store)}`);
  if (!Number.isInteger(instances) || instances < 1 || instances > 8) throw new Error(`--instances must be 1 to 8, not ${JSON.stringify(values.instances)}`);
  if (values.store === 'sqlite' && instances > 1) throw new Error('several instances share one PostgreSQL database: add --store postgres');
  const sqlite = await measure();
  if (values.store === 'sqlite') {
    report(sqlite);
    return;
  }
  let postgres: PrivatePostgres | undefined;
  try {
    postgres = await startPrivatePostgres();
    const check = await measure(await postgres.createDatabase('bench_check'), instances);
    const notify = await measure(await postgres.createDatabase('bench_notify'), instances, 'notify');
    report(check, { label: `postgres × ${instances}`, sqlite, notify });
  } finally {
    await postgres?.close();
  }
}

async function measure(databaseUrl?: string, count = 1, invalidation = 'check'): Promise<Results> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-server-'));
  const { origins, children } = await startInstances(dataDir, count, databaseUrl, invalidation).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const origin = origins[0]!;
  const pids = children.map((child) => child.pid);
  const results: Results = {};
  try {
    const ids = await seedBenchCatalog(origin);
    const users = {
      typical: { token: await seedUser(origin, BENCH_USERS.typical.sub, BENCH_USERS.typical.emails, ids.slice(0, BENCH_USERS.typical.breaches)) },
      heavy: { token: await seedUser(origin, BENCH_USERS.heavy.sub, BENCH_USERS.heavy.emails, ids.slice(0, BENCH_USERS.heavy.breaches)) },
    };

    for (const [name, { token }] of Object.entries(users)) {
      const url = origins.map((each) => `${each}/api/v1/user/breaches?includeSensitive=true`);
      const body = Buffer.from(await (await call(origin, 'GET', '/api/v1/user/breaches?includeSensitive=true', undefined, token)).arrayBuffer());
      const breaches = (JSON.parse(body.toString()) as unknown[]).length;
      const serviceResult = await load(url, { authorization: `Bearer ${token}` }, body.length, pids);
      const bodyFile = path.join(dataDir, `${name}.json`);
      writeFileSync(bodyFile, body);
      const bare = await startProcess(['test/bench/bareServer.ts', bodyFile], /listening (\d+)/);
      try {
        const baseline = await load(`http://127.0.0.1:${bare.match[1]}/`, { authorization: `Bearer ${token}` }, body.length, [bare.child.pid]);
        results[name] = { service: serviceResult, baseline, bytes: body.length, breaches };
      } finally {
        await stopProcess(bare.child);
      }
    }
  } finally {
    for (const child of children) await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

/** The table and the JSON line; with `compare`, each figure also beside SQLite's of the same run. */
function report(results: Results, compare?: { label: string; sqlite: Results; notify: Results }): void {
  if (compare) {
    console.log(`\n${compare.label} beside SQLite (one instance), same run:`);
    console.log('user     sqlite req/s  p50 ms  p99 ms   postgres req/s  p50 ms  p99 ms');
    for (const [name, { service: p }] of Object.entries(results)) {
      const q = compare.sqlite[name]!.service;
      console.log(
        `${name.padEnd(8)} ${q.rps.toFixed(0).padStart(12)}  ${q.p50.toFixed(1).padStart(6)}  ${q.p99.toFixed(1).padStart(6)}   ${p.rps.toFixed(0).padStart(14)}  ${p.p50.toFixed(1).padStart(6)}  ${p.p99.toFixed(1).padStart(6)}`,
      );
    }
    console.log('\nper-request revision check (default) beside LISTEN/NOTIFY invalidation:');
    console.log('user     check req/s  p50 ms  p99 ms   notify req/s  p50 ms  p99 ms');
    for (const [name, { service: p }] of Object.entries(results)) {
      const n = compare.notify[name]!.service;
      console.log(
        `${name.padEnd(8)} ${p.rps.toFixed(0).padStart(11)}  ${p.p50.toFixed(1).padStart(6)}  ${p.p99.toFixed(1).padStart(6)}   ${n.rps.toFixed(0).padStart(12)}  ${n.p50.toFixed(1).padStart(6)}  ${n.p99.toFixed(1).padStart(6)}`,
      );
    }
  }
  console.log(`\nGET /user/breaches, ${CONNECTIONS} connections, ${DURATION_S} s per run, JWT verified per request`);
  console.log('user     breaches  bytes     service req/s  p50 ms  p99 ms   baseline req/s  p50 ms  p99 ms   slower ×');
  const metrics: Record<string, { value: number; unit: string; floor: number; ratio: number }> = {};
  const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
  for (const [name, { service: s, baseline: b, bytes, breaches }] of Object.entries(results)) {
    console.log(
      `${name.padEnd(8)} ${String(breaches).padStart(8)}  ${String(bytes).padStart(8)}  ${s.rps.toFixed(0).padStart(13)}  ${s.p50.toFixed(1).padStart(6)}  ${s.p99.toFixed(1).padStart(6)}   ${b.rps.toFixed(0).padStart(14)}  ${b.p50.toFixed(1).padStart(6)}  ${b.p99.toFixed(1).padStart(6)}   ${(b.rps / s.rps).toFixed(2).padStart(8)}`,
    );
    // `floor` is the bare server's figure; `ratio` > 1 means that many times slower than it.
    metrics[`${name}_rps`] = { value: round(s.rps, 0), unit: 'req/s', floor: round(b.rps, 0), ratio: round(b.rps / s.rps) };
    metrics[`${name}_p50`] = { value: s.p50, unit: 'ms', floor: b.p50, ratio: round(s.p50 / Math.max(b.p50, 0.01)) };
    metrics[`${name}_p99`] = { value: s.p99, unit: 'ms', floor: b.p99, ratio: round(s.p99 / Math.max(b.p99, 0.01)) };
    if (s.cpuUs !== undefined && b.cpuUs !== undefined) {
      metrics[`${name}_cpu_per_request`] = { value: round(s.cpuUs, 1), unit: 'µs', floor: round(b.cpuUs, 1), ratio: round(s.cpuUs / Math.max(b.cpuUs, 0.1)) };
    }
  }
  if (compare) {
    // Beside SQLite: `floor` is the one SQLite instance's figure of this run.
    for (const [name, { service: s }] of Object.entries(results)) {
      const q = compare.sqlite[name]!.service;
      metrics[`${name}_rps_vs_sqlite`] = { value: round(s.rps, 0), unit: 'req/s', floor: round(q.rps, 0), ratio: round(q.rps / s.rps) };
      metrics[`${name}_p50_vs_sqlite`] = { value: s.p50, unit: 'ms', floor: q.p50, ratio: round(s.p50 / Math.max(q.p50, 0.01)) };
      metrics[`${name}_p99_vs_sqlite`] = { value: s.p99, unit: 'ms', floor: q.p99, ratio: round(s.p99 / Math.max(q.p99, 0.01)) };
      // LISTEN/NOTIFY beside the revision check: `floor` is the check's figure.
      const n = compare.notify[name]!.service;
      metrics[`${name}_rps_notify`] = { value: round(n.rps, 0), unit: 'req/s', floor: round(s.rps, 0), ratio: round(s.rps / n.rps) };
    }
  }
  console.log(JSON.stringify({ bench: 'server', ...(compare ? { store: compare.label } : {}), metrics }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
