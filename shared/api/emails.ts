import { z } from 'zod';
import { Email, IsoDateTime } from './primitives.ts';

/**
 * A person's addresses (`/user/emails`, CONTRACT.md "A person's addresses"): our extension of the
 * breach API. The service and the app both read these schemas.
 */

/** Defaults of the address rules; a service may be started with others (`--max-emails`). */
export const EmailRules = {
  /** Addresses one person may list, the identity account's own included (Mozilla Monitor's 20). */
  defaultMaxEmails: 20,
  /** Digits of a verification code. */
  codeDigits: 6,
  /** How long a sent code can be entered. */
  codeLifetimeSec: 15 * 60,
  /** Wrong entries of one code before it stops working (a new one must be sent). */
  maxCodeAttempts: 5,
  /** The window the send limits count in. */
  sendWindowSec: 3600,
  /** Codes sent to one address within the window. */
  maxSendsPerAddress: 3,
  /** Codes sent for one person, all addresses together, within the window. */
  maxSendsPerPerson: 10,
} as const;

/**
 * Where an address stands. `unverified`: waiting for the code sent to it (never looked up, listed
 * or counted); `pending`: verified, waiting for its lookup (unknown, not clean); `checked`:
 * looked up (`breachCount`, `checkedAt`); `failed`: the last lookup failed (`problem` says why).
 */
export const PersonEmailState = z.enum(['unverified', 'pending', 'checked', 'failed']).meta({ id: 'PersonEmailState' });
export type PersonEmailState = z.infer<typeof PersonEmailState>;

/**
 * Where an address on the list comes from. `identity`: the identity account's own address (its
 * provider vouches for it, `email_verified`); `service`: set for this person by the service's
 * operator (`--extra-emails`, or the account's records); `added`: added by the person through
 * `POST /user/emails`. Only `added` ones can be removed through the API.
 */
export const PersonEmailOrigin = z.enum(['identity', 'service', 'added']).meta({ id: 'PersonEmailOrigin' });
export type PersonEmailOrigin = z.infer<typeof PersonEmailOrigin>;

/**
 * Who proved the address is the person's. `identity-provider`: the provider vouches for it
 * (`email_verified`); `service`: the service's operator listed it; `code`: the code sent to it was
 * entered; `operator`: the person runs this service on their own machine (the loopback service the
 * app starts, or one with the development surface), so they are its operator and no message is sent.
 */
export const EmailVerifiedBy = z.enum(['identity-provider', 'service', 'code', 'operator']).meta({ id: 'EmailVerifiedBy' });
export type EmailVerifiedBy = z.infer<typeof EmailVerifiedBy>;

export const PersonEmail = z
  .object({
    email: Email.meta({ description: 'The address, lower-cased' }),
    verified: z.boolean().meta({ description: "Proven to be the person's: only verified addresses are looked up, listed in `/user/breaches` and counted" }),
    verifiedBy: EmailVerifiedBy.nullable().meta({ description: 'How it was proven; null while unverified' }),
    origin: PersonEmailOrigin,
    removable: z.boolean().meta({ description: '`DELETE /user/emails/{email}` removes it (only addresses the person added)' }),
    state: PersonEmailState,
    addedAt: IsoDateTime.nullable().meta({ description: 'When the person added it; null for addresses not added through this API (`identity`, `service`)' }),
    breachCount: z.int().min(0).nullable().meta({ description: 'Breaches found at the last check; null until checked' }),
    checkedAt: IsoDateTime.nullable().meta({ description: 'When it was last looked up; null until then' }),
    problem: z.string().nullable().meta({ description: 'Why the last lookup failed (state `failed`), or why nothing can be looked up at all; null otherwise' }),
    codeExpiresAt: IsoDateTime.nullable().meta({ description: 'While unverified: when the last code sent stops working; null when none is waiting' }),
  })
  .meta({ id: 'PersonEmail' });
export type PersonEmail = z.infer<typeof PersonEmail>;

export const PersonEmailList = z.array(PersonEmail).meta({ id: 'PersonEmailList' });
export type PersonEmailList = z.infer<typeof PersonEmailList>;

/**
 * How this service proves addresses, in the `email-verification` header of `GET /user/emails`:
 * `code` (a one-time code by email), `operator` (the person is the operator: added addresses are
 * verified at once), `unavailable` (no way to send a code: only the identity account's address).
 */
export const EmailVerificationMode = z.enum(['code', 'operator', 'unavailable']).meta({ id: 'EmailVerificationMode' });
export type EmailVerificationMode = z.infer<typeof EmailVerificationMode>;
export const EMAIL_VERIFICATION_HEADER = 'email-verification';

export const AddEmailRequest = z.strictObject({ email: Email.meta({ description: 'The address to monitor' }) }).meta({ id: 'AddEmailRequest' });
export type AddEmailRequest = z.infer<typeof AddEmailRequest>;

export const VerifyEmailRequest = z
  .strictObject({
    code: z
      .string()
      .trim()
      .regex(new RegExp(`^\\d{${EmailRules.codeDigits}}$`), `must be the ${EmailRules.codeDigits} digits from the message`)
      .meta({ description: 'The code from the message sent to the address' }),
  })
  .meta({ id: 'VerifyEmailRequest' });
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequest>;
