import { z } from 'zod';
import { Email, IsoDate, IsoDateTime, Limits } from '../../shared/api/index.ts';

/** Bodies of the development surface (`--dev` only); external checks rely on these shapes. */
export const DevTokenRequest = z.strictObject({
  sub: z.string().min(1, 'must not be empty'),
  email: Email.optional(),
  expiresIn: z.int().min(1).max(30 * 24 * 3600).optional(),
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

/** `POST /__dev/id-token`: a negative `expiresIn` gives a token that has already expired. */
export const DevIdTokenRequest = z.strictObject({
  sub: z.string().min(1, 'must not be empty'),
  email: Email.optional(),
  expiresIn: z.int().min(-30 * 24 * 3600).max(30 * 24 * 3600).refine((n) => n !== 0, 'must not be 0').optional(),
});

/** `POST /__dev/service-accounts`: the scopes the new account is permitted. */
export const DevServiceAccountRequest = z.strictObject({
  scopes: z.array(z.url()).max(20),
});
