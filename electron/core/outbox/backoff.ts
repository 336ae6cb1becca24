/** Capped exponential backoff. */
export interface BackoffPolicy {
  /** Upper bound of the first delay. */
  baseMs: number;
  /** No delay of our own choosing is longer. */
  capMs: number;
  /** Longest `Retry-After` taken at its word; a larger one (or a date far ahead) is clamped to this. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, capMs: 5 * 60_000, maxRetryAfterMs: 6 * 60 * 60_000 };

/**
 * Delay before attempt `failures + 1` after `failures` consecutive failures: full jitter, a
 * uniform draw in [0, min(cap, base · 2^(failures − 1))] (AWS's analysis: it spreads clients
 * best), and never sooner than the service's `Retry-After`.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number, retryAfterMs?: number): number {
  const exponent = Math.max(0, Math.min(failures - 1, 52));
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  const jittered = Math.floor(random() * ceiling);
  const floor = retryAfterMs === undefined ? 0 : Math.min(Math.max(0, retryAfterMs), policy.maxRetryAfterMs);
  return Math.max(jittered, floor);
}
