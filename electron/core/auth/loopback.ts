import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderCallbackPage } from './callbackPage.ts';
import { SignInError } from './errors.ts';
import type { Settled } from '../../../shared/base/settled.ts';

export interface LoopbackOptions<T> {
  /** 0 lets the system pick a free port. */
  port: number;
  /** The redirect path, e.g. `/callback`. */
  path: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /**
   * Turns the URL the browser came back with into the sign-in's result. The browser waits for
   * it, so the page it shows tells the truth about the outcome; a rejection's message (in
   * words, without secrets) is what the page says.
   */
  complete: (callbackUrl: URL) => Promise<T>;
}

export interface LoopbackRedirect<T> {
  readonly redirectUri: string;
  readonly port: number;
  /** Settles once: the callback's result, or a SignInError (timeout, cancelled, or what `complete` threw). */
  readonly result: Promise<T>;
  /** Stops listening and drops every connection; safe to call more than once. */
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
// After a settled sign-in the browser may hold keep-alive sockets; give the last page this long to flush.
const DRAIN_MS = 1000;

/**
 * The loopback redirect listener of a native app (RFC 8252 §7.3): bound to 127.0.0.1 only,
 * one callback, then closed. Requests for other paths get a 404; a second callback while the
 * first is being completed is refused.
 */
export async function openLoopbackRedirect<T>(options: LoopbackOptions<T>): Promise<LoopbackRedirect<T>> {
  if (options.signal?.aborted) throw cancelled();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, options.port)));
    server.listen({ port: options.port, host: HOST, exclusive: true }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://${HOST}:${port}${options.path}`;

  let settled: Settled<T> | undefined;
  let resolveResult!: (value: T) => void;
  let rejectResult!: (error: unknown) => void;
  const result = new Promise<T>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // The caller may stop waiting (opener failed, app cancelled) and only call close().
  result.catch(() => {});

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (!settled) settle({ ok: false, error: cancelled() });
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), DRAIN_MS).unref();
    });
    return closing;
  };

  function settle(outcome: Settled<T>): void {
    if (settled) return;
    settled = outcome;
    if (outcome.ok) resolveResult(outcome.value);
    else rejectResult(outcome.error);
  }

  const timer = setTimeout(() => {
    settle({ ok: false, error: new SignInError('timeout', `The sign-in was not finished within ${describeDuration(options.timeoutMs)}. Start it again from the app.`) });
    void close();
  }, options.timeoutMs);
  const onAbort = () => {
    settle({ ok: false, error: cancelled() });
    void close();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let handling = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    if (url.pathname !== options.path || req.headers.host !== `${HOST}:${port}`) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Not found');
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET', 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Method not allowed');
      return;
    }
    if (handling || settled) {
      sendPage(res, 409, { ok: false, message: 'This sign-in has already been handled.' });
      return;
    }
    handling = true;
    // Only the query comes from the request: the host and path are ours, whatever the request claimed.
    const callbackUrl = new URL(redirectUri);
    callbackUrl.search = url.search;
    options
      .complete(callbackUrl)
      .then(
        (value) => settle({ ok: true, value }),
        (error: unknown) => settle({ ok: false, error }),
      )
      .finally(() => {
        const outcome = settled!;
        sendPage(res, outcome.ok ? 200 : 400, outcome.ok ? { ok: true } : { ok: false, message: wordsOf(outcome.error) });
        res.once('finish', () => void close());
      });
  });

  return { redirectUri, port, result, close };
}

function sendPage(res: ServerResponse, status: number, outcome: { ok: true } | { ok: false; message: string }): void {
  const page = renderCallbackPage(outcome);
  const body = Buffer.from(page.html, 'utf8');
  res.writeHead(status, { ...page.headers, 'content-length': String(body.length), connection: 'close' });
  res.end(body);
}

function wordsOf(error: unknown): string {
  return error instanceof SignInError ? error.message : 'The sign-in could not be completed.';
}

function cancelled(): SignInError {
  return new SignInError('cancelled', 'The sign-in was cancelled.');
}

function listenError(error: NodeJS.ErrnoException, port: number): Error {
  if (error.code === 'EADDRINUSE') {
    return new SignInError(
      'port-in-use',
      `Breach Monitor cannot receive the sign-in on port ${port}: another program on this computer is using it. ` +
        'Your sign-in provider only accepts that one port, so close the other program (or change redirect.port in the configuration) and try again.',
    );
  }
  if (error.code === 'EACCES') {
    return new SignInError('port-in-use', `Breach Monitor is not allowed to listen on port ${port} for the sign-in. Choose a port above 1024 in redirect.port.`);
  }
  return new SignInError('network', `Breach Monitor could not start listening for the sign-in: ${error.code ?? error.message}.`);
}

function describeDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
