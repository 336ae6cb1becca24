// The realtime database's streaming reads under pressure, for `npm run bench:hardening` (or alone:
// `node test/bench/hardening/streams.ts`), on a service process of its own (SQLite, --dev, the
// default limits):
//   small_get_p99_1000_anonymous_streams  p99 of a small GET (`GET /`, from 127.0.0.1) while
//       1,000 anonymous streams of `/rtdb/catalog/x.json` are asked for from 20 other addresses
//       (50 each; the connection caps alone would hold them all), beside the same GET before
//   service_rss_paused_reader_100mb  the service's peak RSS while one signed-in stream's reader is
//       paused and its location is written 25 times with 4 MB (100 MB in all), beside its RSS before;
//       printed beside it, what the service still holds once garbage is collected (memoryProbe.ts)
// Also printed: what the same 1,000 streams from 127.0.0.1 itself leave to a new request from it.
import type { ChildProcess } from 'node:child_process';
import { request, Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, stopProcess } from '../processes.ts';
import { operatorHeaders } from '../../support/rtdbOperator.ts';

const READY = /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;
const DURATION_MS = Number(process.env.BENCH_DURATION ?? 4) * 1000;
const ANONYMOUS_STREAMS = 1000;
const STREAM_ADDRESSES = 20;
const PAUSED_WRITES = 25;
const PAUSED_WRITE_BYTES = 4 * 1024 * 1024;

export interface Metric {
  value: number;
  unit: string;
  floor: number;
  ratio: number;
}

const round = (value: number) => Math.round(value * 10) / 10;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Latencies (ms) of `GET /`, one every 2 ms for `ms` milliseconds, on one kept-alive connection. */
async function sampleSmallGets(port: number, ms: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  const until = performance.now() + ms;
  try {
    while (performance.now() < until) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`GET /: ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end();
      });
      samples.push(performance.now() - started);
      await pause(2);
    }
  } finally {
    agent.destroy();
  }
  return samples;
}

/** `GET /` over a new connection from `from`: its status, or the error that stood in for one. */
function oneGet(port: number, from: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', localAddress: from, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

/**
 * An anonymous stream from `from` on a plain socket that drops what it reads: resolves with the
 * answer's status line once it arrives, or the error (a reset) that stood in for one.
 */
function openAnonymousStream(port: number, from: string, sockets: Socket[]): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.push(socket);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      if (head.includes('\r\n')) return;
      head += chunk.toString('latin1');
      if (head.includes('\r\n')) resolve(head.slice(0, head.indexOf('\r\n')).split(' ')[1]!);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve('closed'));
    socket.write(`GET /rtdb/catalog/x.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** Opens `count` anonymous streams from the addresses `from(i)`, 100 at a time; tallies their answers. */
async function openAnonymousStreams(port: number, count: number, from: (i: number) => string, sockets: Socket[]): Promise<Record<string, number>> {
  const tally: Record<string, number> = {};
  for (let start = 0; start < count; start += 100) {
    const answers = await Promise.all(Array.from({ length: Math.min(100, count - start) }, (_, i) => openAnonymousStream(port, from(start + i), sockets)));
    for (const answer of answers) tally[answer] = (tally[answer] ?? 0) + 1;
  }
  return tally;
}

/** The resident set of process `pid` in MB (Linux). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

/** What the service holds once garbage is collected, in MB (test/bench/hardening/memoryProbe.ts). */
function retainedMb(child: ChildProcess): Promise<{ rss: number; external: number }> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const line = /memory (\{.*\})\n/.exec(text);
      if (!line) return;
      child.stderr!.off('data', onData);
      const memory = JSON.parse(line[1]!) as { rss: number; external: number };
      resolve({ rss: memory.rss / 1024 / 1024, external: memory.external / 1024 / 1024 });
    };
    child.stderr!.on('data', onData);
    child.kill('SIGUSR2');
  });
}

/**
 * One signed-in stream whose reader stops reading once the first put arrives, and 25 writes of
 * 4 MB to its location: the service's peak RSS meanwhile, and what the reader finds once it reads again.
 */
async function pausedReader(
  origin: string,
  port: number,
  child: ChildProcess,
): Promise<{ before: number; peak: number; retainedBefore: { rss: number; external: number }; retained: { rss: number; external: number }; received: number; lastEvent: string }> {
  const pid = child.pid!;
  const token = (await (await fetch(`${origin}/__dev/id-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sub":"alice"}' })).json()) as { id_token: string };
  const location = `/rtdb/users/alice/big.json?auth=${token.id_token}`;
  const socket = connect({ port, host: '127.0.0.1' });
  let received = 0;
  let tail = '';
  let firstPut: () => void;
  const started = new Promise<void>((resolve) => (firstPut = resolve));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    tail = (tail + chunk.toString('latin1')).slice(-4096);
    if (tail.includes('event: put')) firstPut();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.write(`GET ${location} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  await started;
  socket.pause();
  await pause(500);
  const retainedBefore = await retainedMb(child);
  const before = rssMb(pid);
  let peak = before;
  // Written by the operator: alice's own writes could not pass the 1 MB her node may hold.
  const operator = await operatorHeaders(origin);
  for (let i = 0; i < PAUSED_WRITES; i++) {
    // A different value each time (one letter repeated), so each write is a change to send.
    const body = JSON.stringify(String.fromCharCode(97 + (i % 26)).repeat(PAUSED_WRITE_BYTES - 2));
    const response = await fetch(`${origin}/rtdb/users/alice/big.json`, { method: 'PUT', headers: operator, body });
    if (!response.ok) throw new Error(`PUT ${PAUSED_WRITE_BYTES} bytes: ${response.status}`);
    await response.arrayBuffer();
    await pause(50);
    peak = Math.max(peak, rssMb(pid));
  }
  await pause(500);
  peak = Math.max(peak, rssMb(pid));
  const retained = await retainedMb(child);
  socket.resume();
  // Whatever the service still holds for the reader arrives now; a stream that was cut then ends.
  await Promise.race([closed, pause(3000)]);
  socket.destroy();
  const events = [...tail.matchAll(/event: ([\w-]+)/g)].map((match) => match[1]);
  return { before, peak, retainedBefore, retained, received, lastEvent: events.at(-1) ?? '(none: the service had closed it)' };
}

/** Starts a service of its own, measures both, prints a line for each, answers their metrics. */
export async function measureStreams(): Promise<Record<string, Metric>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-streams-'));
  const { child, match } = await startProcess(
    ['--expose-gc', '--import', './test/bench/hardening/memoryProbe.ts', 'server/main.ts', '--port', '0', '--dev', '--data', dataDir, '--log-level', 'warn'],
    READY,
  );
  const origin = match[1]!;
  const port = Number(new URL(origin).port);
  const sockets: Socket[] = [];
  const metrics: Record<string, Metric> = {};
  try {
    await sampleSmallGets(port, 1000); // warm-up
    const floor = await sampleSmallGets(port, DURATION_MS);
    const floorP99 = percentile(floor, 0.99);

    const tally = await openAnonymousStreams(port, ANONYMOUS_STREAMS, (i) => `127.0.1.${1 + (i % STREAM_ADDRESSES)}`, sockets);
    const under = await sampleSmallGets(port, DURATION_MS);
    const p99 = percentile(under, 0.99);
    console.log(
      `${ANONYMOUS_STREAMS} anonymous streams from ${STREAM_ADDRESSES} addresses (answers ${JSON.stringify(tally)}): GET / p50 ${round(percentile(under, 0.5))} ms, p99 ${round(p99)} ms over ${under.length} GETs (idle: p99 ${round(floorP99)} ms)`,
    );
    metrics.small_get_p99_1000_anonymous_streams = { value: round(p99), unit: 'ms', floor: round(floorP99), ratio: round(p99 / floorP99) };
    for (const socket of sockets.splice(0)) socket.destroy();
    await pause(500);

    const oneAddress = await openAnonymousStreams(port, ANONYMOUS_STREAMS, () => '127.0.0.1', sockets);
    console.log(`${ANONYMOUS_STREAMS} anonymous streams from 127.0.0.1 (answers ${JSON.stringify(oneAddress)}): a new GET / from 127.0.0.1 answers ${await oneGet(port, '127.0.0.1')}`);
    for (const socket of sockets.splice(0)) socket.destroy();
    await pause(500);

    const rss = await pausedReader(origin, port, child);
    console.log(
      `paused reader sent ${PAUSED_WRITES} × ${PAUSED_WRITE_BYTES / 1024 / 1024} MB: service RSS ${round(rss.before)} → peak ${round(rss.peak)} MB; ` +
        `after a garbage collection, RSS ${round(rss.retainedBefore.rss)} → ${round(rss.retained.rss)} MB, buffers outside the heap ${round(rss.retainedBefore.external)} → ${round(rss.retained.external)} MB; ` +
        `once it read again it got ${round(rss.received / 1024 / 1024)} MB, last event ${rss.lastEvent}`,
    );
    metrics.service_rss_paused_reader_100mb = { value: round(rss.peak), unit: 'MB', floor: round(rss.before), ratio: round(rss.peak / rss.before) };
  } finally {
    for (const socket of sockets) socket.destroy();
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return metrics;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify({ bench: 'hardening-streams', metrics: await measureStreams() }));
}
