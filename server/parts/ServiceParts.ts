import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import type { CodeRules } from '../api/PersonEmails.ts';
import type { AccessTokenVerifier } from '../auth/AccessTokenVerifier.ts';
import { cachingVerifier } from '../auth/cachingVerifier.ts';
import { loadCatalog } from '../breaches/loadCatalog.ts';
import type { CatalogLoadReport } from '../catalog/source.ts';
import { breachDataSource, type ServiceConfig } from '../config.ts';
import { FaultPlan } from '../firefox/FaultPlan.ts';
import type { Clock } from '../hibp/clock.ts';
import { startBreachData, type BreachData } from '../hibp/index.ts';
import type { Logger } from '../log.ts';
import { openStorage, type ServiceStorage } from '../openStorage.ts';
import { detailsFeedVersion } from '../rtdb/detailsFeedVersion.ts';
import { StreamSlots } from '../rtdb/streamSlots.ts';
import { createSearchService, type SearchService, type SearchStorage } from '../search/index.ts';
import { ensurePrivateDir } from '../storage/privateFiles.ts';
import { openBreachAlerts, type BreachAlerts } from './breachAlerts.ts';
import { openDetailsFeed, openSearchStorage, type DetailsFeed } from './details.ts';
import { listen, type Listening } from './listening.ts';
import { openSignIn, type SignIn } from './signIn.ts';

/** What a start is given besides its configuration (tests shorten clocks and code limits). */
export interface ServiceOptions {
  logger?: Logger;
  clock?: Clock;
  /** Shorter code limits than EmailRules' (tests of expiry and limits). */
  codeRules?: CodeRules;
}

/**
 * The parts the service's mounts stand on, each opened the first time a mount (or the start) asks
 * for it, once: as VS Code creates a delayed service on first use. A part names the parts it
 * needs, so the order of the start follows from what each needs (storage before the catalog, the
 * port before sign-in, whose issuer carries it) instead of a list of steps kept in order by hand,
 * and a part no mount of this configuration needs is never opened. Each part says how it closes
 * beside how it opens; {@link close} closes what opened, last opened first, whether the start
 * failed part-way (no file, pool or port left behind) or the service is closing.
 */
export class ServiceParts {
  readonly config: ServiceConfig;
  readonly logger: Logger;
  readonly #options: ServiceOptions;
  // The platform's stack (explicit resource management): what opened, closed in reverse order.
  readonly #opened = new AsyncDisposableStack();

  constructor(config: ServiceConfig, logger: Logger, options: ServiceOptions) {
    this.config = config;
    this.logger = logger;
    this.#options = options;
  }

  /** The service's clock in milliseconds (tests move it). */
  readonly now = (): number => (this.#options.clock ? this.#options.clock.now() : Date.now());

  /** The data folder (private), then the breach store, the realtime database, the lookups and sign-in's state: SQLite or PostgreSQL. */
  readonly storage = this.#part(
    async (): Promise<ServiceStorage> => {
      ensurePrivateDir(this.config.dataDir);
      return openStorage(this.config, this.logger);
    },
    (storage) => storage.close(),
  );

  /** The details feed in the realtime database: the catalog writes it, search reads it. */
  readonly detailsFeed = this.#part(
    async (): Promise<DetailsFeed> => openDetailsFeed(await this.storage(), this.logger),
    ({ details }) => details.dispose(),
  );

  /** The search interface's API tokens and index, beside the breach store. */
  readonly searchStorage = this.#part(
    async (): Promise<SearchStorage> => openSearchStorage(await this.storage(), (await this.detailsFeed()).details),
    (storage) => storage.close(),
  );

  /** What loading the catalog at start changed and left out. */
  readonly catalogLoad = this.#part(async (): Promise<CatalogLoadReport> => {
    const { breaches: store } = await this.storage();
    const { writeDetails } = await this.detailsFeed();
    return loadCatalog({ store, writeDetails, catalogFile: this.config.catalogFile, demo: breachDataSource(this.config) === 'demo', logger: this.logger, now: () => new Date(this.now()) });
  });

  /** The catalog as the start left it: HIBP's refresh, when it ran, or the load. */
  readonly catalogReport = this.#part(async (): Promise<CatalogLoadReport> => (await this.breachData()).catalogReport ?? (await this.catalogLoad()));

  /** The details feed's version (the catalog's revision with the feed's own changes). */
  readonly catalogVersion = this.#part(
    async () => detailsFeedVersion((await this.detailsFeed()).details),
    (version) => version.dispose(),
  );

  /** The port, listened on before anything is mounted: 503 to every request until the start serves. */
  readonly listening = this.#part(
    (): Promise<Listening> => listen(this.config),
    // A failed start has no request in flight to wait for; the running service's `close` drains first, with its grace.
    (listening) => listening.drain(0),
  );

  /** The configured issuer, or the development identity provider over this service's storage. */
  readonly signIn = this.#part(
    async (): Promise<SignIn> => openSignIn(this.config, await this.storage(), (await this.listening()).url, this.logger),
    ({ identity }) => identity?.close(),
  );

  /** The access-token check every person-facing mount shares (its cache included). */
  readonly verifyToken = this.#part(async (): Promise<AccessTokenVerifier> => cachingVerifier((await this.signIn()).verifier));

  /** Where exposures come from (`hibp`, `demo`, `none`), started after the catalog's load it refreshes and once the service listens. */
  readonly breachData = this.#part(
    async (): Promise<BreachData> => {
      await this.catalogLoad();
      // Nothing is asked of HIBP before the port is ours: a start that fails there sends no lookup.
      await this.listening();
      const storage = await this.storage();
      const { writeDetails } = await this.detailsFeed();
      const clock = this.#options.clock;
      return startBreachData({ config: this.config, store: storage.breaches, lookups: () => storage.lookups(), writeDetails, logger: this.logger, ...(clock ? { clock } : {}) });
    },
    (breachData) => breachData.close(),
  );

  /** The breach-alert service and the person's addresses (with their verification mail). */
  readonly breachAlerts = this.#part(
    async (): Promise<BreachAlerts> =>
      openBreachAlerts({
        config: this.config,
        storage: await this.storage(),
        breachData: await this.breachData(),
        url: (await this.listening()).url,
        now: this.now,
        codeRules: this.#options.codeRules,
        logger: this.logger,
      }),
    (alerts) => alerts.close(),
  );

  /** The search interface: its index and API tokens. */
  readonly search = this.#part(async (): Promise<SearchService> => createSearchService({ storage: await this.searchStorage(), accountId: this.config.accountId, logger: this.logger }));

  /** The realtime database's streaming reads: their caps, and the counts the running service reports. */
  readonly rtdbStreams = this.#part((): StreamSlots => new StreamSlots(this.config));

  /** The faults the development surface arms on `/api/firefox/v1`. */
  readonly firefoxFaults = this.#part((): FaultPlan => new FaultPlan());

  /** Keeps `made` (a mount) to close with the parts, before them; returns it. */
  keep<T extends AsyncDisposable>(made: T): T {
    if (this.#opened.disposed) {
      // Made after the service closed: closed at once, never left running.
      void Promise.resolve(made.dispose()).catch((error: unknown) => this.logger.warn({ err: error }, 'could not close a mount made after the service closed'));
      return made;
    }
    this.#opened.defer(() => made.dispose());
    return made;
  }

  /** Closes everything that opened, last opened first; each once, the rest still closed when one fails. */
  close(): Promise<void> {
    return this.#opened.disposeAsync();
  }

  /** A part: `open` runs the first time it is asked for, every later ask shares that run (and its failure); once open, `close` is due. */
  #part<T>(open: () => Promise<T> | T, close?: (part: T) => Promise<void> | void): () => Promise<T> {
    let part: Promise<T> | undefined;
    return () =>
      (part ??= Promise.resolve().then(async () => {
        const opened = await open();
        if (!close) return opened;
        if (this.#opened.disposed) {
          // Opened while (or after) the service closed: closed again at once, and the one who asked is told.
          await close(opened);
          throw new Error('the service closed while one of its parts was opening');
        }
        this.#opened.defer(() => close(opened));
        return opened;
      }));
  }
}
