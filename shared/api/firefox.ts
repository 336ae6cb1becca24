import { z } from 'zod';
import { Limits } from './breach.ts';
import { Email } from './primitives.ts';

/**
 * The newer Monitor contract (`/api/firefox/v1`, Mozilla Monitor's `openapi.yml` after
 * February 2026; CONTRACT.md "The newer Monitor contract"). Same job as `/api/v1`, different
 * shapes: breach items carry only the id (details come from the details feed), resolved data
 * classes are an array of slugs, resolutions go one way and only for two classes, and errors
 * are `{code, message}`.
 */
export const FIREFOX_API_PREFIX = '/api/firefox/v1';

/** The scope a bearer token must carry for this contract. */
export const MONITOR_SCOPE = 'https://identity.mozilla.com/apps/monitor';

/** Which contract an account speaks: `v1` is `/api/v1` (seed 000), `firefox-v1` is `/api/firefox/v1`. */
export const ApiContract = z.enum(['v1', 'firefox-v1']);
export type ApiContract = z.infer<typeof ApiContract>;

/**
 * The only data classes this contract resolves and reports (slugs); `GET /user/breaches` serves
 * only breaches that leaked one of them (upstream: "what the privacy panel acts on").
 */
export const RESOLVABLE_SLUGS = ['passwords', 'email-addresses'] as const;
export const ResolvableSlug = z.enum(RESOLVABLE_SLUGS);
export type ResolvableSlug = z.infer<typeof ResolvableSlug>;

/** Guidance of the contract: poll at most hourly. */
export const FIREFOX_MIN_SYNC_MINUTES = 60;

/** Merges items naming the same breach (classes united, first-seen order), as the service does. */
export function mergeFirefoxResolutions(items: readonly { breachId: string; dataClasses: readonly ResolvableSlug[] }[]): { breachId: string; dataClasses: ResolvableSlug[] }[] {
  const merged = new Map<string, Set<ResolvableSlug>>();
  for (const item of items) {
    const classes = merged.get(item.breachId) ?? new Set<ResolvableSlug>();
    for (const slug of item.dataClasses) classes.add(slug);
    merged.set(item.breachId, classes);
  }
  return [...merged].map(([breachId, classes]) => ({ breachId, dataClasses: [...classes] }));
}

export const FirefoxBreachedAccount = z
  .object({
    email: Email,
    // Clients must accept values they do not know: any non-empty string.
    resolvedDataClasses: z.array(z.string().min(1)).meta({ description: 'Slugs of the data classes resolved for this email' }),
  })
  .meta({ id: 'FirefoxBreachedAccount' });
export type FirefoxBreachedAccount = z.infer<typeof FirefoxBreachedAccount>;

export const FirefoxUserBreach = z
  .object({
    id: z.string().min(1).meta({ description: 'The catalog name of the breach; its details come from the details feed' }),
    breachedAccounts: z.array(FirefoxBreachedAccount).min(1),
  })
  .meta({ id: 'FirefoxUserBreach' });
export type FirefoxUserBreach = z.infer<typeof FirefoxUserBreach>;

export const FirefoxUserBreachList = z.array(FirefoxUserBreach).meta({ id: 'FirefoxUserBreachList' });
export type FirefoxUserBreachList = z.infer<typeof FirefoxUserBreachList>;

/** One item of `POST /user/breaches/resolutions` under this contract: resolve, never unresolve. */
export const FirefoxResolutionItem = z
  .strictObject({
    breachId: z.string().min(1, 'must not be empty'),
    dataClasses: z
      .array(z.enum(RESOLVABLE_SLUGS, { error: `must be one of ${RESOLVABLE_SLUGS.map((s) => `"${s}"`).join(', ')}` }))
      .min(1, 'must name at least one data class')
      .max(RESOLVABLE_SLUGS.length, `at most ${RESOLVABLE_SLUGS.length} data classes`),
  })
  .meta({ id: 'FirefoxResolutionItem' });
export type FirefoxResolutionItem = z.infer<typeof FirefoxResolutionItem>;

/**
 * The whole request body: at least one item (an empty batch is a 400 upstream); a breach named
 * twice merges (upstream: "Repeated `breachId` entries merge, and order does not matter").
 */
export const FirefoxResolutionRequest = z
  .array(FirefoxResolutionItem)
  .min(1, 'must hold at least one resolution')
  .max(Limits.maxItems, `at most ${Limits.maxItems} items per request`)
  .meta({ id: 'FirefoxResolutionRequest' });
export type FirefoxResolutionRequest = z.infer<typeof FirefoxResolutionRequest>;

export const FIREFOX_ERROR_CODES = ['token-invalid', 'missing-scope', 'no-monitor-account', 'invalid-request', 'not-found', 'rate-limited', 'internal-error', 'unavailable'] as const;
export const FirefoxErrorCode = z.enum(FIREFOX_ERROR_CODES);
export type FirefoxErrorCode = z.infer<typeof FirefoxErrorCode>;

/** Error body of this contract. A client reads `code` loosely: a server may add codes. */
export const FirefoxError = z.object({ code: z.string().min(1), message: z.string() }).meta({ id: 'FirefoxError' });
export type FirefoxError = z.infer<typeof FirefoxError>;

/** The status each code is answered with by the reference service (CONTRACT.md). */
export const FIREFOX_ERROR_STATUS: Readonly<Record<FirefoxErrorCode, number>> = {
  'invalid-request': 400,
  'token-invalid': 401,
  'missing-scope': 403,
  'no-monitor-account': 403,
  'not-found': 404,
  'rate-limited': 429,
  'internal-error': 500,
  unavailable: 503,
};

/** The only query parameter of `GET /user/breaches` under this contract. */
export const FIREFOX_QUERY_PARAMS = ['domain'] as const;
