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

/**
 * Preferences after a change this device made on top of `base` (what it last knew the database
 * to hold) meets what the database holds now (`remote`, perhaps changed by another device): each
 * of this device's own changes is applied to `remote`; everything it did not touch stays as
 * `remote` has it. Hiding Adobe offline on one device and LinkedIn on another hides both.
 */
export function mergePreferences(base: Preferences, local: Preferences, remote: Preferences): Preferences {
  const before = new Set(base.hiddenBreaches);
  const now = new Set(local.hiddenBreaches);
  const shown = new Set(base.hiddenBreaches.filter((id) => !now.has(id)));
  const hidden = [...remote.hiddenBreaches.filter((id) => !shown.has(id))];
  const seen = new Set(hidden);
  for (const id of local.hiddenBreaches) {
    if (before.has(id) || seen.has(id)) continue;
    hidden.push(id);
    seen.add(id);
  }
  return Preferences.parse({
    hiddenBreaches: hidden,
    showFlaggedBreaches: local.showFlaggedBreaches !== base.showFlaggedBreaches ? local.showFlaggedBreaches : remote.showFlaggedBreaches,
    notifications: { newBreaches: local.notifications.newBreaches !== base.notifications.newBreaches ? local.notifications.newBreaches : remote.notifications.newBreaches },
  });
}
