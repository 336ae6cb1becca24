import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { stringify } from 'yaml';
import * as api from '../../shared/api/index.ts';
import { problem, unauthorized } from './problemResponses.ts';
import { BREACH_DATA_HEADERS, CATALOG_CHANGES_VERSION_HEADER, CATALOG_VERSION_HEADER, CHECKS_VERSION_HEADER } from './breachDataHeaders.ts';
import { EMAIL_SCHEMAS, emailPaths } from './emailPaths.ts';
import { FIREFOX_SCHEMAS, firefoxPaths } from './firefoxPaths.ts';
import { SEARCH_EXTRA_SCHEMAS, SEARCH_SCHEMAS, searchPaths } from './searchPaths.ts';

export const OPENAPI_PATH = '/openapi.yaml';
export const OPENAPI_FILE = new URL('../openapi.yaml', import.meta.url);

const SAME_CLASS = 'A display name, any casing of it, and its slug (`Email addresses`, `EMAIL ADDRESSES`, `email-addresses`) name the same class.';
const arrayParam = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  style: 'form',
  explode: true,
  description,
  schema: { type: 'array', items: { type: 'string', minLength: 1 } },
});

/**
 * The service's OpenAPI 3.1 document, built from the zod schemas in `shared/api` so the two
 * cannot drift: `npm run openapi` writes it to `server/openapi.yaml`, and a test fails when the
 * committed file differs from what the schemas produce.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const named = {
    Breach: api.Breach,
    ResolvedDataClass: api.ResolvedDataClass,
    UserBreachState: api.UserBreachState,
    UserBreach: api.UserBreach,
    UserBreachList: api.UserBreachList,
    MonitoringUser: api.MonitoringUser,
    ResolutionItem: api.ResolutionItem,
    ResolutionRequest: api.ResolutionRequest,
    ProblemFieldError: api.ProblemFieldError,
    Problem: api.Problem,
    BreachDataSource: api.BreachDataSource,
    AddressCheckState: api.AddressCheckState,
    AddressCheck: api.AddressCheck,
    StealerLogEntry: api.StealerLogEntry,
    SourceProblemCode: api.SourceProblemCode,
    UserChecks: api.UserChecks,
    CatalogChanges: api.CatalogChanges,
    ...EMAIL_SCHEMAS,
    ...FIREFOX_SCHEMAS,
    ...SEARCH_SCHEMAS,
  };
  for (const [id, schema] of Object.entries(named)) registry.add(schema as z.ZodType, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}`, io: 'input', unrepresentable: 'any' });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Breach Alerts API (Breach Monitor reference service)',
      version: '1.0',
      description:
        "Creating a monitoring user, listing the breaches that affect its monitored emails, and recording which data classes are resolved. The same service also speaks the newer Monitor contract (`/api/firefox/v1`, paths under `/firefox/v1` with their own server) and the search interface (`/client/v4`, seed 002, paths under `/accounts` with their own server). Decisions where the contract is silent: CONTRACT.md. Breach data in the demo catalog is generated; real catalogs come from Have I Been Pwned (CC BY 4.0). Where exposures come from is said on every answer that carries them: `breach-data: hibp` (looked up with Have I Been Pwned, credit it where the data is shown), `breach-data: demo` (invented by a service started with `--demo` or `--dev`: never real, label it), `breach-data: none` (no source: nothing is known); `breach-checks-pending` counts the caller's addresses not checked yet, which are absent from the lists (unknown, never clean). `GET /user/checks` says what is known per address. A person's addresses (`/user/emails`, our extension): adding, proving (a code by email, or at once on the person's own loopback service where they are the operator) and removing the addresses monitored.",
    },
    servers: [{ url: 'http://localhost:6060/api/v1', description: 'Local development' }],
    security: [{ bearer: [] }],
    paths: {
      '/user': {
        post: {
          operationId: 'createUser',
          summary: 'Create the monitoring user linked to the token subject',
          responses: {
            '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/MonitoringUser' } } } },
            '202': { description: 'Already existed', content: { 'application/json': { schema: { $ref: '#/components/schemas/MonitoringUser' } } } },
            '401': unauthorized,
            '403': problem('Not authorized, or the identity account no longer exists'),
          },
        },
      },
      '/user/breaches': {
        get: {
          operationId: 'listUserBreaches',
          summary: 'Breaches affecting the monitored emails, breachDate descending, addedDate descending, id ascending',
          parameters: [
            { name: 'domain', in: 'query', required: false, description: 'Exact match on the primary domain', schema: { type: 'string', minLength: 1 } },
            arrayParam('dataClasses', `Keep breaches exposing any of these data classes. ${SAME_CLASS}`),
            arrayParam('unresolvedDataClasses', `Keep breaches where one of these is unresolved for at least one monitored email. ${SAME_CLASS}`),
            { name: 'includeSensitive', in: 'query', required: false, description: 'Include sensitive breaches', schema: { type: 'boolean', default: false } },
            { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description:
                'The breaches of the addresses checked so far, possibly none. An address not checked yet is left out and counted in `breach-checks-pending`: an empty list with a pending count above 0 means "not known yet", never "no breaches".',
              headers: { ETag: { schema: { type: 'string' } }, ...BREACH_DATA_HEADERS, ...CHECKS_VERSION_HEADER, ...CATALOG_CHANGES_VERSION_HEADER, ...CATALOG_VERSION_HEADER },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/UserBreachList' } } },
            },
            '304': {
              description:
                "Not modified since the ETag given in If-None-Match. The follow-ups' versions come with it: a client whose stored checks, catalog changes and copy of the details feed have these versions is up to date with this one request",
              headers: { ...BREACH_DATA_HEADERS, ...CHECKS_VERSION_HEADER, ...CATALOG_CHANGES_VERSION_HEADER, ...CATALOG_VERSION_HEADER },
            },
            '400': problem('Invalid query parameter'),
            '401': unauthorized,
            '403': problem('Not authorized, or no monitoring user'),
          },
        },
      },
      '/user/checks': {
        get: {
          operationId: 'getUserChecks',
          summary: "What the service knows about each of the caller's addresses: checked when, pending, failed; the lookup queue; stealer logs; why it cannot check, if so",
          responses: {
            '200': {
              description: 'The checks (never cached)',
              headers: { ...BREACH_DATA_HEADERS, ...CHECKS_VERSION_HEADER },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/UserChecks' } } },
            },
            '401': unauthorized,
            '403': problem('Not authorized, or no monitoring user'),
          },
        },
      },
      '/user/catalog-changes': {
        get: {
          operationId: 'getUserCatalogChanges',
          summary:
            "What changes of the service's catalog or breach data did to the caller's addresses, oldest first: breaches that left the catalog (still listed, marked `removedFromCatalogAt`, resolutions kept) and invented demo exposures removed when the service moved to real data",
          responses: {
            '200': {
              description: 'The changes (never cached)',
              headers: CATALOG_CHANGES_VERSION_HEADER,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/CatalogChanges' } } },
            },
            '401': unauthorized,
            '403': problem('Not authorized, or no monitoring user'),
          },
        },
      },
      '/user/breaches/resolutions': {
        post: {
          operationId: 'setResolutions',
          summary: 'Bulk, atomic, idempotent upsert of resolution state per (email, data class, breach)',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ResolutionRequest' } } } },
          responses: {
            '204': { description: 'Updated (or an empty array: nothing changed)' },
            '400': problem('Invalid request; `errors` points at each offending field'),
            '401': unauthorized,
            '403': problem('Not authorized'),
            '404': problem('A breach or email is not found or not visible to this user'),
            '413': problem('Body larger than 1 MiB'),
            '415': problem('Body is not JSON'),
          },
        },
      },
      ...emailPaths(),
      ...firefoxPaths(),
      ...searchPaths(),
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        firefoxBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: `An access token of the identity provider carrying the scope ${api.MONITOR_SCOPE}` },
        apiToken: { type: 'http', scheme: 'bearer', bearerFormat: 'bmst_<id>_<secret>', description: 'An API token with scopes ai-search:read / ai-search:run; X-Auth-User-Service-Key is refused' },
      },
      schemas: { ...components, ...SEARCH_EXTRA_SCHEMAS },
    },
  };
}

export function renderOpenApiYaml(): string {
  return '# Generated from shared/api by `npm run openapi`; do not edit by hand.\n' + stringify(buildOpenApiDocument(), { lineWidth: 0, aliasDuplicateObjects: false });
}

export function readOpenApiDocument(): string {
  return readFileSync(OPENAPI_FILE, 'utf8');
}
