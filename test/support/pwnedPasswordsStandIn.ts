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
// Every request is recorded whole (method, path, query, headers, body), so tests assert on
// what reached it rather than on what the client meant to send.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type StandInBehaviour = 'answer' | 'server-error' | 'garbage' | 'lf-lines';

export interface PwnedPasswordsStandIn {
  origin: string;
  readonly requests: ReceivedRequest[];
  behaviour: StandInBehaviour;
  close(): Promise<void>;
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();
}

/** Starts the stand-in on a free loopback port; `seen` maps passwords to how often they were "seen in breaches". */
export async function startPwnedPasswordsStandIn(seen: Record<string, number>, options: { random?: () => number } = {}): Promise<PwnedPasswordsStandIn> {
  const random = options.random ?? Math.random;
  const byPrefix = new Map<string, Map<string, number>>();
  for (const [password, count] of Object.entries(seen)) {
    const hash = sha1Hex(password);
    const suffixes = byPrefix.get(hash.slice(0, 5)) ?? new Map<string, number>();
    suffixes.set(hash.slice(5), count);
    byPrefix.set(hash.slice(0, 5), suffixes);
  }
  const requests: ReceivedRequest[] = [];
  const state = { behaviour: 'answer' as StandInBehaviour };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
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
        while (lines.length < target) lines.push(`${randomBytes(18).toString('hex').toUpperCase().slice(0, 35)}:0`);
        lines.sort();
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join(state.behaviour === 'lf-lines' ? '\n' : '\r\n'));
    });
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
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
