// Connection floods: 2,000 sockets that send nothing and 200 that trickle their headers
// (slowloris) must not lock other clients out, whether they come from one address or many, and
// their slots must be released once the idle and headers timeouts fire — even though the
// attackers never close their end. Loopback has a whole /8 to spread the attackers over
// (127.0.1.x, 127.0.2.x); the other client is 127.0.0.2. Bounded: timeouts of 1 s, every wait
// fails with a message well before the test's own timeout. Needs about 4,500 file descriptors.
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { HTTP_LIMIT_DEFAULTS } from '../../../server/config.ts';

const IDLE = 2000;
const SLOWLORIS = 200;

let service: RunningService;
let port: number;
let dataDir: string;
const attackers: Socket[] = [];

beforeAll(async () => {
  // Both ends of every socket are in this process: say so plainly rather than fail with EMFILE.
  const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
  if (Number.isFinite(limit) && limit < 5000) throw new Error(`this test opens about 4,500 file descriptors; the limit here is ${limit} (raise it: ulimit -n 8192)`);
  dataDir = mkdtempSync(path.join(tmpdir(), 'svc-flood-'));
  service = await startService({ port: 0, dataDir, logLevel: 'silent', idleTimeoutMs: 1000, headersTimeoutMs: 1000, requestTimeoutMs: 2000 });
  port = Number(new URL(service.url).port);
});
afterEach(async () => {
  for (const socket of attackers.splice(0)) socket.destroy();
  await expect.poll(() => serverConnections(), { timeout: 5000, message: 'attackers gone' }).toBe(0);
});
afterAll(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A socket from `from` that never ends its side, whatever the service does (as an attacker's). */
function open(from: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from, allowHalfOpen: true });
    socket.on('error', () => {});
    // Reads (and drops) whatever it is sent: a socket Node's headers timeout closes gets a 408
    // first, and unread data would hold back its end, so whether the idle timer or that check
    // fired first (both at 1 s) would decide whether the test saw the close.
    socket.resume();
    socket.once('connect', () => resolve(socket));
    socket.once('close', () => resolve(socket));
    attackers.push(socket);
  });
}

/** Opens `count` sockets from the addresses `from(i)`, 100 at a time (the listen backlog is finite). */
async function openMany(count: number, from: (i: number) => string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let start = 0; start < count; start += 100) {
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, count - start) }, (_, i) => open(from(start + i))))));
  }
  return sockets;
}

/** Sends the start of a request, then one byte of a header's value every 100 ms, forever. */
function slowloris(socket: Socket): void {
  if (socket.destroyed) return;
  socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('a')), 100);
  socket.once('close', () => clearInterval(timer));
}

/** The status of `GET /` sent from `from`, or the error; rejects if no answer within 5 s. */
function answerFrom(from: string): Promise<number | string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer for a client at ${from} within 5 s`)), 5000);
    const req = request({ host: '127.0.0.1', port, path: '/', localAddress: from, agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        clearTimeout(timer);
        resolve(res.statusCode!);
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code ?? error.message);
    });
    req.end();
  });
}

function serverConnections(): Promise<number> {
  return new Promise((resolve, reject) => service.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

describe('connection floods', () => {
  it('answers others, and the flooding address itself, with 2,000 idle and 200 slowloris sockets from one address', async () => {
    await openMany(IDLE, () => '127.0.0.1');
    (await openMany(SLOWLORIS, () => '127.0.0.1')).forEach(slowloris);

    expect(await answerFrom('127.0.0.2')).toBe(200);
    // At its cap, the flooding address's oldest idle connection makes way for its new one.
    expect(await answerFrom('127.0.0.1')).toBe(200);
    expect(await serverConnections()).toBeLessThanOrEqual(HTTP_LIMIT_DEFAULTS.maxConnectionsPerIp + 1);
  });

  it('answers others when 2,000 idle and 200 slowloris sockets from 40 addresses exceed the total cap', async () => {
    await openMany(IDLE, (i) => `127.0.1.${1 + (i % 20)}`);
    (await openMany(SLOWLORIS, (i) => `127.0.2.${1 + (i % 20)}`)).forEach(slowloris);

    expect(await answerFrom('127.0.0.2')).toBe(200);
    expect(await serverConnections()).toBeLessThanOrEqual(HTTP_LIMIT_DEFAULTS.maxConnections + 1);
  });

  it('releases idle and slowloris slots once their timeouts fire, though the attackers never close', async () => {
    const startedAt = performance.now();
    const idle = await openMany(400, (i) => `127.0.3.${1 + (i % 4)}`);
    const slow = await openMany(SLOWLORIS, (i) => `127.0.4.${1 + (i % 4)}`);
    slow.forEach(slowloris);
    const closedByService = (sockets: Socket[]) => sockets.filter((socket) => socket.readableEnded || socket.destroyed).length;
    console.log(`opened 600 in ${Math.round(performance.now() - startedAt)} ms`);

    // Idle timeout 1 s, headers timeout 1 s (checked every 250 ms): well within 5 s. The
    // attackers never end their side, so a socket that ended was closed by the service.
    await expect.poll(() => closedByService(idle), { timeout: 5000, interval: 100, message: 'idle sockets the service closed' }).toBe(idle.length);
    await expect.poll(() => closedByService(slow), { timeout: 5000, interval: 100, message: 'slowloris sockets the service closed' }).toBe(slow.length);
    await expect.poll(() => serverConnections(), { timeout: 5000, interval: 100, message: 'connections the service still holds' }).toBe(0);
  });
});
