import type { ProblemFieldError } from '../../../shared/api/index.ts';

export type ApiErrorKind =
  | 'invalid' // 400: the request was wrong; retrying the same bytes will not help
  | 'unauthorized' // 401 even after one refresh
  | 'forbidden' // 403: account disabled or gone, sign-in needed
  | 'no-account' // 403 `no-monitor-account` (newer contract): the person must sign up on the service's site
  | 'not-found' // 404
  | 'too-large' // 413
  | 'rate-limited' // 429
  | 'server' // 5xx
  | 'network' // connection refused, reset, DNS
  | 'timeout'
  | 'protocol'; // an answer that does not follow the contract

/** A failed call, with what a person or the outbox needs to decide what to do next. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  /** The service's own words (problem `detail`, or the body text). */
  readonly detail: string;
  readonly fieldErrors: ProblemFieldError[];
  /** From `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: ApiErrorKind, detail: string, options: { status?: number; fieldErrors?: ProblemFieldError[]; retryAfterMs?: number; cause?: unknown } = {}) {
    super(options.status ? `${options.status}: ${detail}` : detail, { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.detail = detail;
    this.fieldErrors = options.fieldErrors ?? [];
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Worth sending again later: the service or the network failed, not the request. */
  get transient(): boolean {
    return this.kind === 'rate-limited' || this.kind === 'server' || this.kind === 'network' || this.kind === 'timeout';
  }
}

export function kindOfStatus(status: number): ApiErrorKind {
  if (status === 400 || status === 422) return 'invalid';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 413) return 'too-large';
  if (status === 429) return 'rate-limited';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'protocol';
}

/** `Retry-After` as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
