import type { Breach } from '../../shared/api/index.ts';
import { compareCatalogs, hibpCatalogSource, type CatalogLoadReport, type CatalogSource } from '../catalog/source.ts';
import type { Logger } from '../log.ts';
import type { BreachStore } from '../breaches/BreachStore.ts';
import type { Clock } from './clock.ts';
import { HibpError, type HibpClient } from './client.ts';
import { DEFAULT_RPM } from './LookupQueue.ts';
import type { LookupStore } from './LookupStore.ts';
import { RetryAfterNotice } from './retryAfter.ts';
import { WorkerLoop } from './WorkerLoop.ts';

export interface CatalogRefresherOptions {
  client: HibpClient;
  lookups: LookupStore;
  store: BreachStore;
  /** Writes the details feed (`catalog/breaches` of the realtime database) in one transaction. */
  writeDetails: (details: CatalogSource['details']) => Promise<void>;
  clock: Clock;
  logger: Logger;
  intervalMs: number;
  /** The rate budget's window (the lookup queue's), so the catalog counts against the same Rpm. */
  windowMs: number;
  /** Longest a request can be in flight (see `LookupStore.takeSlot`). */
  flightMs: number;
  /** Told how many checked addresses became due again because HIBP added breaches since their check. */
  onDue: (count: number) => void;
}

/**
 * Makes due every address (and domain) checked before the newest breach of `breaches` was added
 * to HIBP: a check answered before HIBP loaded a breach cannot have included it; one after it did.
 * AddedDate is kept to the minute, so a minute's grace. The number made due.
 */
export async function dueForNewestBreach(breaches: readonly Breach[], lookups: LookupStore, now: number): Promise<number> {
  if (breaches.length === 0) return 0;
  const newest = Math.max(...breaches.map((breach) => Date.parse(breach.addedDate)));
  return lookups.dueAgainIfCheckedBefore(newest + 60_000, now);
}

/** An unknown breach name brings the next refresh forward, but not closer than this to the last. */
const SOONEST_MS = 10 * 60_000;
const RETRY_MS = 5 * 60_000;

/**
 * Have I Been Pwned's catalog (`GET breaches`, no key needed), fetched at start and every
 * `intervalMs`, through the same rate budget as the lookups. A change goes the way a `--catalog`
 * file goes at start (the breach store, then the details feed, from which the search index and the
 * graph read), and a breach HIBP added after an address was last checked makes that address due.
 */
export class CatalogRefresher {
  readonly #o: CatalogRefresherOptions;
  readonly #loop: WorkerLoop;
  #lastFetch = Number.NEGATIVE_INFINITY;
  #nextAt = 0;
  #applied: string | undefined;
  readonly #longWait: RetryAfterNotice;
  /** Records of HIBP's answer already said to be left out: each is logged once, not at every refresh. */
  readonly #toldRejected = new Set<string>();

  constructor(options: CatalogRefresherOptions) {
    this.#o = options;
    this.#longWait = new RetryAfterNotice(options.logger);
    this.#loop = new WorkerLoop(options.clock, () => this.#turn());
  }

  /** One refresh now, if the budget has room now; undefined when it did not happen (the schedule retries). */
  async refreshNow(): Promise<CatalogLoadReport | undefined> {
    const { clock, lookups, client, logger } = this.#o;
    const now = clock.now();
    const state = await lookups.state();
    const slot = await lookups.takeSlot(now, state.rpm ?? DEFAULT_RPM, this.#o.windowMs, this.#o.flightMs);
    if (!slot.granted) {
      this.#nextAt = slot.retryAt;
      return undefined;
    }
    this.#lastFetch = now;
    let json: unknown;
    try {
      json = await client.breaches();
    } catch (error) {
      if (!(error instanceof HibpError)) throw error;
      if (error.kind === 'rate-limited') {
        // retry-after is at most a day (the client bounds it); said once when it asked for more.
        this.#longWait.note(error);
        const until = clock.now() + (error.retryAfterMs ?? 60_000);
        await lookups.updateState({ blockedUntil: until });
        this.#nextAt = until;
      } else this.#nextAt = clock.now() + RETRY_MS;
      logger.warn(`could not fetch the Have I Been Pwned catalog: ${error.message}; the stored catalog stays, trying again in ${Math.ceil((this.#nextAt - clock.now()) / 1000)} s`);
      return undefined;
    } finally {
      await lookups.landed(slot.flight);
    }
    const source = hibpCatalogSource(json);
    this.#nextAt = clock.now() + this.#o.intervalMs;
    return this.#apply(source);
  }

  async #apply(source: CatalogSource): Promise<CatalogLoadReport> {
    const { store, writeDetails, lookups, clock, logger, onDue } = this.#o;
    for (const record of source.rejected ?? []) {
      const name = record.name === undefined ? `#${record.index}` : record.name.slice(0, 80);
      if (this.#toldRejected.has(name)) continue;
      this.#toldRejected.add(name);
      logger.warn({ breach: name }, `a record of the Have I Been Pwned catalog is left out (the rest is used): ${record.problem.slice(0, 300)}`);
    }
    const previous = await store.listBreaches();
    const fingerprint = JSON.stringify([source.breaches, source.details]);
    const report = compareCatalogs(
      previous.map((breach) => breach.id),
      source,
    );
    if (fingerprint === this.#applied && report.added === 0 && report.removed.length === 0) return report;
    await store.replaceCatalog(source.breaches, { origin: 'hibp', file: null, at: new Date(clock.now()).toISOString() });
    await writeDetails(source.details);
    this.#applied = fingerprint;
    const due = await dueForNewestBreach(source.breaches, lookups, clock.now());
    if (due > 0) {
      logger.info({ added: report.added, due }, `${report.added} breach(es) added to the catalog; ${due} checked address(es) or domain(s) are due for a re-check`);
      onDue(due);
    }
    logger.info(
      { breaches: report.kept, total: report.total, added: report.added, removed: report.removed.length },
      `Have I Been Pwned catalog refreshed: ${report.kept} breaches (${report.added} new)`,
    );
    return report;
  }

  start(): void {
    if (this.#nextAt === 0) this.#nextAt = this.#o.clock.now() + this.#o.intervalMs;
    this.#loop.start();
  }

  /** HIBP named a breach the catalog lacks: refresh soon (not more often than every 10 minutes). */
  soon(): void {
    const at = Math.max(this.#lastFetch + SOONEST_MS, this.#o.clock.now());
    if (at < this.#nextAt) {
      this.#nextAt = at;
      this.#loop.wake();
    }
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Refreshes when due; answers how long to wait before looking again. */
  async #turn(): Promise<number> {
    const wait = this.#nextAt - this.#o.clock.now();
    if (wait > 0) return wait;
    try {
      await this.refreshNow();
    } catch (error) {
      this.#o.logger.warn({ err: error }, 'the catalog refresh failed; trying again later');
      this.#nextAt = this.#o.clock.now() + RETRY_MS;
    }
    return 0;
  }
}
