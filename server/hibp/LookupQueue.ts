import { randomUUID } from 'node:crypto';
import { emailKey } from '../../shared/api/index.ts';
import { emailRef } from '../log.ts';
import type { Logger } from '../log.ts';
import type { BreachStore } from '../breaches/BreachStore.ts';
import type { Clock } from './clock.ts';
import { HibpError, type HibpClient } from './client.ts';
import { aliasOf, type LookupJob, type LookupStore, type SourceState } from './LookupStore.ts';
import { RetryAfterNotice } from './retryAfter.ts';
import { wrongAddressProblem } from './wrongAddress.ts';
import { WorkerLoop } from './WorkerLoop.ts';

/** Until `subscription/status` says otherwise: the lowest plan's rate limit (Pwned 1, 10 a minute). */
export const DEFAULT_RPM = 10;
export const RATE_WINDOW_MS = 60_000;

export interface LookupQueueOptions {
  client: HibpClient;
  lookups: LookupStore;
  breaches: BreachStore;
  clock: Clock;
  logger: Logger;
  /** `--hibp-domain`: searched as a whole (`breacheddomain`), their addresses not one by one. */
  domains: readonly string[];
  /** A checked address is looked up again after this long (new catalog breaches make it due sooner). */
  recheckMs: number;
  /**
   * Added to HIBP's 60 s window: a request counts against the budget that long, so a late
   * request's network delay cannot put Rpm + 1 requests into one of HIBP's minutes.
   */
  windowMarginMs: number;
  /** Longest a request can be in flight (its timeout, and some): no other request goes meanwhile. */
  flightMs: number;
  /** Told when HIBP names a breach the catalog does not have yet (the catalog refresh comes sooner). */
  onUnknownBreach?: (() => void) | undefined;
  /** Whether a breach id is in the catalog. */
  knowsBreach?: ((id: string) => Promise<boolean>) | undefined;
}

const LEASE_MS = 120_000;
/** A refused key is asked about again this often (it may have been renewed). */
export const KEY_RETRY_MS = 3_600_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 10 * 60_000;
/** Longest idle sleep: another instance may have tracked addresses this one was not told of. */
const IDLE_POLL_MS = 30_000;
const STORE_RETRY_MS = 5_000;

/**
 * The one path by which the service asks Have I Been Pwned anything about an address: a worker
 * per instance that takes the most urgent due lookup from the queue in the database, waits for
 * a place in the shared rate budget (never more than Rpm requests in any window of 60 s, across
 * every instance on the database, nothing at all before a 429's `retry-after` has passed, and a
 * growing pause after 5xx answers and timeouts), asks, and stores the answer with its time.
 */
export class LookupQueue {
  readonly #o: LookupQueueOptions;
  readonly #owner = randomUUID();
  readonly #loop: WorkerLoop;
  #statusKnown = false;
  #statusRetryAt = 0;
  readonly #longWait: RetryAfterNotice;
  /** `--hibp-domain`, less any HIBP refused to search. */
  #domains: string[];

  constructor(options: LookupQueueOptions) {
    this.#o = options;
    this.#domains = [...options.domains];
    this.#longWait = new RetryAfterNotice(options.logger);
    this.#loop = new WorkerLoop(options.clock, () => this.#turn());
  }

  get windowMs(): number {
    return RATE_WINDOW_MS + this.#o.windowMarginMs;
  }

  /**
   * Reads `subscription/status` (the key's Rpm, stealer logs) within the budget, then starts the
   * worker. Resolves with the source state after that first read, so start-up can say what it found.
   */
  async start(): Promise<SourceState> {
    await this.#o.lookups.setSearchedDomains(this.#domains, this.#o.clock.now());
    await this.#readStatus();
    this.#loop.start();
    return this.#o.lookups.state();
  }

  /** Something became due (an address was added): look now rather than at the next poll. */
  wake(): void {
    this.#loop.wake();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One turn of the worker; answers how long to wait before the next. */
  async #turn(): Promise<number> {
    try {
      return await this.#step();
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'the lookup queue could not reach its database; trying again shortly');
      return STORE_RETRY_MS;
    }
  }

  /** One turn of the worker: a lookup done, or how long to wait before the next turn. */
  async #step(): Promise<number> {
    const { clock, lookups } = this.#o;
    const now = clock.now();
    if (!this.#statusKnown) {
      if (now < this.#statusRetryAt) return this.#statusRetryAt - now;
      return (await this.#readStatus()) ? 0 : Math.max(1, this.#statusRetryAt - clock.now());
    }
    const state = await lookups.state();
    if (state.problem?.code === 'key-refused') {
      // Nothing is asked with a key HIBP refused, until the status says it is accepted again.
      this.#statusKnown = false;
      this.#statusRetryAt = now + KEY_RETRY_MS;
      return KEY_RETRY_MS;
    }
    const hold = Math.max(state.blockedUntil, state.backoffUntil);
    if (now < hold) return hold - now;
    const due = await lookups.nextDue(now, state.stealerLogs);
    if (due === null) return IDLE_POLL_MS;
    if (due > now) return Math.min(due - now, IDLE_POLL_MS);
    const slot = await lookups.takeSlot(now, state.rpm ?? DEFAULT_RPM, this.windowMs, this.#o.flightMs);
    if (!slot.granted) return Math.max(1, slot.retryAt - now);
    try {
      const job = await lookups.claim(now, now + LEASE_MS, this.#owner, state.stealerLogs);
      // No job: another instance took it; the slot is spent, which only errs on the safe side.
      if (job) await this.#perform(job);
    } finally {
      // After what the answer taught (a 429's hold) is recorded, so the next request knows it.
      await lookups.landed(slot.flight);
    }
    return 0;
  }

  async #perform(job: LookupJob): Promise<void> {
    const { client, lookups, breaches, clock, recheckMs } = this.#o;
    try {
      if (job.kind === 'account') {
        const names = await client.breachedAccount(job.email);
        await breaches.setExposures(job.email, names);
        const now = clock.now();
        await lookups.accountChecked(job.email, now, names.length, now + recheckMs);
        await this.#noteNames(names);
      } else if (job.kind === 'domain') {
        const byAlias = await client.breachedDomain(job.domain);
        const lowered = new Map(Object.entries(byAlias).map(([alias, names]) => [emailKey(alias), [...new Set(names)]]));
        const counts = new Map<string, number>();
        for (const email of await lookups.emailsOnDomain(job.domain)) {
          const names = lowered.get(emailKey(aliasOf(email))) ?? [];
          await breaches.setExposures(email, names);
          counts.set(email, names.length);
        }
        const now = clock.now();
        await lookups.domainChecked(job.domain, now, now + recheckMs, counts);
        await this.#noteNames([...lowered.values()].flat());
      } else {
        const { domains, dropped } = await client.stealerLogsByEmail(job.email);
        if (dropped > 0)
          this.#o.logger.warn(
            { emailRef: emailRef(job.email), dropped, kept: domains.length },
            `HIBP's stealer-log answer had ${dropped} entr${dropped === 1 ? 'y' : 'ies'} that are not website domains (or beyond the ${domains.length} kept); left out`,
          );
        const now = clock.now();
        await lookups.stealerChecked(job.email, now, domains, now + recheckMs);
      }
      const state = await lookups.state();
      if (state.failures > 0 || (state.problem !== null && state.problem.code !== 'key-refused')) await lookups.updateState({ failures: 0, backoffUntil: 0, problem: null }, { reset: true });
    } catch (error) {
      await this.#failed(job, error);
    }
  }

  async #failed(job: LookupJob, error: unknown): Promise<void> {
    const { lookups, clock, logger } = this.#o;
    const now = clock.now();
    const what = job.kind === 'domain' ? { domain: job.domain } : { emailRef: emailRef(job.email) };
    if (!(error instanceof HibpError)) {
      await lookups.release(job).catch(() => {});
      throw error;
    }
    switch (error.kind) {
      case 'rate-limited': {
        // No request from any instance before retry-after has passed (at most a day); without one, a minute.
        this.#longWait.note(error);
        const until = now + (error.retryAfterMs ?? RATE_WINDOW_MS);
        await lookups.updateState({
          blockedUntil: until,
          problem: { code: 'rate-limited', detail: `Have I Been Pwned asked this service to wait until ${new Date(until).toISOString()} (HTTP 429); lookups resume then.` },
        });
        await lookups.release(job);
        logger.info({ ...what, retryAfterMs: until - now }, 'HIBP answered 429; no request before retry-after has passed');
        return;
      }
      case 'unavailable': {
        const state = await lookups.state();
        const failures = state.failures + 1;
        const pause = Math.min(BACKOFF_BASE_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
        await lookups.updateState({
          failures,
          backoffUntil: now + pause,
          problem: { code: 'source-unreachable', detail: `Have I Been Pwned could not be reached (${error.message}); the service tries again in ${Math.ceil(pause / 1000)} s.` },
        });
        await lookups.release(job);
        logger.warn({ ...what, failures, pauseMs: pause }, `HIBP lookup failed: ${error.message}; backing off`);
        return;
      }
      case 'key-refused': {
        if (error.status === 403 && job.kind === 'domain') {
          // The key is fine, the domain is not verified on its account: its addresses are looked up one by one.
          this.#domains = this.#domains.filter((domain) => domain !== job.domain);
          await lookups.setSearchedDomains(this.#domains, now);
          logger.warn(
            { domain: job.domain },
            `Have I Been Pwned refused to search ${job.domain} (HTTP 403): is it verified on the key's account? Its addresses are looked up one by one until the service is restarted.`,
          );
          return;
        }
        if (error.status === 403 && job.kind === 'stealer') {
          // The subscription no longer includes stealer logs; the next status read says so too.
          await lookups.updateState({ stealerLogs: false });
          await lookups.release(job);
          logger.warn('Have I Been Pwned refused a stealer-log search (HTTP 403): the subscription does not include stealer logs; they are no longer asked for');
          return;
        }
        await lookups.updateState({ problem: keyRefusedProblem(error.status) });
        await lookups.release(job);
        logger.error(keyRefusedProblem(error.status).detail);
        return;
      }
      default: {
        // 400 or an answer HIBP does not document: this lookup, not the source, is at fault.
        await lookups.failed(job, `Have I Been Pwned could not answer for this ${job.kind === 'domain' ? 'domain' : 'address'}: ${error.message}.`, now + this.#o.recheckMs);
        logger.warn({ ...what }, `HIBP lookup failed: ${error.message}`);
      }
    }
  }

  /** Reads `subscription/status`; false when it must be asked again later (`#statusRetryAt`). */
  async #readStatus(): Promise<boolean> {
    const { lookups, clock } = this.#o;
    const now = clock.now();
    const before = await lookups.state();
    const slot = await lookups.takeSlot(now, before.rpm ?? DEFAULT_RPM, this.windowMs, this.#o.flightMs);
    if (!slot.granted) {
      this.#statusRetryAt = slot.retryAt;
      return false;
    }
    try {
      return await this.#askStatus(before);
    } finally {
      await lookups.landed(slot.flight);
    }
  }

  async #askStatus(before: SourceState): Promise<boolean> {
    const { client, lookups, clock, logger } = this.#o;
    try {
      const status = await client.subscriptionStatus();
      await lookups.updateState({ rpm: status.Rpm, stealerLogs: status.IncludesStealerLogs, failures: 0, backoffUntil: 0, problem: null }, { reset: true });
      this.#statusKnown = true;
      logger.info(
        { plan: status.SubscriptionName, rpm: status.Rpm, stealerLogs: status.IncludesStealerLogs },
        `Have I Been Pwned key accepted (${status.SubscriptionName}): up to ${status.Rpm} lookups a minute${status.IncludesStealerLogs ? ', stealer logs included' : ''}`,
      );
      return true;
    } catch (error) {
      if (!(error instanceof HibpError)) throw error;
      if (error.kind === 'key-refused') {
        const problem = keyRefusedProblem(error.status);
        await lookups.updateState({ problem });
        logger.error(problem.detail);
        this.#statusRetryAt = clock.now() + KEY_RETRY_MS;
      } else if (error.kind === 'rate-limited') {
        this.#longWait.note(error);
        const until = clock.now() + (error.retryAfterMs ?? RATE_WINDOW_MS);
        await lookups.updateState({
          blockedUntil: until,
          problem: { code: 'rate-limited', detail: `Have I Been Pwned asked this service to wait until ${new Date(until).toISOString()} (HTTP 429); checks start then.` },
        });
        this.#statusRetryAt = until;
      } else if (error.kind === 'wrong-address') {
        // Not HIBP's API at all: asked again after a pause, in case the address starts answering.
        const failures = before.failures + 1;
        const pause = Math.min(BACKOFF_BASE_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
        const problem = wrongAddressProblem(client.baseUrl);
        await lookups.updateState({ failures, backoffUntil: clock.now() + pause, problem });
        logger.error(`${problem.detail} (${error.message}; asked again in ${Math.ceil(pause / 1000)} s)`);
        this.#statusRetryAt = clock.now() + pause;
      } else {
        const failures = before.failures + 1;
        const pause = Math.min(BACKOFF_BASE_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
        await lookups.updateState({
          failures,
          backoffUntil: clock.now() + pause,
          problem: {
            code: 'source-unreachable',
            detail: `Have I Been Pwned could not be reached to read the key's subscription (${error.message}); the service tries again in ${Math.ceil(pause / 1000)} s.`,
          },
        });
        logger.warn(`could not read the HIBP subscription status: ${error.message}; trying again in ${Math.ceil(pause / 1000)} s`);
        this.#statusRetryAt = clock.now() + pause;
      }
      return false;
    }
  }

  async #noteNames(names: readonly string[]): Promise<void> {
    const { knowsBreach, onUnknownBreach } = this.#o;
    if (!knowsBreach || !onUnknownBreach) return;
    for (const name of new Set(names)) {
      if (!(await knowsBreach(name))) {
        onUnknownBreach();
        return;
      }
    }
  }
}

export function keyRefusedProblem(status: number | undefined): { code: 'key-refused'; detail: string } {
  return {
    code: 'key-refused',
    detail: `Have I Been Pwned refused the API key given with --hibp-api-key or BREACH_SERVICE_HIBP_API_KEY (HTTP ${status ?? '401'}); no address is checked until a valid key is configured.`,
  };
}
