import { SignInRequiredError } from './AccessTokenSource.ts';
import { ApiError, type ApiErrorKind } from './ApiError.ts';

/**
 * The one vocabulary for "what went wrong with a call to the service", used by the outbox,
 * the scheduler and sign-in alike. Every decision (retry, back off, ask for a sign-in, mark
 * a change failed, show "offline") is taken from the kind, never from an error's wording.
 */
export type ErrorKind =
  | 'offline' // the service could not be reached: connection refused, reset, DNS
  | 'timeout' // it did not answer in time
  | 'rate-limited' // 429: asked us to slow down
  | 'server' // 5xx, or an answer outside the contract
  | 'auth-needed' // no usable sign-in: 401 after a refresh, or no token at all
  | 'forbidden' // 403: the account is disabled or gone
  | 'no-account' // the service has no account for this person (newer contract): only signing up on its site helps; never retried in a loop
  | 'invalid' // 400/413/422: the request itself was wrong; sending it again will not help
  | 'not-found' // 404
  | 'cancelled' // we stopped it (suspend, sign-out, shutdown)
  | 'internal'; // our own failure: the disk, a bug

const FROM_API: Record<ApiErrorKind, ErrorKind> = {
  network: 'offline',
  timeout: 'timeout',
  'rate-limited': 'rate-limited',
  server: 'server',
  protocol: 'server',
  unauthorized: 'auth-needed',
  forbidden: 'forbidden',
  'no-account': 'no-account',
  invalid: 'invalid',
  'too-large': 'invalid',
  'not-found': 'not-found',
};

export function classifyError(error: unknown): ErrorKind {
  if (error instanceof ApiError) return FROM_API[error.kind];
  if (error instanceof SignInRequiredError) return 'auth-needed';
  if (isAbort(error)) return 'cancelled';
  return 'internal';
}

/** Worth trying again later by itself: the network or the service failed, not the request. */
export function isTransient(kind: ErrorKind): boolean {
  return kind === 'offline' || kind === 'timeout' || kind === 'rate-limited' || kind === 'server';
}

/** Only a person signing in again can fix it; queued work waits for that. */
export function needsSignIn(kind: ErrorKind): boolean {
  return kind === 'auth-needed' || kind === 'forbidden';
}

/** The failure says nothing about the service: the network is down or too slow. */
export function isConnectivity(kind: ErrorKind): boolean {
  return kind === 'offline' || kind === 'timeout';
}

function isAbort(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
