// Raw HTTP/1.1 over a socket, for what fetch cannot send: odd request-targets, a chunked body
// that keeps going, and several requests on one connection.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case header names; the last value wins. */
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** The server closed the connection (before the wait ended). */
  closed: boolean;
}

/**
 * Opens a connection to `origin`, lets `send` write to it, and collects responses until
 * `expect` responses arrived, the server closed the connection, or `timeoutMs` passed.
 * Responses are delimited by Content-Length (the reference service always sends it).
 */
export async function rawExchange(origin: string, send: (socket: Socket) => Promise<void>, options: { expect: number; timeoutMs: number }): Promise<RawExchange> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port || 80), hostname.replace(/^\[|\]$/g, ''));
  socket.on('error', () => {});
  let buffer = Buffer.alloc(0);
  const responses: RawResponse[] = [];
  let closed = false;
  let wake: () => void = () => {};

  const parse = () => {
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      responses.push({ status, headers, body: buffer.subarray(end + 4, end + 4 + length).toString('utf8') });
      buffer = buffer.subarray(end + 4 + length);
    }
  };
  socket.on('data', (data: Buffer) => {
    buffer = Buffer.concat([buffer, data]);
    parse();
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const deadline = Date.now() + options.timeoutMs;
  try {
    // Not awaited: a server may answer (or stop reading) before everything is sent.
    void send(socket).catch(() => {});
    while (responses.length < options.expect && !closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
    }
  } finally {
    socket.destroy();
  }
  return { responses, closed };
}

/** Writes to the socket, resolving when the data is flushed (rejecting if the socket is gone). */
export function write(socket: Socket, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) {
      reject(new Error('socket closed'));
      return;
    }
    socket.write(data, (error) => (error ? reject(error) : resolve()));
  });
}
