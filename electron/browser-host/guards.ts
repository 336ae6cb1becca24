import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const SECRET_HEADER = 'x-monitor-secret';

/**
 * Who may talk to the browser host. It listens on loopback, but any web page the person opens
 * can send requests to loopback, and DNS rebinding can make a foreign name resolve to it, so:
 * the Host header must name this listener exactly, an Origin (when sent) must be this origin,
 * and every request must prove it knows the per-launch secret.
 */
export class RequestGuard {
  readonly #secret: Buffer;
  readonly #port: number;
  readonly #sessionValue: string;

  constructor(secret: string, port: number) {
    this.#secret = Buffer.from(secret);
    this.#port = port;
    // The cookie carries a value derived from the secret, never the secret itself: cookies are
    // not isolated by port, so another local server could be sent it.
    this.#sessionValue = createHmac('sha256', this.#secret).update('browser-host-session').digest('base64url');
  }

  get cookieName(): string {
    return `bm_session_${this.#port}`;
  }

  /** The Set-Cookie header that admits a page which proved it knows the secret. */
  sessionCookie(): string {
    return `${this.cookieName}=${this.#sessionValue}; Path=/; HttpOnly; SameSite=Strict`;
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

  /** The secret itself, sent by the app's scripts on API calls. */
  hasSecretHeader(req: IncomingMessage): boolean {
    const given = req.headers[SECRET_HEADER];
    return typeof given === 'string' && safeEqual(Buffer.from(given), this.#secret);
  }

  /** The session cookie, sent by the browser for the app's own files. */
  hasSession(req: IncomingMessage): boolean {
    const cookies = req.headers.cookie ?? '';
    for (const part of cookies.split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === this.cookieName && safeEqual(Buffer.from(value.join('=')), Buffer.from(this.#sessionValue))) return true;
    }
    return false;
  }
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
