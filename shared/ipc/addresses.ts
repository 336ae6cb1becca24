import { z } from 'zod';
import { Email, IsoDateTime, UserEmail, VerificationCode } from '../api/index.ts';

/**
 * The person's addresses as the UI shows them (Settings → Your addresses, the first run): what the
 * service last listed (`GET /user/emails`), kept on this computer so the list shows offline.
 */
export const AddressesView = z.object({
  /** Whether the service lets the app manage addresses: `no` after a 404 (an older or another party's service); `unknown` until it answered once. */
  served: z.enum(['yes', 'no', 'unknown']),
  addresses: z.array(UserEmail),
  /** When the service last listed them; null while it never did. */
  updatedAt: IsoDateTime.nullable(),
  /** Why the last refresh did not reach the service (offline, refused), in a sentence; null when it did. */
  problem: z.string().nullable(),
  /**
   * The service is the person's own, on this computer, started by the app with their key: they
   * are its operator, so an added address is verified at once, without a code by email.
   */
  ownService: z.boolean(),
  /** When the core computed this view (./viewOrder.ts): an answer and an event that crossed keep the later. */
  seq: z.int().nonnegative().optional(),
});
export type AddressesView = z.infer<typeof AddressesView>;

export const UNKNOWN_ADDRESSES: AddressesView = { served: 'unknown', addresses: [], updatedAt: null, problem: null, ownService: false };

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
export const AddressCodeInput = z.strictObject({ email: Email, code: VerificationCode });
