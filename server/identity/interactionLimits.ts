import { AsyncLocalStorage } from 'node:async_hooks';
import { errors } from 'oidc-provider';
import { addressKey } from '../http/connections.ts';
import { storedIdOf } from './storedIdentifiers.ts';

/**
 * Bounds on sign-ins under way (oidc-provider's interactions). Every anonymous `GET /oidc/auth`
 * stores one (~3 KB on disk) for the interaction's lifetime: 2,000 requests from one client grew
 * the provider's file by 5.9 MB in 5.6 s, and nothing capped it. Now each client address (an IPv6
 * /64 counts as one) keeps at most `perAddress` live interactions, its oldest making way for its
 * newest, so a flood from one address costs only that address's own sign-ins; and the provider
 * keeps at most `total`, beyond which a new sign-in is refused (429) rather than ending someone
 * else's, so a person part-way through signing in is never locked out by a flood from elsewhere.
 */
export interface InteractionLimits {
  /** Live interactions of one client address; at the cap its oldest is deleted for the new one. */
  perAddress: number;
  /** Live interactions in all; at the cap a new one is refused with 429. */
  total: number;
}

/** A person signs in a few times at most at once (the app starts one sign-in at a time); 10,000 rows are ~30 MB. */
export const INTERACTION_LIMIT_DEFAULTS: InteractionLimits = { perAddress: 32, total: 10_000 };

/**
 * How long a sign-in may stay under way (oidc-provider's default is an hour): ample for signing in
 * and consenting, and what a refused sign-in waits at most for room.
 */
export const INTERACTION_TTL_SEC = 30 * 60;

/** Seconds a client refused for want of room is asked to wait: interactions end as people finish or give up. */
export const INTERACTIONS_FULL_RETRY_AFTER_SEC = 60;

/** The request a store is admitting a new interaction for. */
export interface RequestingClient {
  /**
   * What the store keeps of the client's address: a hash of its address key (one per IPv4
   * address or IPv6 /64), so the table counts per client without holding addresses; undefined
   * outside a request (such an interaction counts toward the total only).
   */
  clientKey: string | undefined;
  /**
   * The request resumes a sign-in (`/auth/:uid`, after the login page): oidc-provider deletes the
   * finished interaction and stores the next (the consent page's). That one is admitted even at
   * the total cap, so a flood from elsewhere that takes the room freed in between cannot lock
   * out a person part-way through; it replaces one, so the total does not grow by it.
   */
  continuing: boolean;
}

/**
 * The request under which the store counts a new interaction: the identity provider's request
 * handler runs oidc-provider inside it, so the store's `upsert` (several awaits later) still sees it.
 */
const requestingClient = new AsyncLocalStorage<RequestingClient>();

/** Runs `handle` (oidc-provider's handling of one request) as a request from `remoteAddress`. */
export function withRequestingClient<T>(remoteAddress: string | undefined, continuing: boolean, handle: () => T): T {
  return requestingClient.run({ clientKey: remoteAddress ? storedIdOf(addressKey(remoteAddress)) : undefined, continuing }, handle);
}

/** The request the current `upsert` runs for (no client key and not continuing outside one). */
export function currentRequestingClient(): RequestingClient {
  return requestingClient.getStore() ?? { clientKey: undefined, continuing: false };
}

/**
 * Thrown by a store when it holds {@link InteractionLimits.total} live interactions. An
 * oidc-provider error that is never redirected to the client: the browser gets the provider's
 * error page with status 429 and `Retry-After` (provider.ts `renderError`).
 */
export class SignInsFullError extends errors.OIDCProviderError {
  constructor() {
    super(429, 'temporarily_unavailable');
    this.allow_redirect = false;
    this.error_description = 'too many sign-ins are under way right now; try again in a minute';
  }
}
