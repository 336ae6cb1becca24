// Streaming reads of the realtime database under pressure (issue 35, findings 1 and 2). A stream
// keeps its connection busy while it is open, and the connection caps' rule (the oldest quiet
// connection makes way) never frees a busy one: 256 anonymous streams from one address left every
// new connection from it reset, 1,024 from five addresses locked everyone out. A reader that
// stopped reading had every frame kept for it. Here: the stream caps keep room for ordinary
// requests, anonymous streams make way first, a stream ends after its maximum lifetime and a
// real EventSource opens it again, and a paused reader is cut at the buffer's bound.
// Loopback has a whole /8 to spread clients over (127.0.1.x). Small limits where a test sets its own.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RealtimeDatabaseClient } from '../../../electron/core/feed/RealtimeDatabaseClient.ts';
import { parseServiceConfig, STREAM_LIMIT_DEFAULTS } from '../../../server/config.ts';
import { RECONNECT_RETRY_MS } from '../../../server/rtdb/stream.ts';
import { openEventSource } from '../../support/eventSourceClient.ts';
import { operatorHeaders } from '../../support/rtdbOperator.ts';
import { devIdToken, useDevService, type DevServiceForTests } from '../../support/useDevService.ts';

const sockets: Socket[] = [];
const streams: RawStream[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const stream of streams.splice(0)) stream.close();
});

const portOf = (running: DevServiceForTests) => Number(new URL(running.service.url).port);

/**
 * An anonymous stream from `from` on a plain socket that never ends its side and drops what it
 * reads, as an attacker's: its answer's status, or the error (a reset) that stood in for one.
 */
function attackerStream(port: number, from: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from, allowHalfOpen: true });
    sockets.push(socket);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n')) resolve(head.split(' ')[1]!);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve('closed'));
    socket.write(`GET /rtdb/catalog/x.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** `count` attacker streams from the addresses `from(i)`, 100 at a time: how many got each answer. */
async function attackerStreams(port: number, count: number, from: (i: number) => string): Promise<Record<string, number>> {
  const tally: Record<string, number> = {};
  for (let start = 0; start < count; start += 100) {
    for (const answer of await Promise.all(Array.from({ length: Math.min(100, count - start) }, (_, i) => attackerStream(port, from(start + i))))) tally[answer] = (tally[answer] ?? 0) + 1;
  }
  return tally;
}

/** The status of `GET /` over a new connection from `from`, or the error; fails if no answer within 5 s. */
function ordinaryGet(port: number, from: string): Promise<number | string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', localAddress: from, agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('timeout', () => reject(new Error(`no answer for a client at ${from} within 5 s`)));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

interface RawStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The next event, skipping `keep-alive`; a refused stream's one "event" is its JSON body. */
  next(what: string): Promise<{ event: string; data: unknown }>;
  ended(): Promise<void>;
  close(): void;
}

/** A streaming read of `location` from `from`, over a connection of its own. */
function openFrom(port: number, location: string, from: string): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: `/rtdb/${location}`, localAddress: from, agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      const queue: { event: string; data: unknown }[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let done = false;
      const wake = () => waiters.splice(0).forEach((wakeUp) => wakeUp());
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        buffer += text;
        if (res.statusCode !== 200) return;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          if (event !== 'keep-alive') queue.push({ event, data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') });
        }
        wake();
      });
      const ended = new Promise<void>((resolveEnd) =>
        res.once('close', () => {
          if (res.statusCode !== 200) queue.push({ event: 'body', data: JSON.parse(buffer) });
          done = true;
          wake();
          resolveEnd();
        }),
      );
      const stream: RawStream = {
        status: res.statusCode!,
        headers: res.headers,
        async next(what) {
          const deadline = Date.now() + 10_000;
          while (queue.length === 0) {
            if (done) throw new Error(`the stream from ${from} ended while waiting for ${what}`);
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} on the stream from ${from}`);
            await new Promise<void>((wakeUp) => {
              const timer = setTimeout(wakeUp, deadline - Date.now());
              waiters.push(() => (clearTimeout(timer), wakeUp()));
            });
          }
          return queue.shift()!;
        },
        ended: () => ended,
        close: () => req.destroy(),
      };
      streams.push(stream);
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

const makingRoom = { event: 'reconnect', data: { reason: 'making-room' } };

describe('anonymous streams with the default limits', () => {
  const running = useDevService();
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await expect.poll(() => running.service.rtdbStreams.open(), { timeout: 5000, message: 'streams still open' }).toBe(0);
  });

  it('leave an address flooded with 256 of them room for its ordinary requests, the app’s read of the details feed included (finding 1)', async () => {
    const port = portOf(running);
    const answers = await attackerStreams(port, 256, () => '127.0.0.1');

    expect(await ordinaryGet(port, '127.0.0.1')).toBe(200);
    // The app's own client of the realtime database, reading the details feed as the app does.
    const app = new RealtimeDatabaseClient({ url: `${running.service.url}/rtdb`, credential: { kind: 'none' } });
    expect((await app.get('catalog/breaches')).status).toBe('ok');
    expect(answers).toEqual({ 200: STREAM_LIMIT_DEFAULTS.maxStreamsPerIp, 429: 256 - STREAM_LIMIT_DEFAULTS.maxStreamsPerIp });
  });

  it('leave everyone room when 1,025 of them come from five addresses (finding 1)', async () => {
    const port = portOf(running);
    await attackerStreams(port, 1025, (i) => `127.0.1.${1 + (i % 5)}`);

    expect(await ordinaryGet(port, '127.0.0.2')).toBe(200);
    expect(await ordinaryGet(port, '127.0.1.1')).toBe(200);
    expect(running.service.rtdbStreams.open()).toBe(5 * STREAM_LIMIT_DEFAULTS.maxStreamsPerIp);
  });
});

describe('stream caps', () => {
  const running = useDevService({ maxStreams: 6, maxStreamsPerIp: 3, maxStreamsPerPerson: 2 });
  let alice: string;
  beforeAll(async () => {
    alice = `users/alice.json?auth=${await devIdToken(running.service.url, 'alice')}`;
  });

  it('refuse anonymous streams at a cap with 429, and end the oldest anonymous one (then a person’s own oldest) to make room for a person’s', async () => {
    const port = portOf(running);
    const open = async (location: string, from: string) => {
      const stream = await openFrom(port, location, from);
      if (stream.status === 200) expect(await stream.next(`the first put of ${location} from ${from}`)).toMatchObject({ event: 'put' });
      return stream;
    };
    const [a1, a2] = [await open('catalog/x.json', '127.0.1.1'), await open('catalog/x.json', '127.0.1.1'), await open('catalog/x.json', '127.0.1.1')];
    const refusedAtAddress = await open('catalog/x.json', '127.0.1.1');
    expect(refusedAtAddress.status).toBe(429);
    expect(refusedAtAddress.headers['retry-after']).toBe('30');
    expect(await refusedAtAddress.next('the refusal')).toEqual({ event: 'body', data: { error: expect.stringContaining('at most 3 from one address') } });

    // A person at the address's cap: its oldest anonymous stream makes way.
    const alice1 = await open(alice, '127.0.1.1');
    expect(alice1.status).toBe(200);
    expect(await a1!.next('a1 making room')).toEqual(makingRoom);
    await a1!.ended();

    for (let i = 0; i < 3; i++) expect((await open('catalog/x.json', '127.0.1.2')).status).toBe(200);
    const refusedInAll = await open('catalog/x.json', '127.0.1.3');
    expect(refusedInAll.status).toBe(429);
    expect(await refusedInAll.next('the refusal')).toEqual({ event: 'body', data: { error: expect.stringContaining('at most 6 in all') } });

    // A person at the service's cap: the oldest anonymous stream anywhere makes way.
    const alice2 = await open(alice, '127.0.1.3');
    expect(alice2.status).toBe(200);
    expect(await a2!.next('a2 making room')).toEqual(makingRoom);
    // A person at their own cap: their own oldest stream makes way.
    expect((await open(alice, '127.0.1.3')).status).toBe(200);
    expect(await alice1.next('alice’s oldest making room')).toEqual(makingRoom);
    expect(running.service.rtdbStreams.open()).toBe(6);
  });

  it('must leave ordinary requests room below the connection caps, and follow them when unset', () => {
    expect(() => parseServiceConfig({ dataDir: '/tmp/x', maxStreams: 1024 })).toThrow(/maxStreams: must be below maxConnections \(1024\)/);
    expect(() => parseServiceConfig({ dataDir: '/tmp/x', maxStreamsPerIp: 256 })).toThrow(/maxStreamsPerIp: must be below maxConnectionsPerIp \(256\)/);
    expect(parseServiceConfig({ dataDir: '/tmp/x', maxConnections: 10, maxConnectionsPerIp: 8 })).toMatchObject({ maxStreams: 5, maxStreamsPerIp: 2 });
  });
});

describe('a stream past its maximum lifetime', () => {
  const running = useDevService({ streamMaxLifetimeMs: 1000 });

  it('ends with reconnect, and a real EventSource opens it again and goes on receiving changes', async () => {
    const token = await devIdToken(running.service.url, 'alice');
    const location = `${running.service.url}/rtdb/users/alice/lifetime.json?auth=${token}`;
    const source = openEventSource(location, ['put', 'reconnect', 'cancel', 'auth_revoked']);
    try {
      expect(await source.next('the connection')).toEqual({ type: 'open' });
      expect(await source.next('the first put')).toEqual({ type: 'put', data: { path: '/', data: null } });
      expect(await source.next('the end of its lifetime')).toEqual({ type: 'reconnect', data: { reason: 'max-lifetime' } });
      expect(await source.next('the EventSource noticing the end')).toEqual({ type: 'error' });
      expect(await source.next('the connection opened again')).toEqual({ type: 'open' });
      expect(await source.next('the first put of the new stream')).toEqual({ type: 'put', data: { path: '/', data: null } });

      expect((await fetch(location, { method: 'PUT', body: '{"theme":"dark"}' })).status).toBe(200);
      // The new stream may itself reach its lifetime meanwhile: the change arrives either way.
      let event = await source.next('the change');
      while (!(event.type === 'put' && JSON.stringify(event.data).includes('dark'))) event = await source.next('the change');
      expect(event.data).toEqual({ path: '/', data: { theme: 'dark' } });
      // The ended stream's slot was released (the new one may be between lifetimes itself).
      expect(running.service.rtdbStreams.open()).toBeLessThanOrEqual(1);
    } finally {
      await source.close();
    }
  });
});

describe('a reader that stops reading', () => {
  const BOUND = 1024 * 1024;
  const WRITE = 2 * 1024 * 1024;
  const WRITES = 15;
  const running = useDevService({ streamBufferBytes: BOUND });

  it('is cut at the buffer’s bound with reconnect, and the service never holds more than the bound and a frame for it (finding 2)', async () => {
    const port = portOf(running);
    const token = await devIdToken(running.service.url, 'alice');
    const location = `/rtdb/users/alice/big.json?auth=${token}`;
    const socket = connect({ port, host: '127.0.0.1' });
    sockets.push(socket);
    let received = 0;
    let tail = '';
    const firstPut = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        tail = (tail + chunk.toString('latin1')).slice(-1024);
        if (tail.includes('event: put')) resolve();
      }),
    );
    socket.write(`GET ${location} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    await firstPut;
    socket.pause();

    let mostBuffered = 0;
    let written = 0;
    // Written by the operator's service account: alice's own writes could not pass the 1 MB her node may hold
    // (server/rtdb/personQuota.ts); what is tested here is the bound of what her stream is sent.
    const admin = await operatorHeaders(running.service.url);
    // Until the service cuts the stream (its slot is freed then), which must come well before all are written.
    for (let i = 0; i < WRITES && running.service.rtdbStreams.open() === 1; i++) {
      const response = await fetch(`${running.service.url}/rtdb/users/alice/big.json`, { method: 'PUT', headers: admin, body: JSON.stringify(String.fromCharCode(97 + i).repeat(WRITE - 2)) });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      written += WRITE;
      mostBuffered = Math.max(mostBuffered, running.service.rtdbStreams.bufferedBytes());
    }
    expect(running.service.rtdbStreams.open()).toBe(0);
    socket.resume();
    // What the service kept for the reader arrives, then the answer's last chunk (the connection itself stays, kept alive).
    await expect.poll(() => tail.endsWith('\r\n0\r\n\r\n'), { timeout: 10_000, message: 'the end of the stream' }).toBe(true);

    expect(tail).toContain(`event: reconnect\nretry: ${RECONNECT_RETRY_MS['slow-reader']}\ndata: {"reason":"slow-reader"}\n\n`);
    // The frame being written when the bound was passed, the event and the chunks' framing.
    expect(mostBuffered).toBeLessThanOrEqual(BOUND + WRITE + 1024);
    expect(received).toBeLessThan(written);
    console.log(`cut after ${written / WRITE} writes of ${WRITE} bytes; at most ${mostBuffered} bytes buffered; the reader got ${received}`);
  });
});
