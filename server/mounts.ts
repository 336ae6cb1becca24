import type { IncomingMessage, ServerResponse } from 'node:http';
import { FIREFOX_API_PREFIX } from '../shared/api/index.ts';
import { API_PREFIX, type createApiRoutes } from './api/routes.ts';
import { DEMO_LOGO_PREFIX, demoLogoSvg } from './catalog/demoDetails.ts';
import { DEV_PREFIX, type createDevRoutes } from './dev/routes.ts';
import type { FirefoxMount } from './firefox/routes.ts';
import { GRAPH_PATH, type createGraphRoutes } from './graph/routes.ts';
import { devAccess, mount, PUBLIC, type Mount } from './http/mounts.ts';
import { HttpProblem } from './http/problems.ts';
import { sendJson } from './http/respond.ts';
import type { DevIdentityProvider } from './identity/index.ts';
import { OPENAPI_PATH, readOpenApiDocument } from './openapi/document.ts';
import { RTDB_PREFIX, type RtdbMount } from './rtdb/routes.ts';
import type { SearchService } from './search/index.ts';

export const IDENTITY_PREFIX = '/oidc';

export interface ServiceMountParts {
  /** The Host names the service answers (the dev surface's Origin check uses them too). */
  hostNames: ReadonlySet<string>;
  issuer: string;
  accountId: string;
  firefox: FirefoxMount;
  api: ReturnType<typeof createApiRoutes>;
  search: SearchService;
  rtdb: RtdbMount;
  identity: DevIdentityProvider | undefined;
  graph: ReturnType<typeof createGraphRoutes>;
  dev: ReturnType<typeof createDevRoutes> | undefined;
  logoExists(id: string): Promise<boolean>;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const RESOLUTION = JSON.stringify([{ breachId: 'Adobe', dataClasses: ['Passwords'], resolved: true }]);

/**
 * The service's mounts, in the order the router tries them. Each names who it trusts and the
 * routes it answers (docs/security.md has a row per mount); the router runs each one's access
 * decision before its handler. A mount not enabled in this configuration is left out, so its
 * paths are 404 like any other unknown path.
 */
export function serviceMounts(parts: ServiceMountParts): readonly Mount[] {
  const { firefox, api, search, rtdb, identity, graph, dev } = parts;
  const mounts: Mount[] = [
    mount({
      name: 'firefox-v1',
      prefix: FIREFOX_API_PREFIX,
      boundary: 'a person, by an access token of the configured issuer carrying the monitor scope',
      access: (req) => firefox.access(req),
      handle: (req, res, url, claims) => firefox.handle(req, res, url, claims),
      refuse: (res, error) => firefox.refuse(res, error),
      routes: [
        { path: `${FIREFOX_API_PREFIX}/user/breaches`, methods: METHODS },
        { path: `${FIREFOX_API_PREFIX}/user/breaches?domain=adobe.com`, methods: ['GET'] },
        { path: `${FIREFOX_API_PREFIX}/user/breaches/resolutions`, methods: METHODS, body: JSON.stringify([{ breachId: 'Adobe', dataClasses: ['passwords'] }]) },
        { path: `${FIREFOX_API_PREFIX}/user`, methods: ['POST'] },
      ],
    }),
    mount({
      name: 'api-v1',
      prefix: API_PREFIX,
      boundary: 'a person, by an access token of the configured issuer (verified before any route runs)',
      access: (req) => api.access(req),
      handle: (req, res, url, caller) => api.handle(req, res, url, caller),
      routes: [
        { path: `${API_PREFIX}/user`, methods: METHODS },
        { path: `${API_PREFIX}/user/breaches`, methods: METHODS },
        { path: `${API_PREFIX}/user/breaches?dataClass=Passwords&includeResolved=true`, methods: ['GET'] },
        { path: `${API_PREFIX}/user/breaches/resolutions`, methods: METHODS, body: RESOLUTION },
        { path: `${API_PREFIX}/user/checks`, methods: METHODS },
        { path: `${API_PREFIX}/user/catalog-changes`, methods: METHODS },
      ],
    }),
    // Its routes, their access (API tokens) and their examples are the search table's (server/search/searchMount.ts).
    mount(search.mount),
    mount({
      name: 'rtdb',
      prefix: RTDB_PREFIX,
      boundary: 'anyone for catalog/; a person, by an ID token, for users/<own uid>/; service accounts and secrets for all (the rules decide before the handler runs)',
      access: (req, url) => rtdb.access(req, url),
      handle: async (req, res, url, grant) => {
        await rtdb.handle(req, res, url, grant);
        return true;
      },
      refuse: (res, error) => rtdb.refuse(res, error),
      routes: [
        { path: `${RTDB_PREFIX}/.json`, methods: METHODS, body: '{"x":1}' },
        { path: `${RTDB_PREFIX}/users.json`, methods: METHODS, body: '{"x":1}' },
        { path: `${RTDB_PREFIX}/users/alice.json`, methods: METHODS, body: '{"x":1}' },
        { path: `${RTDB_PREFIX}/users/alice/preferences.json`, methods: METHODS, body: '{"theme":"dark"}' },
        { path: `${RTDB_PREFIX}/catalog.json`, methods: ['GET', 'PUT', 'PATCH', 'POST', 'DELETE'], body: '{"x":1}' },
        { path: `${RTDB_PREFIX}/.settings/rules.json`, methods: ['GET', 'PUT'], body: '{"rules":{".read":true}}' },
      ],
    }),
    ...(identity
      ? [
          mount({
            name: 'identity',
            prefix: IDENTITY_PREFIX,
            boundary: 'public OpenID endpoints; the provider authenticates its client (PKCE), sessions (cookies) and service accounts (signed assertions) itself',
            access: PUBLIC,
            handle: async (req: IncomingMessage, res: ServerResponse) => {
              identity.handle(req, res);
              return true;
            },
            routes: [
              { path: `${IDENTITY_PREFIX}/.well-known/openid-configuration`, methods: ['GET'] },
              { path: `${IDENTITY_PREFIX}/jwks`, methods: ['GET'] },
              { path: `${IDENTITY_PREFIX}/me`, methods: ['GET'] },
              { path: `${IDENTITY_PREFIX}/token`, methods: ['POST'], body: '{}' },
              { path: `${IDENTITY_PREFIX}/token/revocation`, methods: ['POST'], body: '{}' },
            ],
          }),
        ]
      : []),
    mount({
      name: 'graph',
      prefix: GRAPH_PATH,
      exact: true,
      boundary: 'a program holding the graph API key (catalog data only)',
      access: (req, url) => graph.authorize(req, url),
      handle: (req, res, url) => graph(req, res, url),
      routes: [{ path: `${GRAPH_PATH}?nodes=Adobe&property=->*`, methods: ['GET', 'POST', 'PUT'] }],
    }),
    ...(dev
      ? [
          mount({
            name: 'dev',
            prefix: DEV_PREFIX,
            boundary: 'loopback callers only, never cross-site (POST must be JSON; a foreign Origin is refused); --dev only',
            access: devAccess(parts.hostNames),
            handle: (req, res, url) => dev(req, res, url),
            routes: [
              { path: `${DEV_PREFIX}/rtdb-secrets`, methods: ['POST'] },
              { path: `${DEV_PREFIX}/token`, methods: ['POST'], body: JSON.stringify({ sub: 'mallory' }) },
              { path: `${DEV_PREFIX}/id-token`, methods: ['POST'], body: JSON.stringify({ sub: 'mallory' }) },
              { path: `${DEV_PREFIX}/accounts/mallory`, methods: ['PUT'], body: JSON.stringify({ emails: [] }) },
            ],
          }),
        ]
      : []),
    mount({
      name: 'root',
      prefix: '/',
      exact: true,
      boundary: 'public: the service description',
      access: PUBLIC,
      handle: async (req, res) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return false;
        sendJson(res, 200, { service: 'breach-alert', api: `${API_PREFIX}`, issuer: parts.issuer, openapi: OPENAPI_PATH });
        return true;
      },
      routes: [{ path: '/', methods: ['GET', 'HEAD', 'POST'] }],
    }),
    mount({
      name: 'logos',
      prefix: DEMO_LOGO_PREFIX,
      boundary: 'public: generated logos of catalog breaches',
      access: PUBLIC,
      handle: async (req, res, url) => {
        const { pathname } = url;
        if (!pathname.endsWith('.svg') || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
        let id: string;
        try {
          id = decodeURIComponent(pathname.slice(DEMO_LOGO_PREFIX.length, -'.svg'.length));
        } catch {
          throw new HttpProblem(400, `the logo path is not valid percent-encoding: ${pathname}`);
        }
        if (!(await parts.logoExists(id))) return false;
        const svg = demoLogoSvg(id);
        res.writeHead(200, {
          'content-type': 'image/svg+xml',
          'content-length': Buffer.byteLength(svg),
          'cache-control': 'public, max-age=86400',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
        res.end(req.method === 'HEAD' ? undefined : svg);
        return true;
      },
      routes: [
        { path: `${DEMO_LOGO_PREFIX}Adobe.svg`, methods: ['GET', 'HEAD'] },
        { path: `${DEMO_LOGO_PREFIX}%E0%A4%A.svg`, methods: ['GET'] },
      ],
    }),
    mount({
      name: 'openapi',
      prefix: OPENAPI_PATH,
      exact: true,
      boundary: 'public: the API description',
      access: PUBLIC,
      handle: async (req, res) => {
        if (req.method !== 'GET') return false;
        const document = readOpenApiDocument();
        res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8', 'content-length': Buffer.byteLength(document) });
        res.end(document);
        return true;
      },
      routes: [{ path: OPENAPI_PATH, methods: ['GET'] }],
    }),
  ];
  return mounts;
}
