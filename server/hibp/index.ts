import type { BreachDataSource } from '../../shared/api/index.ts';
import { DemoExposures, NO_SOURCE_DETAIL, NoExposures, type ExposureSource } from '../breaches/exposureSource.ts';
import type { CatalogLoadReport, CatalogSource } from '../catalog/source.ts';
import { breachDataSource, type ServiceConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import type { BreachStore } from '../breaches/BreachStore.ts';
import { CatalogRefresher, dueForNewestBreach } from './CatalogRefresher.ts';
import { HibpClient } from './client.ts';
import { systemClock, type Clock } from './clock.ts';
import { describeHibpKey, HIBP_ATTRIBUTION } from './constants.ts';
import { HibpExposures } from './HibpExposures.ts';
import { LookupQueue } from './LookupQueue.ts';
import type { LookupStore, SourceState } from './LookupStore.ts';
import { MAX_RETRY_AFTER_MS } from './retryAfter.ts';

/** Counted against the budget a second longer than HIBP's minute: see `windowMarginMs`. */
export const WINDOW_MARGIN_MS = 1000;

export interface BreachData {
  kind: BreachDataSource;
  source: ExposureSource;
  /** The first HIBP catalog fetch at start, when the catalog comes from HIBP and it succeeded. */
  catalogReport: CatalogLoadReport | undefined;
  /** Present with a key: the queue's store (tests and benches read the budget from it). */
  lookups: LookupStore | undefined;
  queue: LookupQueue | undefined;
  refresher: CatalogRefresher | undefined;
  /** Sentences for the start-up banner: where breach data comes from, or why there is none. */
  summary: string[];
  close(): Promise<void>;
}

export interface BreachDataOptions {
  config: ServiceConfig;
  store: BreachStore;
  /** The lookup queue's store, from the service's storage (which closes it): opened only when breach data is not demo. */
  lookups: () => LookupStore;
  writeDetails: (details: CatalogSource['details']) => Promise<void>;
  logger: Logger;
  clock?: Clock;
}

/**
 * The service's breach-data source, started: demo data (only with `--demo`/`--dev`), nothing
 * (no key: says so, invents nothing), or Have I Been Pwned (the lookup queue, after reading the
 * key's subscription). Without `--catalog` and outside demo, the catalog comes from HIBP too: at
 * start, then on the refresh schedule.
 */
export async function startBreachData(options: BreachDataOptions): Promise<BreachData> {
  const { config, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const kind = breachDataSource(config);
  if (kind === 'demo') {
    logger.info('breach data: demo — exposures are invented (--demo or --dev), and every answer carrying them says so (breach-data: demo)');
    return {
      kind,
      source: new DemoExposures(store, () => new Date(clock.now()), config.catalogFile ? HIBP_ATTRIBUTION : null),
      catalogReport: undefined,
      lookups: undefined,
      queue: undefined,
      refresher: undefined,
      summary: ['demo — invented exposures (--demo or --dev); answers carry "breach-data: demo"'],
      close: async () => {},
    };
  }

  const lookups = options.lookups();
  await boundStoredHold(lookups, clock.now(), logger);
  const client = new HibpClient({ baseUrl: config.hibpUrl, apiKey: config.hibpApiKey, timeoutMs: config.hibpTimeoutMs });
  let queue: LookupQueue | undefined;
  let refresher: CatalogRefresher | undefined;
  // A request cannot be in flight longer than its timeout; a little more for the answer to be recorded.
  const flightMs = config.hibpTimeoutMs + 5000;
  try {
    if (kind === 'hibp') {
      queue = new LookupQueue({
        client,
        lookups,
        breaches: store,
        clock,
        logger: logger.child({ component: 'hibp' }),
        domains: config.hibpDomains,
        recheckMs: config.recheckIntervalSec * 1000,
        windowMarginMs: WINDOW_MARGIN_MS,
        flightMs,
        knowsBreach: async (id) => (await store.getBreach(id)) !== undefined,
        onUnknownBreach: () => refresher?.soon(),
      });
    }
    const windowMs = queue?.windowMs ?? 60_000 + WINDOW_MARGIN_MS;
    if (!config.catalogFile) {
      refresher = new CatalogRefresher({
        client,
        lookups,
        store,
        writeDetails: options.writeDetails,
        clock,
        logger: logger.child({ component: 'hibp-catalog' }),
        intervalMs: config.catalogRefreshSec * 1000,
        windowMs,
        flightMs,
        onDue: () => queue?.wake(),
      });
    }
    let catalogReport: CatalogLoadReport | undefined;
    try {
      catalogReport = await refresher?.refreshNow();
    } catch (error) {
      logger.warn({ err: error }, 'the Have I Been Pwned catalog could not be used; the stored catalog stays until the next refresh');
    }
    refresher?.start();
    const summary: string[] = [];
    if (refresher && !catalogReport) summary.push(`the Have I Been Pwned catalog could not be fetched yet; the stored one (${await store.catalogSize()} breaches) is used until it is`);
    if (queue) {
      // A --catalog file is not refreshed, but it may hold breaches added since addresses were checked.
      if (config.catalogFile) await dueForNewestBreach(await store.listBreaches(), lookups, clock.now());
      const state = await queue.start();
      summary.unshift(describeState(config, state));
    } else {
      logger.warn(NO_SOURCE_DETAIL);
      summary.unshift(`none — ${NO_SOURCE_DETAIL}`);
    }
    const source = queue ? new HibpExposures({ lookups, breaches: store, queue, clock, domains: config.hibpDomains }) : new NoExposures();
    return {
      kind,
      source,
      catalogReport,
      lookups,
      queue,
      refresher,
      summary,
      async close() {
        await refresher?.stop();
        await queue?.stop();
      },
    };
  } catch (error) {
    await refresher?.stop();
    await queue?.stop();
    throw error;
  }
}

/**
 * A hold stored by an earlier run (a `retry-after` from before it was bounded, or from a clock
 * far ahead) is brought back to at most a day from now, before anything reads it: otherwise one
 * answer could stop every lookup for years, across restarts.
 */
async function boundStoredHold(lookups: LookupStore, now: number, logger: Logger): Promise<void> {
  const latest = now + MAX_RETRY_AFTER_MS;
  const before = await lookups.clampHolds(latest);
  const stored = Math.max(before.blockedUntil, before.backoffUntil);
  if (stored > latest)
    logger.warn(
      { storedUntil: Number.isFinite(stored) && stored < 8.64e15 ? new Date(stored).toISOString() : stored, until: new Date(latest).toISOString() },
      'the stored hold on Have I Been Pwned requests lasted longer than a day; it now ends within a day',
    );
}

function describeState(config: ServiceConfig, state: SourceState): string {
  const key = `key ${describeHibpKey(config.hibpApiKey ?? '')}`;
  if (state.problem) return `Have I Been Pwned (${key}) — ${state.problem.detail}`;
  const domains = config.hibpDomains.length > 0 ? `; domains searched whole: ${config.hibpDomains.join(', ')}` : '';
  return `Have I Been Pwned (${key}) — up to ${state.rpm} lookups a minute${state.stealerLogs ? ', stealer logs included' : ''}${domains}`;
}
