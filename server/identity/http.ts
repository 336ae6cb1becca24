import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RenderedPage } from './pages.ts';

/** Headers every identity page carries: never cached (they hold per-interaction state), never framed. */
export function pageHeaders(page: RenderedPage): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': page.contentSecurityPolicy,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}

export function sendPage(res: ServerResponse, status: number, page: RenderedPage): void {
  const body = Buffer.from(page.html, 'utf8');
  res.writeHead(status, { ...pageHeaders(page), 'Content-Length': String(body.length) });
  res.end(body);
}

export class FormBodyError extends Error {
  override readonly name = 'FormBodyError';
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

// Login and consent forms carry a few short fields; anything larger is not ours.
const MAX_FORM_BYTES = 8 * 1024;

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new FormBodyError(415, 'expected a form submission');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_FORM_BYTES) throw new FormBodyError(413, 'form too large');
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
