// npm run bench:server — GET /user/breaches for a typical user (5 emails, ~60 breaches) and a
// heavy user (20 emails, 2,000 breaches), 64 connections over loopback, a JWT verified on every
// request; beside a bare Node http server answering the same bytes, measured in the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
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

async function load(url: string, headers: Record<string, string>, bytes: number, pid: number | undefined): Promise<Measured> {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers }); // warm-up: JIT, caches, connections
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const cpuAfter = cpuSeconds(pid);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const perRequest = result.throughput.average / result.requests.average;
  if (Math.abs(perRequest - bytes) / bytes > 0.2) throw new Error(`${url}: answers of ${Math.round(perRequest)} bytes, expected about ${bytes}`);
  const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / result.requests.total : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-server-'));
  const service = await startProcess(['server/main.ts', '--port', '0', '--dev', '--data', dataDir, '--log-level', 'warn'], /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
  const origin = service.match[1]!;
  const results: Record<string, { service: Measured; baseline: Measured; bytes: number; breaches: number }> = {};
  try {
    const ids = await seedBenchCatalog(origin);
    const users = {
      typical: { token: await seedUser(origin, BENCH_USERS.typical.sub, BENCH_USERS.typical.emails, ids.slice(0, BENCH_USERS.typical.breaches)) },
      heavy: { token: await seedUser(origin, BENCH_USERS.heavy.sub, BENCH_USERS.heavy.emails, ids.slice(0, BENCH_USERS.heavy.breaches)) },
    };

    for (const [name, { token }] of Object.entries(users)) {
      const url = `${origin}/api/v1/user/breaches?includeSensitive=true`;
      const body = Buffer.from(await (await call(origin, 'GET', '/api/v1/user/breaches?includeSensitive=true', undefined, token)).arrayBuffer());
      const breaches = (JSON.parse(body.toString()) as unknown[]).length;
      const serviceResult = await load(url, { authorization: `Bearer ${token}` }, body.length, service.child.pid);
      const bodyFile = path.join(dataDir, `${name}.json`);
      writeFileSync(bodyFile, body);
      const bare = await startProcess(['test/bench/bareServer.ts', bodyFile], /listening (\d+)/);
      try {
        const baseline = await load(`http://127.0.0.1:${bare.match[1]}/`, { authorization: `Bearer ${token}` }, body.length, bare.child.pid);
        results[name] = { service: serviceResult, baseline, bytes: body.length, breaches };
      } finally {
        await stopProcess(bare.child);
      }
    }
  } finally {
    await stopProcess(service.child);
    rmSync(dataDir, { recursive: true, force: true });
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
  console.log(JSON.stringify({ bench: 'server', metrics }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
