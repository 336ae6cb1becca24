import { z } from 'zod';
import { Email, IsoDateTime } from './primitives.ts';

/**
 * A person's addresses (our extension of the breach API, `../shared/CONTRACT.md` "A person's
 * addresses"): `GET/POST /user/emails`, `DELETE /user/emails/{email}`,
 * `POST /user/emails/{email}/verification` and `/verification-code`.
 */

/**
 * Where one address stands. `unverified`: waiting for the code sent to it (never looked up until
 * then); `pending`: verified, not checked yet; `checked`: `checkedAt` says when and
 * `breachCount` what was found; `failed`: the last check failed.
 */
export const UserEmailState = z.enum(['unverified', 'pending', 'checked', 'failed']).meta({ id: 'UserEmailState' });
export type UserEmailState = z.infer<typeof UserEmailState>;

export const UserEmail = z
  .object({
    email: Email,
    verified: z.boolean(),
    state: UserEmailState,
    addedAt: IsoDateTime,
    breachCount: z.int().min(0).nullable().optional().meta({ description: 'Breaches the last check found; absent or null until checked' }),
    checkedAt: IsoDateTime.nullable().optional().meta({ description: 'When the source last answered for this address; absent or null until then' }),
    problem: z.string().nullable().optional().meta({ description: 'Why the last check failed, in a sentence (state `failed`)' }),
  })
  .meta({ id: 'UserEmail' });
export type UserEmail = z.infer<typeof UserEmail>;

/** `GET /user/emails`: every address of the caller, the identity account's own included. */
export const UserEmailList = z.array(UserEmail).meta({ id: 'UserEmailList' });
export type UserEmailList = z.infer<typeof UserEmailList>;

/** `POST /user/emails` body. */
export const AddUserEmail = z.strictObject({ email: Email }).meta({ id: 'AddUserEmail' });
export type AddUserEmail = z.infer<typeof AddUserEmail>;

/** A verification code as a person types it: digits or letters, spaces and dashes dropped. */
export const VerificationCode = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .min(4, 'the code has at least 4 characters')
      .max(16, 'the code has at most 16 characters')
      .regex(/^[A-Za-z0-9]+$/, 'the code has only letters and digits'),
  );

/** `POST /user/emails/{email}/verification` body. */
export const VerifyUserEmail = z.strictObject({ code: VerificationCode }).meta({ id: 'VerifyUserEmail' });
export type VerifyUserEmail = z.infer<typeof VerifyUserEmail>;
