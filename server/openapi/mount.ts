import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import { API_PREFIX } from '../api/routes.ts';
import { mount, PUBLIC, type Mount } from '../http/mounts.ts';
import { sendJson } from '../http/respond.ts';
import { OPENAPI_PATH, readOpenApiDocument } from './document.ts';

/** The OpenAPI document of the service's HTTP APIs. */
export function createOpenApiMount(): Mount & AsyncDisposable {
  return {
    ...mount({
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
    }),
    dispose: () => {},
  };
}

/** `/`: what this service is, where its API and its description are, and whose tokens it takes. */
export function createRootMount({ issuer }: { issuer: string }): Mount & AsyncDisposable {
  return {
    ...mount({
      name: 'root',
      prefix: '/',
      exact: true,
      boundary: 'public: the service description',
      access: PUBLIC,
      handle: async (req, res) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return false;
        sendJson(res, 200, { service: 'breach-alert', api: `${API_PREFIX}`, issuer, openapi: OPENAPI_PATH });
        return true;
      },
    }),
    dispose: () => {},
  };
}
