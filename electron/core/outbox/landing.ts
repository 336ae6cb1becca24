import type { ErrorKind } from '../api/errorKind.ts';

/**
 * Whether a resolutions request that failed this way may still have changed the service. Only
 * an answer the service gives before it writes anything says no: it checks the token, the
 * account and the rate, and validates the whole batch before applying any of it (400/404/413
 * change nothing, docs/sync.md); a missing sign-in means nothing was sent. Everything else leaves the outcome unknown: a connection that broke
 * after the request went out, a timeout, a 5xx or an answer off the contract (a proxy's, or one
 * sent after the commit), our own abort, our own failure while reading the answer. Unknown is
 * treated as "may have landed": the cost is one request more, the alternative a lost change.
 * A record, so a new kind cannot be added without deciding this.
 */
const LANDED_MAYBE: Record<ErrorKind, boolean> = {
  'rate-limited': false,
  'auth-needed': false,
  forbidden: false,
  'no-account': false,
  invalid: false,
  'not-found': false,
  offline: true,
  timeout: true,
  server: true,
  cancelled: true,
  internal: true,
};

export function mayHaveLanded(kind: ErrorKind): boolean {
  return LANDED_MAYBE[kind];
}
