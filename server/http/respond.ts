import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** A strong ETag for a body: the same bytes always give the same tag. */
export function etagOf(body: string | Buffer): string {
  return '"' + createHash('sha256').update(body).digest('base64url').slice(0, 27) + '"';
}

/** RFC 9110 weak comparison of If-None-Match against a tag (lists, `W/` and `*`). */
export function ifNoneMatchHits(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const wanted = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === wanted;
  });
}

/** Sends a cacheable JSON body, or 304 when the client already has these bytes. */
export function sendCacheableJson(req: IncomingMessage, res: ServerResponse, body: string | Buffer, etag: string): void {
  const headers = { etag, 'cache-control': 'private, no-cache', vary: 'Authorization' };
  if (ifNoneMatchHits(req, etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function isLoopback(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
