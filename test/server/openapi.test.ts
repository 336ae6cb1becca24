import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { buildOpenApiDocument } from '../../server/openapi/document.ts';
import { OPENAPI_FILE, renderOpenApiYaml } from '../../server/openapi/document.ts';

describe('server/openapi.yaml', () => {
  it('is exactly what the shared schemas generate (run `npm run openapi` after changing them)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApiYaml());
  });

  it('is OpenAPI 3.1 with every endpoint of the contract and resolvable references', () => {
    const document = parse(readFileSync(OPENAPI_FILE, 'utf8')) as ReturnType<typeof buildOpenApiDocument> & {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual([
      '/user',
      '/user/breaches',
      '/user/checks',
      '/user/catalog-changes',
      '/user/breaches/resolutions',
      // A person's addresses (our extension).
      '/user/emails',
      '/user/emails/{email}',
      '/user/emails/{email}/verification',
      '/user/emails/{email}/verification-code',
      // The newer Monitor contract and the search interface, each path item with its own server.
      '/firefox/v1/user/breaches',
      '/firefox/v1/user/breaches/resolutions',
      '/accounts/{account_id}/ai-search/namespaces',
      '/accounts/{account_id}/ai-search/namespaces/{name}',
      '/accounts/{account_id}/ai-search/namespaces/{name}/search',
      '/accounts/{account_id}/ai-search/namespaces/{name}/chat/completions',
      '/accounts/{account_id}/ai-search/namespaces/{name}/instances',
      '/accounts/{account_id}/ai-search/namespaces/{name}/instances/{id}',
      '/accounts/{account_id}/ai-search/namespaces/{name}/instances/{id}/stats',
      '/accounts/{account_id}/ai-search/namespaces/{name}/instances/{id}/search',
      '/accounts/{account_id}/ai-search/namespaces/{name}/instances/{id}/chat/completions',
      '/accounts/{account_id}/ai-search/namespaces/{name}/instances/{id}/items',
      '/accounts/{account_id}/ai-search/namespaces/{name}/instances/{id}/items/{item_id}',
      '/accounts/{account_id}/ai-search/instances',
      '/accounts/{account_id}/ai-search/instances/{name}',
      '/accounts/{account_id}/ai-search/instances/{name}/stats',
      '/accounts/{account_id}/ai-search/instances/{name}/search',
      '/accounts/{account_id}/ai-search/instances/{name}/chat/completions',
      '/accounts/{account_id}/legacy-rag/rags/{name}/search',
      '/accounts/{account_id}/legacy-rag/rags/{name}/ai-search',
    ]);
    const refs = JSON.stringify(document).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
    for (const ref of new Set(refs)) expect(document.components.schemas, ref).toHaveProperty(ref.split('/').pop()!);
  });
});
