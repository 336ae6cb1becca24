import { z } from 'zod';
import { Email, IsoDate, IsoDateTime, Limits } from '../../shared/api/index.ts';

/** Bodies of the development surface (`--dev` only); external checks rely on these shapes. */
export const DevTokenRequest = z.strictObject({
  sub: z.string().min(1, 'must not be empty'),
  email: Email.optional(),
  /** `email_verified` of the token; default true. False lets a test show the API ignores the email. */
  emailVerified: z.boolean().optional(),
  expiresIn: z.int().min(1).max(30 * 24 * 3600).optional(),
  /** Claims set over the standard ones, `null` leaves one out: for tests of each claim check. */
  claims: z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()])).optional(),
  /** Another `typ` header than `at+jwt`, for the same tests. */
  typ: z.string().min(1).optional(),
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
