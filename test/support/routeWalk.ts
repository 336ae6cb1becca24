// Requests built from the service's own mount table (server/http/mounts.ts), so a mount added
// tomorrow is walked by every test that uses these, the day it is added.
import { request } from 'node:http';
import type { Mount } from '../../server/http/mounts.ts';

export interface WalkRequest {
  mount: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface WalkAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Header sets an attacker would try: conditions, method overrides, ETags, streams, content types. */
export const HEADER_VARIANTS: readonly Record<string, string>[] = [
  {},
  { 'if-match': '"x"' },
  { 'if-match': '*' },
  { 'if-none-match': '"x"', 'x-firebase-etag': 'true' },
  { 'x-http-method-override': 'GET' },
  { 'x-http-method-override': 'DELETE' },
  { 'x-http-method-override': 'PATCH', 'if-match': '"x"' },
  { accept: 'text/event-stream' },
  { 'content-type': 'text/plain' },
];

/** Query parameters added to each route's own. */
export const QUERY_VARIANTS: readonly string[] = [
  '',
  'print=pretty',
  'print=silent',
  'shallow=true',
  'auth=not-a-token',
  'format=export&orderBy=%22%24key%22',
  // Queries of every kind, also ones a location's rules have no index for and malformed ones.
  'orderBy=%22%24key%22&limitToFirst=1&startAt=%22a%22',
  'orderBy=%22%24value%22&limitToLast=1',
  'orderBy=%22note%22&equalTo=%22alice-walk-private-7f3a%22',
  'orderBy=%22theme%22&startAt=%22a%22&endAt=%22z%22',
  'orderBy=%22%24priority%22&print=silent',
  'orderBy=%22%24key%22&shallow=true',
  'limitToFirst=1',
  'timeout=3s&writeSizeLimit=tiny',
];

/** Every route × method × header × query combination of `mounts`, without credentials. */
export function* walkRequests(mounts: readonly Mount[], substitutions: Record<string, string>): Generator<WalkRequest> {
  for (const entry of mounts) {
    for (const route of entry.routes) {
      let path = route.path;
      for (const [name, value] of Object.entries(substitutions)) path = path.replaceAll(`{${name}}`, value);
      for (const method of route.methods) {
        for (const headers of HEADER_VARIANTS) {
          for (const query of QUERY_VARIANTS) {
            const target = query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`;
            const body = method === 'GET' || method === 'HEAD' || method === 'DELETE' || method === 'OPTIONS' ? undefined : (route.body ?? '{}');
            const contentType = headers['content-type'] ?? (body === undefined ? undefined : 'application/json');
            yield { mount: entry.name, method, path: target, headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) }, body };
          }
        }
      }
    }
  }
}

/**
 * One request over a fresh connection, with an exact Host header. A stream that stays open is
 * cut after `streamMs`, keeping what it sent by then.
 */
export function sendRaw(port: number, host: string, walk: Pick<WalkRequest, 'method' | 'path' | 'headers' | 'body'>, streamMs = 300): Promise<WalkAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...walk.headers, connection: 'close' };
    if (walk.body !== undefined) headers['content-length'] = String(Buffer.byteLength(walk.body));
    const req = request({ host: '127.0.0.1', port, method: walk.method, path: walk.path, headers, setHost: false, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const timer = setTimeout(() => {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      }, streamMs);
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on('error', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.setHeader('host', host);
    req.on('error', reject);
    req.end(walk.body);
  });
}
