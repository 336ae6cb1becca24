import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const SECRET_HEADER = 'x-monitor-secret';
/** Carries a one-time launch code to `POST /__session`. */
export const CODE_HEADER = 'x-monitor-code';
/** How long a launch link works (once). */
export const LAUNCH_CODE_TTL_MS = 2 * 60_000;

export interface RequestGuardOptions {
  /** Milliseconds since the epoch; for tests. */
  now?: () => number;
}

/**
 * Who may talk to the browser host. It listens on loopback, but any web page the person opens
 * can send requests to loopback, and DNS rebinding can make a foreign name resolve to it, so:
 * the Host header must name this listener exactly, an Origin (when sent) must be this origin,
 * and every request must prove it holds a session.
 *
 * A session starts only by exchanging a one-time launch code (printed, or handed to the browser
 * through a private redirect page), valid for two minutes. The secret never leaves this process:
 * it keys the session tokens (a random nonce and its HMAC) and the cookie values derived from
 * them, so they are checked by computation rather than looked up. A host restarted with the same
 * secret and port (`npm start` keeps both in `browser-host.json`) therefore still accepts the
 * tab that was left open, as README says; a new secret ends every session.
 */
export class RequestGuard {
  readonly #secret: Buffer;
  readonly #port: number;
  readonly #now: () => number;
  /** Launch code → when it stops working. Deleted on first use. */
  readonly #codes = new Map<string, number>();

  constructor(secret: string, port: number, options: RequestGuardOptions = {}) {
    this.#secret = Buffer.from(secret);
    this.#port = port;
    this.#now = options.now ?? Date.now;
  }

  get cookieName(): string {
    return `bm_session_${this.#port}`;
  }

  /** A new launch code: works once, for {@link LAUNCH_CODE_TTL_MS}. */
  issueLaunchCode(): string {
    const now = this.#now();
    for (const [code, expires] of this.#codes) if (expires <= now) this.#codes.delete(code);
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, now + LAUNCH_CODE_TTL_MS);
    return code;
  }

  /** Exchanges a launch code (once, before it expires) for a new session token. */
  redeemLaunchCode(req: IncomingMessage): string | undefined {
    const code = req.headers[CODE_HEADER];
    if (typeof code !== 'string') return undefined;
    const expires = this.#codes.get(code);
    if (expires === undefined) return undefined;
    this.#codes.delete(code);
    if (expires <= this.#now()) return undefined;
    const nonce = randomBytes(24).toString('base64url');
    return `${nonce}.${this.#mac('browser-host-token', nonce)}`;
  }

  /**
   * The Set-Cookie header that admits the page holding `token` to the app's files: the token's
   * nonce with a MAC of another purpose, never the token itself (cookies are not isolated by
   * port, so another local server could be sent it; it opens only the app's static files).
   */
  sessionCookie(token: string): string {
    const nonce = this.#validToken(token) ? token.slice(0, token.indexOf('.')) : undefined;
    return `${this.cookieName}=${nonce ? `${nonce}.${this.#mac('browser-host-cookie', nonce)}` : ''}; Path=/; HttpOnly; SameSite=Strict`;
  }

  #mac(purpose: string, nonce: string): string {
    return createHmac('sha256', this.#secret).update(`${purpose}\0${this.#port}\0${nonce}`).digest('base64url');
  }

  /** A `<nonce>.<mac>` value this host's secret made for `purpose`. */
  #signedBy(purpose: string, value: string): boolean {
    const dot = value.indexOf('.');
    if (dot <= 0 || dot !== value.lastIndexOf('.')) return false;
    return safeEqual(Buffer.from(value.slice(dot + 1)), Buffer.from(this.#mac(purpose, value.slice(0, dot))));
  }

  #validToken(token: string): boolean {
    return this.#signedBy('browser-host-token', token);
  }

  allowedOrigins(): string[] {
    return [`http://127.0.0.1:${this.#port}`, `http://localhost:${this.#port}`];
  }

  /** Host and Origin: refuse DNS rebinding and cross-site requests. */
  checkOrigin(req: IncomingMessage): string | undefined {
    const host = req.headers.host;
    if (!host || !this.allowedOrigins().includes(`http://${host}`)) return 'unexpected Host header';
    const origin = req.headers.origin;
    if (origin !== undefined && !this.allowedOrigins().includes(origin)) return 'cross-origin request';
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'cross-site request';
    return undefined;
  }

  /** The session token sent by the app's scripts on API calls, when it is one this host handed out. */
  sessionTokenOf(req: IncomingMessage): string | undefined {
    const given = req.headers[SECRET_HEADER];
    return typeof given === 'string' && this.#validToken(given) ? given : undefined;
  }

  /** The session token, sent by the app's scripts on API calls. */
  hasSecretHeader(req: IncomingMessage): boolean {
    return this.sessionTokenOf(req) !== undefined;
  }

  /** The session cookie, sent by the browser for the app's own files. */
  hasSession(req: IncomingMessage): boolean {
    const cookies = req.headers.cookie ?? '';
    for (const part of cookies.split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name !== this.cookieName) continue;
      if (this.#signedBy('browser-host-cookie', value.join('='))) return true;
    }
    return false;
  }
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
