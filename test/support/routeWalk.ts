// Requests built from the service's own mount table (server/mounts.ts) and an example of every
// route each mount answers: a mount added tomorrow without its examples here fails every test that
// walks the table, the day it is added.
import { request } from 'node:http';
import { FIREFOX_API_PREFIX } from '../../shared/api/index.ts';
import { API_PREFIX } from '../../server/api/routes.ts';
import { DEMO_LOGO_PREFIX } from '../../server/catalog/demoDetails.ts';
import { DEV_PREFIX } from '../../server/dev/routes.ts';
import { GRAPH_PATH } from '../../server/graph/routes.ts';
import type { Mount } from '../../server/http/mounts.ts';
import { IDENTITY_PREFIX } from '../../server/identity/mount.ts';
import { OPENAPI_PATH } from '../../server/openapi/document.ts';
import { RTDB_PREFIX } from '../../server/rtdb/routes.ts';
import { SEARCH_INSTANCE, SEARCH_PREFIX } from '../../server/search/index.ts';

/** One request the route walk sends to a mount (test/server/hardening/routeWalk.test.ts). */
export interface RouteExample {
  /** The path, with any query it needs; `{account}` is replaced by the search account. */
  path: string;
  methods: readonly string[];
  /** A body a valid request would carry (JSON). */
  body?: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const RESOLUTION = JSON.stringify([{ breachId: 'Adobe', dataClasses: ['Passwords'], resolved: true }]);

/** Every route each mount answers, by the mount's name: what the route walk and the Host-gate test send. */
export const ROUTE_EXAMPLES: Readonly<Record<string, readonly RouteExample[]>> = {
  'firefox-v1': [
    { path: `${FIREFOX_API_PREFIX}/user/breaches`, methods: METHODS },
    { path: `${FIREFOX_API_PREFIX}/user/breaches?domain=adobe.com`, methods: ['GET'] },
    { path: `${FIREFOX_API_PREFIX}/user/breaches/resolutions`, methods: METHODS, body: JSON.stringify([{ breachId: 'Adobe', dataClasses: ['passwords'] }]) },
    { path: `${FIREFOX_API_PREFIX}/user`, methods: ['POST'] },
  ],
  'api-v1': [
    { path: `${API_PREFIX}/user`, methods: METHODS },
    { path: `${API_PREFIX}/user/breaches`, methods: METHODS },
    { path: `${API_PREFIX}/user/breaches?dataClass=Passwords&includeResolved=true`, methods: ['GET'] },
    { path: `${API_PREFIX}/user/breaches/resolutions`, methods: METHODS, body: RESOLUTION },
    { path: `${API_PREFIX}/user/checks`, methods: METHODS },
    { path: `${API_PREFIX}/user/catalog-changes`, methods: METHODS },
  ],
  search: [
    { path: `${SEARCH_PREFIX}/accounts/{account}/ai-search/instances/${SEARCH_INSTANCE}/search`, methods: ['POST', 'GET'], body: JSON.stringify({ query: 'password' }) },
    {
      path: `${SEARCH_PREFIX}/accounts/{account}/ai-search/instances/${SEARCH_INSTANCE}/chat/completions`,
      methods: ['POST'],
      body: JSON.stringify({ messages: [{ role: 'user', content: 'password' }] }),
    },
    { path: `${SEARCH_PREFIX}/accounts/{account}/legacy-rag/rags/${SEARCH_INSTANCE}/search`, methods: ['POST'], body: JSON.stringify({ query: 'password' }) },
    { path: `${SEARCH_PREFIX}/accounts/{account}/legacy-rag/rags/${SEARCH_INSTANCE}/ai-search`, methods: ['POST'], body: JSON.stringify({ query: 'password' }) },
  ],
  rtdb: [
    { path: `${RTDB_PREFIX}/.json`, methods: METHODS, body: '{"x":1}' },
    { path: `${RTDB_PREFIX}/users.json`, methods: METHODS, body: '{"x":1}' },
    { path: `${RTDB_PREFIX}/users/alice.json`, methods: METHODS, body: '{"x":1}' },
    { path: `${RTDB_PREFIX}/users/alice/preferences.json`, methods: METHODS, body: '{"theme":"dark"}' },
    { path: `${RTDB_PREFIX}/catalog.json`, methods: ['GET', 'PUT', 'PATCH', 'POST', 'DELETE'], body: '{"x":1}' },
    { path: `${RTDB_PREFIX}/.settings/rules.json`, methods: ['GET', 'PUT'], body: '{"rules":{".read":true}}' },
  ],
  identity: [
    { path: `${IDENTITY_PREFIX}/.well-known/openid-configuration`, methods: ['GET'] },
    { path: `${IDENTITY_PREFIX}/jwks`, methods: ['GET'] },
    { path: `${IDENTITY_PREFIX}/me`, methods: ['GET'] },
    { path: `${IDENTITY_PREFIX}/token`, methods: ['POST'], body: '{}' },
    { path: `${IDENTITY_PREFIX}/token/revocation`, methods: ['POST'], body: '{}' },
  ],
  graph: [{ path: `${GRAPH_PATH}?nodes=Adobe&property=->*`, methods: ['GET', 'POST', 'PUT'] }],
  dev: [
    { path: `${DEV_PREFIX}/rtdb-secrets`, methods: ['POST'] },
    { path: `${DEV_PREFIX}/token`, methods: ['POST'], body: JSON.stringify({ sub: 'mallory' }) },
    { path: `${DEV_PREFIX}/id-token`, methods: ['POST'], body: JSON.stringify({ sub: 'mallory' }) },
    { path: `${DEV_PREFIX}/accounts/mallory`, methods: ['PUT'], body: JSON.stringify({ emails: [] }) },
  ],
  root: [{ path: '/', methods: ['GET', 'HEAD', 'POST'] }],
  logos: [
    { path: `${DEMO_LOGO_PREFIX}Adobe.svg`, methods: ['GET', 'HEAD'] },
    { path: `${DEMO_LOGO_PREFIX}%E0%A4%A.svg`, methods: ['GET'] },
  ],
  openapi: [{ path: OPENAPI_PATH, methods: ['GET'] }],
};

/** The examples of one mount; a mount with none is an error, not a mount left unwalked. */
export function routesOf(entry: Pick<Mount, 'name'>): readonly RouteExample[] {
  const routes = ROUTE_EXAMPLES[entry.name];
  if (!routes || routes.length === 0) throw new Error(`the mount ${entry.name} has no route examples: add them to ROUTE_EXAMPLES (test/support/routeWalk.ts)`);
  return routes;
}

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
    for (const route of routesOf(entry)) {
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
