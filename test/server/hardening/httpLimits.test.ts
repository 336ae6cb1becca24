// Slow and greedy clients: connections trickling headers or a body are closed once the
// configured timeouts pass, idle keep-alive connections go, connections past the cap are
// refused, and a reader that stops taking its answer loses its connection. Bounded: each wait fails with a message long before the test's own timeout.
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { HTTP_LIMIT_DEFAULTS, parseCommandLine } from '../../../server/config.ts';
import { createLimitedServer, type LimitedServer } from '../../../server/http/connections.ts';

const started: { service: RunningService; dataDir: string }[] = [];
afterEach(async () => {
  for (const { service, dataDir } of started.splice(0)) {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function start(limits: Record<string, number> = {}): Promise<{ service: RunningService; port: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-limits-'));
  const service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', ...limits });
  started.push({ service, dataDir });
  return { service, port: Number(new URL(service.url).port) };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

/** Resolves when the server has closed `socket`; rejects with `what` after `ms`. */
function closedWithin(socket: Socket, ms: number, what: string): Promise<string> {
  let received = '';
  socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
  return new Promise((resolve, reject) => {
    if (socket.destroyed || socket.readableEnded) return resolve(received);
    const timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** Writes one byte of `text` every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || at >= text.length) return clearInterval(timer);
    socket.write(text[at++]!);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('HTTP limits', () => {
  it('has defaults that bound slow clients, applied to the server', async () => {
    expect(parseCommandLine([], {}).config).toMatchObject(HTTP_LIMIT_DEFAULTS);
    expect(HTTP_LIMIT_DEFAULTS.headersTimeoutMs).toBeLessThanOrEqual(15_000);
    expect(HTTP_LIMIT_DEFAULTS.requestTimeoutMs).toBeLessThanOrEqual(60_000);
    expect(HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs).toBeLessThanOrEqual(120_000);
    const { service } = await start();
    expect(service.server.headersTimeout).toBe(HTTP_LIMIT_DEFAULTS.headersTimeoutMs);
    expect(service.server.requestTimeout).toBe(HTTP_LIMIT_DEFAULTS.requestTimeoutMs);
    expect(service.server.keepAliveTimeout).toBe(HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs);
    // The connection caps are the service's own (server/http/connections.ts), tested below and in connectionFlood.test.ts.
  });

  it('closes 20 connections trickling a body once the request timeout passes', async () => {
    const { port } = await start({ headersTimeoutMs: 500, requestTimeoutMs: 1000 });
    const token = (await (await fetch(`http://127.0.0.1:${port}/__dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sub":"slow"}' })).json()) as {
      access_token: string;
    };
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/user`, { method: 'POST', headers: { authorization: `Bearer ${token.access_token}` } })).status).toBe(201);
    const sockets = await Promise.all(Array.from({ length: 20 }, () => open(port)));
    const startedAt = Date.now();
    const closed = sockets.map((socket, i) => {
      socket.write(
        `POST /api/v1/user/breaches/resolutions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token.access_token}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n[',
      );
      trickle(socket, ' '.repeat(100_000), 50);
      return closedWithin(socket, 8000, `trickling connection ${i}`);
    });
    const answers = await Promise.all(closed);
    expect(Date.now() - startedAt).toBeLessThan(8000);
    for (const answer of answers) if (answer) expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection trickling its headers once the headers timeout passes', async () => {
    const { port } = await start({ headersTimeoutMs: 500, requestTimeoutMs: 5000 });
    const socket = await open(port);
    trickle(socket, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` + 'X-Slow: ' + 'a'.repeat(10_000), 50);
    await closedWithin(socket, 4000, 'trickling headers');
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { port } = await start({ keepAliveTimeoutMs: 300 });
    const socket = await open(port);
    const closed = closedWithin(socket, 4000, 'idle keep-alive connection');
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(await closed).toMatch(/^HTTP\/1\.1 200/);
  });

  it('refuses connections beyond the cap while every one is busy, and serves again when they go', async () => {
    const { port } = await start({ maxConnections: 4 });
    const held = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    // Busy: each has sent a request whose body is still to come (the service's 100 Continue says it has the request).
    await Promise.all(
      held.map((socket) => {
        socket.write(`POST /__dev/token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`);
        return new Promise((resolve) => socket.once('data', resolve));
      }),
    );
    const extra = await open(port);
    await closedWithin(extra, 4000, 'connection beyond the cap');
    for (const socket of held) socket.destroy();
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.status, { timeout: 4000 }).toBe(200);
  });

  it('at the cap, closes the oldest connection that sent nothing to make way for a new one', async () => {
    const { port } = await start({ maxConnections: 4, maxConnectionsPerIp: 4 });
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await open(port));
    const oldestClosed = closedWithin(held[0]!, 4000, 'the oldest idle connection');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    await oldestClosed;
    expect(held.slice(1).some((socket) => socket.destroyed || socket.readableEnded)).toBe(false);
  });

  it('closes a connection that sends nothing after the idle timeout', async () => {
    const { port } = await start({ idleTimeoutMs: 300 });
    const socket = await open(port);
    expect(await closedWithin(socket, 4000, 'silent connection')).toBe('');
  });
});

// A reader that stops reading a large answer: the answer stays unsent, so its connection stays
// busy and busy connections never make way. The service closes it once the reader has taken
// nothing for `sendTimeoutMs`; one that pauses for less, however long the whole answer takes, keeps it.
describe('the send timeout', () => {
  const ANSWER_BYTES = 32 * 1024 * 1024;
  const answer = Buffer.alloc(ANSWER_BYTES, 0x61);

  async function serveLargeAnswer(sendTimeoutMs: number): Promise<{ limited: LimitedServer; port: number; answered: () => number }> {
    const limited = createLimitedServer({ ...HTTP_LIMIT_DEFAULTS, sendTimeoutMs }, (_error, socket) => socket.destroy());
    let answered = 0;
    limited.serve((_req, res) => {
      answered += 1;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(ANSWER_BYTES) });
      res.end(answer);
    });
    await new Promise<void>((resolve) => limited.server.listen(0, '127.0.0.1', resolve));
    drains.push(limited);
    return { limited, port: (limited.server.address() as { port: number }).port, answered: () => answered };
  }
  const drains: LimitedServer[] = [];
  afterEach(async () => {
    for (const limited of drains.splice(0)) await limited.drain(100);
  });

  /**
   * Sends a GET on a new connection whose reader is paused from the start (on loopback a flowing
   * reader may take all 32 MB before a test could pause it); `received` counts what it took.
   */
  async function get(port: number): Promise<{ socket: Socket; received: () => number; ended: Promise<void> }> {
    const socket = await open(port);
    socket.pause();
    let received = 0;
    socket.on('data', (data: Buffer) => (received += data.length));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`GET /large HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    return { socket, received: () => received, ended };
  }

  it('closes the connection of a reader that stops taking a large answer', async () => {
    const { limited, port, answered } = await serveLargeAnswer(400);
    const { socket, received, ended } = await get(port);
    await expect.poll(answered, { timeout: 4000, message: 'the answer started' }).toBe(1);
    await expect.poll(() => limited.connectionCount(), { timeout: 5000, message: 'the stalled connection was closed' }).toBe(0);
    // What the operating system had already taken still arrives; the rest never does.
    socket.resume();
    await ended;
    expect(received()).toBeLessThan(ANSWER_BYTES);
  });

  it('keeps a reader that pauses for less than the timeout, however long the whole answer takes', async () => {
    const { limited, port, answered } = await serveLargeAnswer(900);
    const { socket, received, ended } = await get(port);
    await expect.poll(answered, { timeout: 4000, message: 'the answer started' }).toBe(1);
    // Two pauses of 350 ms (from the start, and once half the answer is taken): 700 ms with no
    // progress in all, but never 900 ms at once.
    const halfway = new Promise<void>((resolve) => {
      const pauseAtHalf = () => {
        if (received() < ANSWER_BYTES / 2) return;
        socket.pause();
        socket.off('data', pauseAtHalf);
        resolve();
      };
      socket.on('data', pauseAtHalf);
    });
    for (const pausedUntil of [Promise.resolve(), halfway]) {
      await pausedUntil;
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(limited.connectionCount()).toBe(1);
      expect(received()).toBeLessThan(ANSWER_BYTES);
      socket.resume();
    }
    await expect.poll(received, { timeout: 8000, message: 'the whole answer arrived' }).toBeGreaterThan(ANSWER_BYTES);
    expect(limited.connectionCount()).toBe(1);
    socket.end();
    await ended;
  });

  it('is configured by --send-timeout and BREACH_SERVICE_SEND_TIMEOUT, 30 s by default', () => {
    expect(HTTP_LIMIT_DEFAULTS.sendTimeoutMs).toBe(30_000);
    expect(parseCommandLine(['--send-timeout', '250'], {}).config.sendTimeoutMs).toBe(250);
    expect(parseCommandLine([], { BREACH_SERVICE_SEND_TIMEOUT: '1500' }).config.sendTimeoutMs).toBe(1500);
    expect(() => parseCommandLine(['--send-timeout', '50'], {})).toThrow(/sendTimeoutMs/);
    expect(() => parseCommandLine(['--send-timeout', 'soon'], {})).toThrow(/sendTimeoutMs: must be a whole number/);
  });
});
