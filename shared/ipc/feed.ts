import { z } from 'zod';

/** How the app authenticates to the details feed. `secret` is a legacy credential and discouraged. */
export const FeedAuth = z.enum(['none', 'id-token', 'service-account', 'secret']);
export type FeedAuth = z.infer<typeof FeedAuth>;

/** The details feed's address: a realtime database reached over HTTP(S), nothing else. */
export const FeedUrl = z.url({ error: 'must be a full address, such as https://example.firebaseio.com' }).refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) address');

/** The details feed as a UI may see it: never a credential. */
export const FeedStatus = z.object({
  url: z.url(),
  /** Where the feed is when none is chosen: the account server's `/rtdb`. */
  defaultUrl: z.url(),
  auth: FeedAuth,
  hasServiceAccountKey: z.boolean(),
  /** The key file's account, to show which one is in use. */
  serviceAccountEmail: z.string().optional(),
  hasSecret: z.boolean(),
  /** Shown beside the choice while a legacy secret is in use. */
  discouraged: z.string().optional(),
  lastSync: z
    .object({
      at: z.string(),
      status: z.enum(['updated', 'unchanged']),
      count: z.int().nonnegative(),
      skipped: z.array(z.object({ id: z.string(), problem: z.string() })),
    })
    .optional(),
  lastError: z.string().optional(),
});
export type FeedStatus = z.infer<typeof FeedStatus>;
