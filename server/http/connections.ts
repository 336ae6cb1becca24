import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIPv6, type Socket } from 'node:net';
import { HttpProblem, sendProblem } from './problems.ts';

/** Limits on the service's connections (milliseconds and counts), from the service's config. */
export interface ConnectionLimits {
  /** Time to receive a request's headers, and its whole body. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** A connection that has sent nothing at all is closed after this long. */
  idleTimeoutMs: number;
  /** A connection whose reader takes none of an answer's unsent bytes for this long is closed. */
  sendTimeoutMs: number;
  /** Open connections in all. */
  maxConnections: number;
  /** Open connections from one address (one /64 for IPv6). */
  maxConnectionsPerIp: number;
}

/** Seconds a client is asked to wait before retrying while the service starts. */
const STARTING_RETRY_AFTER_SEC = 1;

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** What is known of one open connection. */
interface Connection {
  socket: Socket;
  address: string;
  /** Requests whose answers have not finished. */
  active: Set<ServerResponse>;
  /** `socket.bytesRead` when it last went quiet (no request in flight): more since means a request is arriving. */
  quietAt: number;
  idleTimer: NodeJS.Timeout | undefined;
  /** What its reader had taken when last looked at (see {@link sendProgress}), and since when it has taken nothing more. */
  sent: SendProgress | undefined;
  stalledSince: number;
}

/** How far a socket's writing has got: bytes handed to the kernel, and bytes still queued in the write under way. */
interface SendProgress {
  handedOver: number;
  inWrite: number;
}

export interface LimitedServer {
  server: Server;
  /** Hands requests to `handler`; until then each is answered 503 with `Retry-After`. */
  serve(handler: RequestHandler): void;
  /** Open connections, in all and from `address`. */
  connectionCount(address?: string): number;
  /**
   * Stops accepting, lets requests in flight finish (event streams are ended, since they never
   * would), closes each connection as it goes quiet, and after `graceMs` closes what is left.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * An HTTP server whose timeouts and connection caps keep slow or greedy clients from holding
 * it. Node's own timeouts cover a request once its first byte arrives; this adds what they do
 * not: a connection that sends nothing is closed after `idleTimeoutMs`, a connection answered
 * 408 is closed once the answer is written (Node leaves it half-open for the client to close),
 * and connections are capped per address and in all. At either cap the oldest quiet connection
 * (nothing sent since it opened or since its last answer) makes way for the new one, and only
 * when every connection is busy is the new one refused — so idle sockets, however many, cannot
 * lock others out. Busy connections do not stay busy for good either: one whose reader has taken
 * nothing of what is waiting to be sent for `sendTimeoutMs` (it stopped reading a large answer) is
 * closed; Node has no such timeout (`server.timeout` is 0), and event streams bound their own
 * unread bytes besides (server/rtdb/stream.ts).
 */
export function createLimitedServer(limits: ConnectionLimits, onClientError: (error: Error, socket: Socket) => void): LimitedServer {
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node looks for requests past those timeouts (30 s by default, longer than them).
    connectionsCheckingInterval: Math.max(50, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs, 30_000) / 4),
  });
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;

  // Insertion order is age order: the first quiet entry found is the oldest.
  const open = new Map<Socket, Connection>();
  const byAddress = new Map<string, Set<Connection>>();
  let handler: RequestHandler | undefined;
  let draining = false;

  const isQuiet = (connection: Connection) => connection.active.size === 0 && connection.socket.bytesRead === connection.quietAt;
  const oldestQuiet = (among: Iterable<Connection>) => {
    for (const connection of among) if (isQuiet(connection)) return connection;
    return undefined;
  };
  const forget = (connection: Connection) => {
    clearTimeout(connection.idleTimer);
    if (!open.delete(connection.socket)) return;
    const fromAddress = byAddress.get(connection.address)!;
    fromAddress.delete(connection);
    if (fromAddress.size === 0) byAddress.delete(connection.address);
  };

  server.on('connection', (socket: Socket) => {
    if (draining) return void socket.destroy();
    const address = addressKey(socket.remoteAddress ?? '');
    const fromAddress = byAddress.get(address);
    if (fromAddress && fromAddress.size >= limits.maxConnectionsPerIp) {
      const evicted = oldestQuiet(fromAddress);
      if (!evicted) return void socket.destroy();
      close(evicted);
    }
    if (open.size >= limits.maxConnections) {
      const evicted = oldestQuiet(open.values());
      if (!evicted) return void socket.destroy();
      close(evicted);
    }
    const connection: Connection = { socket, address, active: new Set(), quietAt: 0, idleTimer: undefined, sent: undefined, stalledSince: 0 };
    connection.idleTimer = setTimeout(() => {
      if (connection.socket.bytesRead === 0 && connection.active.size === 0) close(connection);
    }, limits.idleTimeoutMs).unref();
    open.set(socket, connection);
    if (fromAddress) fromAddress.add(connection);
    else byAddress.set(address, new Set([connection]));
    socket.once('close', () => forget(connection));
  });

  function close(connection: Connection): void {
    forget(connection);
    connection.socket.destroy();
  }

  // One sweep for every connection, a few times per send timeout: a connection with bytes waiting
  // to be sent is closed once its reader has taken none of them for the whole timeout.
  const sendSweep = setInterval(
    () => {
      const now = Date.now();
      for (const connection of [...open.values()]) {
        const progress = sendProgress(connection.socket);
        const moved = !connection.sent || progress.handedOver > connection.sent.handedOver || progress.inWrite < connection.sent.inWrite;
        connection.sent = progress;
        if (connection.socket.writableLength === 0 || moved) connection.stalledSince = now;
        else if (now - connection.stalledSince >= limits.sendTimeoutMs) close(connection);
      }
    },
    Math.max(25, Math.floor(limits.sendTimeoutMs / 4)),
  ).unref();
  server.once('close', () => clearInterval(sendSweep));

  // Node answers a request past its timeout through 'clientError' and then leaves the socket
  // open until the client closes it; a slow client never does, so it is closed once answered.
  server.on('clientError', (error: Error, socket: Socket) => {
    onClientError(error, socket);
    if (!socket.destroyed) socket.destroySoon();
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = open.get(req.socket);
    if (connection) {
      clearTimeout(connection.idleTimer);
      connection.active.add(res);
      res.once('close', () => {
        connection.active.delete(res);
        if (connection.active.size > 0) return;
        connection.quietAt = connection.socket.bytesRead;
        if (draining) connection.socket.destroySoon();
      });
    }
    if (draining) res.setHeader('connection', 'close');
    if (handler) return handler(req, res);
    sendProblem(res, new HttpProblem(503, 'the service is starting; try again shortly', { headers: { 'retry-after': String(STARTING_RETRY_AFTER_SEC) } }));
  });

  return {
    server,
    serve(next) {
      handler = next;
    },
    connectionCount(address) {
      return address === undefined ? open.size : (byAddress.get(addressKey(address))?.size ?? 0);
    },
    async drain(graceMs) {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of [...open.values()]) {
        if (isQuiet(connection)) close(connection);
        // A stream has no end of its own; its client reconnects (to another instance, or later),
        // told so by the stream's own last event where it has one.
        for (const res of connection.active) {
          if (!res.headersSent || !isEventStream(res)) continue;
          const endForShutdown = shutdownEnds.get(res);
          if (endForShutdown) endForShutdown();
          else res.end();
        }
      }
      // Not unref'd: a stopping service stays up until its requests are done or the grace is over.
      const timer = setTimeout(() => {
        server.closeAllConnections();
        for (const connection of [...open.values()]) close(connection);
      }, graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** How each event stream that has a last event of its own ends when the service stops (see {@link endOnShutdown}). */
const shutdownEnds = new WeakMap<ServerResponse, () => void>();

/**
 * Registers how an event stream ends when the service drains: `end` writes the stream's last
 * event (e.g. `reconnect`) and ends it. Without one, a draining service just ends the stream.
 */
export function endOnShutdown(res: ServerResponse, end: () => void): void {
  shutdownEnds.set(res, end);
}

/**
 * `writableLength` counts a write until all of it is sent, so one large answer written at once
 * shows no progress there while its reader takes it slowly; the handle's `writeQueueSize` (what
 * the operating system has not yet taken of the write under way) does.
 */
function sendProgress(socket: Socket): SendProgress {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: number } | null })._handle;
  return { handedOver: socket.bytesWritten - socket.writableLength, inWrite: handle?.writeQueueSize ?? 0 };
}

function isEventStream(res: ServerResponse): boolean {
  return /^text\/event-stream\b/i.test(String(res.getHeader('content-type') ?? ''));
}

/** Connections are counted per IPv4 address and per IPv6 /64 (what one host is usually given). */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups] : headGroups;
  return (
    groups
      .slice(0, 4)
      .map((group) => group.replace(/^0+(?=.)/, ''))
      .join(':') + '::/64'
  );
}
