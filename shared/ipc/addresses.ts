import { z } from 'zod';
import { Email, EmailVerificationMode, IsoDateTime, PersonEmail, VerifyEmailRequest } from '../api/index.ts';

/**
 * The person's addresses as the UI shows them (Settings → Your addresses, the first run): what the
 * service last listed (`GET /user/emails`), kept on this computer so the list shows offline.
 */
export const AddressesView = z.object({
  /** Whether the service lets the app manage addresses: `no` after a 404 (an older or another party's service); `unknown` until it answered once. */
  served: z.enum(['yes', 'no', 'unknown']),
  addresses: z.array(PersonEmail),
  /** When the service last listed them; null while it never did. */
  updatedAt: IsoDateTime.nullable(),
  /** Why the last refresh did not reach the service (offline, refused), in a sentence; null when it did. */
  problem: z.string().nullable(),
  /**
   * How the service proves an added address (its `email-verification` header): `code` by email;
   * `operator`: the service is the person's own, on this computer, so an added address is verified
   * at once; `unavailable`: it cannot send codes, so no address can be added. Null until it said.
   */
  verification: EmailVerificationMode.nullable(),
  /** When the core computed this view (./viewOrder.ts): an answer and an event that crossed keep the later. */
  seq: z.int().nonnegative().optional(),
});
export type AddressesView = z.infer<typeof AddressesView>;

export const UNKNOWN_ADDRESSES: AddressesView = { served: 'unknown', addresses: [], updatedAt: null, problem: null, verification: null };

/** What removing an address takes with it, counted on this computer, for the confirmation. */
export const AddressRemoval = z.object({
  email: Email,
  /** Breaches that name this address. */
  breaches: z.int().nonnegative(),
  /** Of those, breaches that name no other address of the person: they leave the list. */
  onlyThisAddress: z.int().nonnegative(),
  /** Data classes marked as dealt with for this address (sent or still waiting to be sent). */
  resolutions: z.int().nonnegative(),
});
export type AddressRemoval = z.infer<typeof AddressRemoval>;

export const AddressInput = z.strictObject({ email: Email });
export const AddressCodeInput = z.strictObject({ email: Email, code: VerifyEmailRequest.shape.code });
