// A stand-in of Pwned Passwords' range API (the real one cannot be reached from these machines),
// as strict as its documentation, https://haveibeenpwned.com/API/v3#PwnedPasswords :
// - `GET /range/{first 5 hash chars}`: the prefix is 5 hexadecimal characters, any case
//   ("the hash prefix is not case sensitive"); anything else answers 400 with the documented
//   sentence "The hash prefix was not in a valid format".
// - The answer is `text/plain`: one line per hash with that prefix, the 35-character suffix in
//   upper case, a colon, and how many times it was seen; lines end with CRLF ("\r\n").
// - `Add-Padding: true` pads the answer with random suffixes whose count is 0, so that every
//   answer has between 800 and 1,000 lines ("Padding"); without the header there is none.
// - Only `GET`; the optional `mode=ntlm` query selects NTLM hashes (not served here: refused, so
//   a client that sent any query would be caught).
// - The documentation sets no rate limit on the range API (unlike the breach API); a CDN in front of it may still answer 429 with `Retry-After`, which
//   `rate-limited` plays.
// Every request is recorded whole (method, path, query, headers, body), so tests assert on
// what reached it rather than on what the client meant to send; so is the most requests it held
// at once. `offline` plays the network going away: every connection, open or new, is cut before
// any answer, and nothing is recorded (nothing reached the API); `hold()` keeps answers back
// until `release()`, so a test sees how many a client sends before it has any answer.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type StandInBehaviour = 'answer' | 'server-error' | 'garbage' | 'lf-lines' | 'rate-limited' | 'offline';

export interface PwnedPasswordsStandIn {
  origin: string;
  readonly requests: ReceivedRequest[];
  behaviour: StandInBehaviour;
  /** The `Retry-After` (seconds) sent with `rate-limited`; undefined sends none. */
  retryAfterSeconds: number | undefined;
  /** Requests received and not yet answered (held ones included). */
  readonly inFlight: number;
  /** The most that were ever in flight at once since the start (or the last `resetCounters`). */
  readonly maxInFlight: number;
  resetCounters(): void;
  /** Keeps every answer back until `release()` (they are then sent in the order received). */
  hold(): void;
  release(): void;
  /** Replaces what the stand-in knows (password → times seen); the answers follow at once. */
  setSeen(seen: Record<string, number> | ReadonlyMap<string, number>): void;
  /** The truth a client should find: how often the stand-in says this password was seen (0: never). */
  countOf(password: string): number;
  close(): Promise<void>;
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();
}

/** Starts the stand-in on a free loopback port; `seen` maps passwords to how often they were "seen in breaches". */
export async function startPwnedPasswordsStandIn(seen: Record<string, number>, options: { random?: () => number } = {}): Promise<PwnedPasswordsStandIn> {
  const random = options.random ?? Math.random;
  const byPrefix = new Map<string, Map<string, number>>();
  const setSeen = (table: Record<string, number> | ReadonlyMap<string, number>) => {
    byPrefix.clear();
    for (const [password, count] of table instanceof Map ? table : Object.entries(table)) {
      const hash = sha1Hex(password);
      const suffixes = byPrefix.get(hash.slice(0, 5)) ?? new Map<string, number>();
      suffixes.set(hash.slice(5), count);
      byPrefix.set(hash.slice(0, 5), suffixes);
    }
  };
  setSeen(seen);
  const requests: ReceivedRequest[] = [];
  const state = { behaviour: 'answer' as StandInBehaviour, retryAfterSeconds: 2 as number | undefined, inFlight: 0, maxInFlight: 0, held: undefined as Array<() => void> | undefined };
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    if (state.behaviour === 'offline') {
      request.socket.destroy();
      return;
    }
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    response.once('close', () => state.inFlight--);
    const chunks: Buffer[] = [];
    const answer = () => {
      if (state.behaviour === 'offline') {
        request.socket.destroy();
        return;
      }
      const url = new URL(request.url ?? '/', 'http://stand-in');
      requests.push({ method: request.method ?? '', path: url.pathname, query: url.search, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const match = /^\/range\/([^/]*)$/.exec(url.pathname);
      if (request.method !== 'GET' || !match) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      if (url.search !== '') {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('Only mode=ntlm is supported, and not by this stand-in');
        return;
      }
      const prefix = match[1]!;
      if (!/^[0-9A-Fa-f]{5}$/.test(prefix)) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('The hash prefix was not in a valid format');
        return;
      }
      if (state.behaviour === 'rate-limited') {
        const retryAfter = state.retryAfterSeconds === undefined ? {} : { 'retry-after': String(state.retryAfterSeconds) };
        response.writeHead(429, { 'content-type': 'text/plain', ...retryAfter }).end('Too Many Requests');
        return;
      }
      if (state.behaviour === 'server-error') {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
        return;
      }
      if (state.behaviour === 'garbage') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>captive portal</html>');
        return;
      }
      const lines = [...(byPrefix.get(prefix.toUpperCase()) ?? new Map<string, number>())].map(([suffix, count]) => `${suffix}:${count}`);
      if (String(request.headers['add-padding']).toLowerCase() === 'true') {
        const target = 800 + Math.floor(random() * 201);
        // One draw for all the padding (18 random bytes → 36 hex characters, 35 kept per line).
        const padding = randomBytes(18 * Math.max(0, target - lines.length))
          .toString('hex')
          .toUpperCase();
        for (let at = 0; lines.length < target; at += 36) lines.push(`${padding.slice(at, at + 35)}:0`);
        lines.sort();
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join(state.behaviour === 'lf-lines' ? '\n' : '\r\n'));
    };
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (state.held) state.held.push(answer);
      else answer();
    });
  });
  server.on('connection', (socket) => {
    if (state.behaviour === 'offline') {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(value) {
      state.behaviour = value;
      // The network went away: what was open is cut too, answered or not.
      if (value === 'offline') for (const socket of sockets) socket.destroy();
    },
    get retryAfterSeconds() {
      return state.retryAfterSeconds;
    },
    set retryAfterSeconds(value) {
      state.retryAfterSeconds = value;
    },
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    resetCounters() {
      state.maxInFlight = state.inFlight;
    },
    hold() {
      state.held ??= [];
    },
    release() {
      const held = state.held ?? [];
      state.held = undefined;
      for (const answer of held) answer();
    },
    setSeen,
    countOf(password) {
      const hash = sha1Hex(password);
      return byPrefix.get(hash.slice(0, 5))?.get(hash.slice(5)) ?? 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        state.held = undefined;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
