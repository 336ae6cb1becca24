import * as api from '../../shared/api/index.ts';
import { BREACH_DATA_HEADERS } from './breachDataHeaders.ts';

/**
 * The newer Monitor contract (`/api/firefox/v1`) in the OpenAPI document. Its paths would share
 * keys with `/api/v1` (`/user/breaches`), so its path items carry a server at `/api` and keys
 * under `/firefox/v1`: the full URLs are those the service answers.
 */
export const FIREFOX_SCHEMAS = {
  FirefoxBreachedAccount: api.FirefoxBreachedAccount,
  FirefoxUserBreach: api.FirefoxUserBreach,
  FirefoxUserBreachList: api.FirefoxUserBreachList,
  FirefoxResolutionItem: api.FirefoxResolutionItem,
  FirefoxResolutionRequest: api.FirefoxResolutionRequest,
  FirefoxError: api.FirefoxError,
};

const SERVERS = [{ url: 'http://localhost:6060/api', description: 'Local development (the newer Monitor contract under /api/firefox/v1)' }];
const NO_STORE = { 'Cache-Control': { schema: { type: 'string', const: 'private, no-store' }, description: 'Never cached; no ETag under this contract' } };
const RETRY_AFTER = { 'Retry-After': { schema: { type: 'integer', minimum: 0 }, description: 'Seconds to wait before asking again' } };
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function error(codes: readonly api.FirefoxErrorCode[], description: string, headers: Record<string, unknown> = {}) {
  return {
    description: `${description} (code ${codes.map((code) => `\`${code}\``).join(' or ')})`,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { 'application/json': { schema: ref('FirefoxError') } },
  };
}
/** Every status of this contract with the codes it is answered with, from FIREFOX_ERROR_STATUS. */
function errors(only: readonly api.FirefoxErrorCode[] = api.FIREFOX_ERROR_CODES): Record<string, unknown> {
  const byStatus = new Map<number, api.FirefoxErrorCode[]>();
  for (const code of only) byStatus.set(api.FIREFOX_ERROR_STATUS[code], [...(byStatus.get(api.FIREFOX_ERROR_STATUS[code]) ?? []), code]);
  const words: Record<number, string> = {
    400: 'Invalid request',
    401: 'Missing or invalid access token',
    403: `The token lacks the scope ${api.MONITOR_SCOPE}, or the person has no Monitor account (they sign up on the service's site; do not retry)`,
    404: 'Nothing matched',
    429: 'Too many requests; keep everything local and retry after the time given',
    500: 'The service failed',
    503: 'Unavailable: keep the breaches you already hold and retry after the time given',
  };
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [String(status), error(codes, words[status] ?? 'Error', status === 429 || status === 503 ? RETRY_AFTER : {})]),
  );
}

export function firefoxPaths(): Record<string, unknown> {
  const security = [{ firefoxBearer: [] }];
  return {
    [`/firefox/v1/user/breaches`]: {
      servers: SERVERS,
      get: {
        operationId: 'firefoxListUserBreaches',
        summary: 'Breaches affecting the person, as `{id, breachedAccounts}`; details come from the details feed; sensitive breaches are never returned',
        description: 'Poll at most hourly. `resolvedDataClasses` holds slugs; clients must accept values they do not know.',
        security,
        parameters: [{ name: 'domain', in: 'query', required: false, description: 'Exact match on the primary domain (the only filter of this contract)', schema: { type: 'string', minLength: 1 } }],
        responses: {
          '200': {
            description: 'The breaches of the addresses checked so far, possibly none: an address not checked yet is absent and counted in `breach-checks-pending` (unknown, not clean)',
            headers: { ...NO_STORE, ...BREACH_DATA_HEADERS },
            content: { 'application/json': { schema: ref('FirefoxUserBreachList') } },
          },
          ...errors(['invalid-request', 'token-invalid', 'missing-scope', 'no-monitor-account', 'rate-limited', 'internal-error', 'unavailable']),
        },
      },
    },
    [`/firefox/v1/user/breaches/resolutions`]: {
      servers: SERVERS,
      post: {
        operationId: 'firefoxResolveBreaches',
        summary: 'Resolve data classes (one way only: `passwords` or `email-addresses`) for every affected email; repeated breachIds merge; all or nothing',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: ref('FirefoxResolutionRequest') } } },
        responses: {
          '204': { description: 'Resolved', headers: NO_STORE },
          ...errors(),
        },
      },
    },
  };
}
