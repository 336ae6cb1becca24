import { z } from 'zod';
import { Email, IsoDate, IsoDateTime, Limits } from '../../shared/api/index.ts';

/** Bodies of the development surface (`--dev` only); external checks rely on these shapes. */
export const DevTokenRequest = z.strictObject({
  sub: z.string().min(1, 'must not be empty'),
  email: Email.optional(),
  /** `email_verified` of the token; default true. False lets a test show the API ignores the email. */
  emailVerified: z.boolean().optional(),
  expiresIn: z
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .optional(),
  /**
   * Claims set over the standard ones, `null` leaves one out: for tests of each claim check. A
   * claim named like an inherited member (`constructor`) never gets here: the body reader refuses it.
   */
  claims: z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()])).optional(),
  /** Another `typ` header than `at+jwt`, for the same tests. */
  typ: z.string().min(1).optional(),
  /** Space-separated scopes instead of the default ones (e.g. with the newer contract's scope). */
  scope: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1000)
    .regex(/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, 'must be scope tokens separated by single spaces (RFC 6749 §3.3)')
    .optional(),
});

/** `POST /__dev/faults`: the next `count` requests on a mount answer `status` (0 clears). */
export const DevFaultRequest = z.strictObject({
  mount: z.enum(['firefox-v1']),
  status: z.union([z.literal(429), z.literal(503)]),
  count: z.int().min(0).max(10_000),
  /** Seconds sent as `Retry-After`; default 1. */
  retryAfter: z.int().min(0).max(3600).optional(),
});

export const DevAccountRequest = z.strictObject({
  emails: z.array(Email).max(Limits.maxMonitoredEmails, `at most ${Limits.maxMonitoredEmails} monitored emails`),
  deleted: z.boolean().optional(),
});

export const DevExposuresRequest = z.strictObject({
  email: Email,
  breachIds: z.array(z.string().min(1)),
});

/** A breach in the seed's shape; date-times may omit seconds. */
export const DevBreachRequest = z.object({
  id: z.string().min(1),
  domain: z.string(),
  breachDate: IsoDate,
  addedDate: IsoDateTime,
  modifiedDate: IsoDateTime.optional(),
  dataClasses: z.array(z.string().min(1)).min(1),
  isSensitive: z.boolean(),
});

/** `POST /__dev/breaches/batch`: breaches added in one transaction, each id once. */
export const DevBreachBatchRequest = z
  .array(DevBreachRequest)
  .min(1)
  .max(5000)
  .superRefine((breaches, ctx) => {
    const seen = new Set<string>();
    breaches.forEach((breach, index) => {
      if (seen.has(breach.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `"${breach.id}" appears twice in the batch` });
      seen.add(breach.id);
    });
  });

/** `POST /__dev/id-token`: a negative `expiresIn` gives a token that has already expired. */
export const DevIdTokenRequest = z.strictObject({
  sub: z.string().min(1, 'must not be empty'),
  email: Email.optional(),
  expiresIn: z
    .int()
    .min(-30 * 24 * 3600)
    .max(30 * 24 * 3600)
    .refine((n) => n !== 0, 'must not be 0')
    .optional(),
});

/** `POST /__dev/service-accounts`: the scopes the new account is permitted. */
export const DevServiceAccountRequest = z.strictObject({
  scopes: z.array(z.url()).max(20),
});
