import { isConnectivity, type ErrorKind } from './errorKind.ts';

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

/**
 * When the service may be asked again, shared by the push (outbox) and the pull (scheduler) of
 * one account: a service that failed or asked us to slow down gets no request from either
 * until the wait is over, and one success ends the wait for both.
 */
export class BackoffState {
  readonly #policy: BackoffPolicy;
  readonly #random: () => number;
  readonly #now: () => number;
  #failures = 0;
  #kind: ErrorKind | undefined;
  #error: string | undefined;
  #notBefore = 0;

  constructor(options: { policy?: Partial<BackoffPolicy>; random?: () => number; now?: () => number } = {}) {
    this.#policy = { ...DEFAULT_BACKOFF, ...options.policy };
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  /** Epoch ms before which no request should go out (0: none). */
  get notBefore(): number {
    return this.#notBefore;
  }

  /** The kind and words of the failure that started the wait. */
  get kind(): ErrorKind | undefined {
    return this.#kind;
  }

  get error(): string | undefined {
    return this.#error;
  }

  waiting(): boolean {
    return this.#notBefore > this.#now();
  }

  /** One more failure in a row: the next attempt waits a jittered, growing delay (never less than `Retry-After`). Returns that time. */
  fail(kind: ErrorKind, error: string, retryAfterMs?: number): number {
    this.#failures++;
    this.#kind = kind;
    this.#error = error;
    this.#notBefore = this.#now() + backoffDelay(this.#failures, this.#policy, this.#random, retryAfterMs);
    return this.#notBefore;
  }

  succeed(): void {
    this.#failures = 0;
    this.#kind = undefined;
    this.#error = undefined;
    this.#notBefore = 0;
  }

  /** The host says the network is back: a wait the network caused ends now; one the service asked for does not. Returns whether it ended. */
  connectivityRestored(): boolean {
    if (this.#kind === undefined || !isConnectivity(this.#kind)) return false;
    this.succeed();
    return true;
  }
}
