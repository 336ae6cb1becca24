// Start-up and shutdown of the real service process (server/main.ts): requests sent the moment
// the port opens are all answered (503 with Retry-After until the service is ready, or the real
// answer), on SQLite and PostgreSQL; on SIGTERM the service stops accepting, lets requests in
// flight finish and ends event streams with `reconnect` (shutting-down), then exits 0. Every wait is bounded with a message.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HTTP_LIMIT_DEFAULTS } from '../../../server/config.ts';
import { createLimitedServer } from '../../../server/http/connections.ts';
import { serviceStores } from '../../support/postgres.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const READY = /API base URL:\s+http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/;

const stores = await serviceStores();
const running: { child: ChildProcess; dataDir: string }[] = [];
afterEach(async () => {
  for (const { child, dataDir } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

function startProcess(args: string[]): { child: ChildProcess; output: () => string } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-lifecycle-'));
  const child = spawn(process.execPath, ['server/main.ts', '--data', dataDir, '--dev', '--log-level', 'warn', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push({ child, dataDir });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function tryConnect(port: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
  });
}

/** Sends raw `request` on `socket` and resolves with the whole answer once the service closes the connection. */
function exchange(socket: Socket, request: string, what: string, ms = 10_000): Promise<string> {
  let received = '';
  socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no complete answer within ${ms} ms (got ${JSON.stringify(received.slice(0, 200))})`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    if (request) socket.write(request);
  });
}

/** The final status of an answer (after any interim `100 Continue`). */
function statusOf(answer: string): number | undefined {
  const status = /^(?:HTTP\/1\.1 100 Continue\r\n\r\n)?HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
  return status === undefined ? undefined : Number(status);
}

describe('start-up', () => {
  it('answers 503 with Retry-After until the service hands over its handler', async () => {
    const limited = createLimitedServer(HTTP_LIMIT_DEFAULTS, (_error, socket) => socket.destroy());
    await new Promise<void>((resolve) => limited.server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(limited.server.address() as { port: number }).port}/`;
    try {
      const early = await fetch(url);
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      expect(((await early.json()) as { detail: string }).detail).toMatch(/starting/);
      limited.serve((_req, res) => res.end('ready'));
      expect(await (await fetch(url)).text()).toBe('ready');
    } finally {
      await limited.drain(1000);
    }
  });
});

describe.each(stores)('start-up on $name', (store) => {
  it.skipIf(!store.available)('answers every one of 16 requests sent the moment the port opens', async () => {
    const port = await freePort();
    const { databaseUrl } = await store.serviceOptions();
    const { child, output } = startProcess(['--port', String(port), ...(databaseUrl ? ['--database-url', databaseUrl] : [])]);
    const deadline = Date.now() + 15_000;
    let first: Socket | undefined;
    while (!first) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output()}`);
      if (Date.now() > deadline) throw new Error(`the port never opened:\n${output()}`);
      first = await tryConnect(port);
    }
    const sockets = [first, ...(await Promise.all(Array.from({ length: 15 }, () => tryConnect(port))))];
    const paths = ['/', '/api/v1/user/breaches', '/rtdb/catalog/breaches.json?shallow=true', '/openapi.yaml'];
    const answers = await Promise.all(
      sockets.map((socket, i) => {
        if (!socket) throw new Error(`connection ${i} was refused after the port opened`);
        const target = paths[i % paths.length]!;
        return exchange(socket, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, `request ${i} (${target})`);
      }),
    );
    for (const answer of answers) {
      const status = statusOf(answer);
      expect(status, answer.slice(0, 200)).toBeDefined();
      // Until ready: 503 with Retry-After; once ready, the real answer (the breach list needs a token).
      if (status === 503) expect(answer).toMatch(/\r\nretry-after: \d+\r\n/i);
      else expect([200, 401]).toContain(status);
    }
    await expect.poll(() => READY.test(output()), { timeout: 15_000, message: 'the service said it is running' }).toBe(true);
  });
});

describe('shutdown on SIGTERM', () => {
  it('stops accepting, finishes 20 requests in flight and ends an event stream with reconnect (shutting-down), then exits 0', async () => {
    const { child, output } = startProcess(['--port', '0']);
    await expect.poll(() => READY.test(output()), { timeout: 15_000, message: 'the service said it is running' }).toBe(true);
    const port = Number(READY.exec(output())![1]);

    // In flight for certain: the service has each request (its 100 Continue says so) but not its body.
    const body = '{"sub":"alice"}';
    const inFlight = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const socket = (await tryConnect(port))!;
        const answer = exchange(socket, '', `request in flight ${i}`);
        const continued = new Promise((resolve) => socket.once('data', resolve));
        socket.write(`POST /__dev/token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
        await continued;
        return { socket, answer };
      }),
    );
    const stream = (await tryConnect(port))!;
    const streamAnswer = exchange(stream, `GET /rtdb/catalog/breaches/x.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`, 'event stream');
    await expect.poll(() => stream.bytesRead > 0, { timeout: 5000, message: 'the stream started' }).toBe(true);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const refused = async () => {
      const probe = await tryConnect(port);
      probe?.destroy();
      return probe === undefined;
    };
    await expect.poll(refused, { timeout: 5000, message: 'new connections refused' }).toBe(true);

    for (const { socket } of inFlight) socket.write(body);
    for (const { answer } of inFlight) {
      const text = await answer;
      expect(statusOf(text), text.slice(0, 200)).toBe(200);
      expect(text).toMatch(/"access_token":"[\w-]+\.[\w-]+\.[\w-]+"/);
    }
    // The stream's last event tells its client to come back (to another instance, or this one restarted).
    expect(await streamAnswer).toMatch(/^HTTP\/1\.1 200[\s\S]*event: put[\s\S]*event: reconnect\nretry: 1000\ndata: \{"reason":"shutting-down"\}\n\n/);
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000))]);
    expect(code).toBe(0);
  });
});
