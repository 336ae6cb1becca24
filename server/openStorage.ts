import path from 'node:path';
import type pg from 'pg';
import type { ServiceConfig } from './config.ts';
import type { Logger } from './log.ts';
import { RTDB_FILE } from './rtdb/detailsFeed.ts';
import type { RtdbStore } from './rtdb/RtdbStore.ts';
import { SqliteRtdbStore } from './rtdb/SqliteRtdbStore.ts';
import { CatalogSearchIndex, type CatalogReader } from './search/CatalogSearchIndex.ts';
import { API_TOKENS_FILE, type SearchStorage } from './search/index.ts';
import { SqliteApiTokenStore } from './search/SqliteApiTokenStore.ts';
import type { LookupStore } from './hibp/LookupStore.ts';
import { asyncBreachStore, type BreachStore, type CatalogLog } from './breaches/BreachStore.ts';
import { migratePostgres } from './storage/postgresMigrate.ts';
import { createPool, describeDatabaseUrl, unreachable } from './storage/pool.ts';
import { openSqliteBreachStore } from './breaches/SqliteBreachStore.ts';
import { openSqliteLookupStore } from './hibp/SqliteLookupStore.ts';

/** The breach store's SQLite file in the data folder. */
export const SERVICE_DB_FILE = 'service.db';

/** What the search index reads of the details feed (titles, descriptions), by breach id. */
export interface SearchDetails {
  readDetails: CatalogReader['readDetails'];
  /** One breach's details, so that a change to one breach re-reads only its own (SQLite's index). */
  readDetailsOf: NonNullable<CatalogReader['readDetailsOf']>;
}

/** Where the development identity provider keeps its keys, grants and sessions. */
export interface IdentityStorage {
  /** Its files (`identity/`) when there is no database. */
  dataDir: string;
  /** The instance's one pool when there is a database. */
  databasePool: pg.Pool | undefined;
}

/** Everything the service keeps, on one dialect, opened once per instance. */
export interface ServiceStorage {
  dialect: 'sqlite' | 'postgresql';
  breaches: BreachStore;
  /**
   * The catalog's log of recent writes, so readers update what changed: SQLite's store keeps it
   * in memory (this process is the catalog's only writer); PostgreSQL's in `catalog_log`, written
   * by whichever instance changed the catalog.
   */
  catalogLog: CatalogLog;
  /** The realtime database (details feed, people's preferences, secrets). */
  rtdb: RtdbStore;
  /**
   * The search interface's API tokens and index, beside the breach store. Opened on demand
   * because the index reads the details feed, which the service mirrors only once the catalog is
   * loaded; closed with the rest.
   */
  search(details: SearchDetails): Promise<SearchStorage>;
  identity: IdentityStorage;
  /**
   * The breach-data source's lookup queue and rate budget, beside the breach store (its tables
   * are the breach store's migrations'). Opened on demand, once (only a service with a Have I
   * Been Pwned key has one); closed with the rest. On PostgreSQL it shares the instance's pool.
   */
  lookups(): LookupStore;
  /** Closes every store opened here, then the pool. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * The one place the service decides between SQLite and PostgreSQL. With a database URL, every
 * store shares ONE pool of `--database-pool-size` connections (plus one listening connection per
 * store that follows other instances' notices): before, each of the four made a pool of its own,
 * about 30 connections an instance, so four instances used up PostgreSQL's default 100. The
 * database is migrated here, once, by its one list (server/storage/migrations/).
 * Without one, the SQLite files in the data folder.
 */
export async function openStorage(config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl' | 'databasePoolSize' | 'databaseInvalidation'>, logger: Logger): Promise<ServiceStorage> {
  return config.databaseUrl ? openPostgresStorage({ ...config, databaseUrl: config.databaseUrl }, logger) : openSqliteStorage(config.dataDir);
}

function openSqliteStorage(dataDir: string): ServiceStorage {
  const sqlite = openSqliteBreachStore(path.join(dataDir, SERVICE_DB_FILE));
  const breaches = asyncBreachStore(sqlite);
  let rtdb: RtdbStore;
  try {
    rtdb = new SqliteRtdbStore(path.join(dataDir, RTDB_FILE));
  } catch (error) {
    sqlite.close();
    throw error;
  }
  // This process is the catalog's only writer: the store's own log names what changed.
  const catalogLog = { catalogChangesSince: sqlite.catalogChangesSince.bind(sqlite), getBreach: sqlite.getBreach.bind(sqlite) };
  const opened: SearchStorage[] = [];
  // Its own connection to the breach store's file: the budget is written with synchronous = FULL.
  let lookups: LookupStore | undefined;
  return {
    dialect: 'sqlite',
    breaches,
    catalogLog,
    rtdb,
    async search(details) {
      const tokens = new SqliteApiTokenStore(path.join(dataDir, API_TOKENS_FILE));
      // SQLite FTS5 in memory over the SQLite store's catalog, read synchronously.
      const index = new CatalogSearchIndex({
        catalogRevision: () => sqlite.catalogRevision(),
        listBreaches: () => sqlite.listBreaches(),
        ...catalogLog,
        readDetails: details.readDetails,
        readDetailsOf: details.readDetailsOf,
      });
      const storage = onceClosed({
        tokens,
        index,
        async close() {
          await index.close();
          await tokens.close();
        },
      });
      opened.push(storage);
      return storage;
    },
    identity: { dataDir, databasePool: undefined },
    lookups: () => (lookups ??= openSqliteLookupStore(path.join(dataDir, SERVICE_DB_FILE))),
    close: closeOnce(async () => {
      await lookups?.close();
      for (const storage of opened) await storage.close();
      await rtdb.close();
      await breaches.close();
    }),
  };
}

async function openPostgresStorage(config: { dataDir: string; databaseUrl: string; databasePoolSize: number; databaseInvalidation: 'check' | 'notify' }, logger: Logger): Promise<ServiceStorage> {
  const url = config.databaseUrl;
  const onConnectionError = (error: Error) => logger.warn({ err: error }, 'a database connection was lost; the next request reconnects');
  // Loaded only here, so the SQLite path never loads the driver.
  const [{ openPostgresBreachStore }, { openPostgresRtdbStore }, { openPostgresSearchStorage }, { PostgresLookupStore }] = await Promise.all([
    import('./breaches/postgres/openPostgresBreachStore.ts'),
    import('./rtdb/PostgresRtdbStore.ts'),
    import('./search/postgresStorage.ts'),
    import('./hibp/PostgresLookupStore.ts'),
  ]);
  const pool = createPool({ url, max: config.databasePoolSize, onIdleError: onConnectionError });
  const closers: (() => Promise<void>)[] = [];
  let lookups: LookupStore | undefined;
  const closeAll = closeOnce(async () => {
    for (const close of closers.reverse()) await close().catch((error: unknown) => logger.warn({ err: error }, 'a store failed to close'));
    await pool.end();
  });
  try {
    // The one migration list, once, before any store opens: the stores only check the version.
    const run = await migratePostgres(pool).catch((error: unknown) => {
      throw unreachable(url, error);
    });
    if (run.applied.length > 0 || run.adopted.length > 0) logger.info({ from: run.from, to: run.to, applied: run.applied, adopted: run.adopted }, 'database schema migrated');
    const breaches = await openPostgresBreachStore({ url, pool, invalidation: config.databaseInvalidation, onConnectionError });
    closers.push(() => breaches.close());
    const rtdb = await openPostgresRtdbStore({ url, pool, onConnectionError });
    closers.push(() => rtdb.close());
    return {
      dialect: 'postgresql',
      breaches,
      catalogLog: { catalogChangesSince: (revision) => breaches.catalogChangesSince(revision), getBreach: (id) => breaches.getBreach(id) },
      rtdb,
      async search(details) {
        const storage = await openPostgresSearchStorage({ url, pool, readDetails: details.readDetails });
        closers.push(() => storage.close());
        return storage;
      },
      identity: { dataDir: config.dataDir, databasePool: pool },
      lookups: () => (lookups ??= new PostgresLookupStore(pool, describeDatabaseUrl(url), { ownsPool: false })),
      close: closeAll,
    };
  } catch (error) {
    await closeAll().catch(() => {});
    throw error;
  }
}

function closeOnce(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

function onceClosed(storage: SearchStorage): SearchStorage {
  return { ...storage, close: closeOnce(() => storage.close()) };
}
