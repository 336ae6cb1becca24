import { z } from 'zod';

/**
 * What a person's devices share through the details feed at `users/<uid>/preferences`: read
 * and written with the person's ID token, so only they can (default rules).
 */
export const Preferences = z.strictObject({
  /** Breaches the person chose to hide from the list. */
  hiddenBreaches: z.array(z.string().min(1).max(200)).max(5000).default([]),
  /** Show fabricated, spam-list and retired breaches (hidden by default). */
  showFlaggedBreaches: z.boolean().default(false),
  notifications: z.strictObject({ newBreaches: z.boolean().default(true) }).default({ newBreaches: true }),
});
export type Preferences = z.infer<typeof Preferences>;
