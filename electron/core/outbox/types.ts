import { z } from 'zod';
import type { ErrorKind } from '../api/errorKind.ts';

// The toggle's schema is the resolutions channel's too: one definition, in shared/api.
export { ResolveInput } from '../../../shared/api/index.ts';

/** One stored intent: the last wish for one (email, data class, breach). */
export const Intent = z.object({
  id: z.int().positive(),
  email: z.string().min(1),
  breachId: z.string().min(1),
  classKey: z.string().min(1),
  dataClass: z.string().min(1),
  resolved: z.boolean(),
  version: z.int().positive(),
  /** Whether an earlier send of the row may have landed (before this one went out). */
  inDoubt: z.boolean(),
});
export type Intent = z.infer<typeof Intent>;

/**
 * `sending`: on the wire, or was when the app stopped (it is sent again). `local`: kept on this
 * machine only, because the account's service cannot take it (the newer Monitor contract
 * resolves only passwords and email addresses, and never unresolves).
 */
export const OutboxItemState = z.enum(['pending', 'sending', 'failed', 'local']);
export type OutboxItemState = z.infer<typeof OutboxItemState>;

/** An outbox row as the UI shows it. */
export const OutboxItem = z.object({
  id: z.int().positive(),
  email: z.string(),
  breachId: z.string(),
  dataClass: z.string(),
  resolved: z.boolean(),
  state: OutboxItemState,
  attempts: z.int().min(0),
  /** The service's reason, for failed items. */
  failure: z.object({ status: z.int().nullable(), reason: z.string() }).nullable(),
  updatedAt: z.string(),
});
export type OutboxItem = z.infer<typeof OutboxItem>;

export const OutboxSummary = z.object({ pending: z.int(), sending: z.int(), failed: z.int() });
export type OutboxSummary = z.infer<typeof OutboxSummary>;

export type FlushStatus =
  | 'done' // nothing left to send (failed items may remain)
  | 'backoff' // the service or the network failed; try again at `retryAt`
  | 'sign-in-needed' // 401 after refresh, 403, or no token: kept until the person signs in
  | 'cancelled';

export interface FlushResult {
  status: FlushStatus;
  /** HTTP requests made. */
  requests: number;
  /** Intents the service accepted. */
  delivered: number;
  /** Intents newly marked failed. */
  failed: number;
  /** Epoch ms before which the outbox will not send again (status `backoff`). */
  retryAt?: number;
  /** What went wrong, for status other than `done`. */
  error?: string;
  /** What kind of failure that was (status other than `done`). */
  errorKind?: ErrorKind;
  /** Breaches whose queued changes moved (sent, confirmed, refused) in this flush. */
  breachIds?: string[];
}

export interface FlushProgress {
  phase: 'push';
  requests: number;
  plannedRequests: number;
  delivered: number;
  failed: number;
  remaining: number;
}
