// Stores opened on their own, for the suites that test one store without starting the service.
// The service opens every store through server/openStorage.ts, on ONE pool it migrates and ends;
// these openers make that pool themselves, one per store, and end it when the store closes.
import path from 'node:path';
import type pg from 'pg';
import { openPostgresRtdbStore, type PostgresRtdbStore } from '../../server/rtdb/PostgresRtdbStore.ts';
import { CatalogSearchIndex, type CatalogReader } from '../../server/search/CatalogSearchIndex.ts';
import { API_TOKENS_FILE, type SearchCatalog, type SearchStorage } from '../../server/search/index.ts';
import { openPostgresSearchStorage } from '../../server/search/postgresStorage.ts';
import { SqliteApiTokenStore } from '../../server/search/SqliteApiTokenStore.ts';
import { migratePostgres, type PostgresMigrationRun } from '../../server/storage/postgresMigrate.ts';
import { createPool, describeDatabaseUrl, unreachable } from '../../server/storage/pool.ts';
import { PostgresLookupStore } from '../../server/hibp/PostgresLookupStore.ts';
import { openPostgresBreachStore, type PostgresStoreOptions } from '../../server/breaches/postgres/openPostgresBreachStore.ts';
import type { PostgresBreachStore } from '../../server/breaches/postgres/PostgresBreachStore.ts';

/**
 * Migrates the database at `url` over a connection of its own, as `openStorage` does on the
 * instance's pool, for the suites that open a store without it. An unreachable server fails with
 * a message naming its host and port (never the password).
 */
export async function migratePostgresAt(url: string): Promise<PostgresMigrationRun> {
  const pool = createPool({ url, max: 1, onIdleError: () => {} });
  try {
    return await migratePostgres(pool);
  } catch (error) {
    throw unreachable(url, error);
  } finally {
    await pool.end();
  }
}

/** A pool of a store's own, as the service's one pool but small: a suite holds few connections at once. */
export function ownPool(url: string, max = 4): pg.Pool {
  return createPool({ url, max, onIdleError: () => {} });
}

/** The realtime database's PostgreSQL store on a pool of its own (the database must be migrated). */
export async function openPostgresRtdbStoreAt(url: string): Promise<PostgresRtdbStore> {
  const pool = ownPool(url);
  // The store ends the pool when it closes, and when it fails to open.
  return openPostgresRtdbStore({ url, pool, endPool: () => pool.end() });
}

export interface SearchStorageOptions {
  /** The SQLite store's catalog; used when there is no database URL. */
  catalog: SearchCatalog | undefined;
  /** PostgreSQL shared by instances: tokens and the full-text index live there. */
  databaseUrl: string | undefined;
  /** Connections of the search storage's own pool (PostgreSQL only). */
  poolSize?: number;
  dataDir: string;
  /** The details feed (titles, descriptions), by breach id. */
  readDetails: CatalogReader['readDetails'];
  /** One breach's details, so that a change to one breach re-reads only its own (SQLite's index). */
  readDetailsOf?: CatalogReader['readDetailsOf'];
}

/**
 * The search interface's storage opened on its own, for its contract suite and its benchmark:
 * with a database URL, tokens and index in PostgreSQL (migrated first, as `openStorage` would;
 * every instance sees every token and the same index); otherwise the token file in the data
 * folder and SQLite FTS5 in memory over the SQLite store.
 */
export async function openSearchStorage(options: SearchStorageOptions): Promise<SearchStorage> {
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    await migratePostgresAt(url);
    const pool = ownPool(url, options.poolSize);
    try {
      const storage = await openPostgresSearchStorage({ url, pool, readDetails: options.readDetails });
      let closing: Promise<void> | undefined;
      return { ...storage, close: () => (closing ??= storage.close().then(() => pool.end())) };
    } catch (error) {
      await pool.end();
      throw error;
    }
  }
  const catalog = options.catalog;
  if (!catalog) throw new Error('the search interface needs the SQLite store when no database URL is given');
  const tokens = new SqliteApiTokenStore(path.join(options.dataDir, API_TOKENS_FILE));
  const index = new CatalogSearchIndex({
    catalogRevision: () => catalog.catalogRevision(),
    listBreaches: () => catalog.listBreaches(),
    readDetails: options.readDetails,
    ...(catalog.catalogChangesSince && catalog.getBreach && options.readDetailsOf
      ? { catalogChangesSince: catalog.catalogChangesSince.bind(catalog), getBreach: catalog.getBreach.bind(catalog), readDetailsOf: options.readDetailsOf }
      : {}),
  });
  return {
    tokens,
    index,
    async close() {
      await index.close();
      await tokens.close();
    },
  };
}

/** The HIBP lookup queue on a pool of its own (the database must be migrated); closing it ends the pool. */
export function openPostgresLookupStore(options: { url: string }): PostgresLookupStore {
  // Lookups are few (at most the key's Rpm a minute): two connections serve them and the reads of the queue.
  return new PostgresLookupStore(ownPool(options.url, 2), describeDatabaseUrl(options.url), { ownsPool: true });
}

/** The breach store on a pool of its own (the database must be migrated); closing it ends the pool. */
export async function openPostgresBreachStoreAt(options: Omit<PostgresStoreOptions, 'pool' | 'endPool'> & { poolSize?: number }): Promise<PostgresBreachStore> {
  const { poolSize = 10, ...rest } = options;
  const pool = createPool({ url: options.url, max: poolSize, onIdleError: options.onConnectionError ?? (() => {}) });
  return openPostgresBreachStore({ ...rest, pool, endPool: () => pool.end() });
}
