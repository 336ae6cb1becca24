import type pg from 'pg';
import { requireCurrentSchema } from '../storage/postgresMigrate.ts';
import { createPool, describeDatabaseUrl, unreachable } from '../storage/pool.ts';
import { PostgresApiTokenStore } from './PostgresApiTokenStore.ts';
import { PostgresSearchIndex } from './PostgresSearchIndex.ts';
import type { DetailsReader } from './SearchIndex.ts';

/** As the breach store's default (`--database-pool-size`): a search request holds one connection at a time. */
const DEFAULT_POOL_SIZE = 10;

/**
 * The search interface's tokens and index in the shared PostgreSQL database, over a pool of its
 * own (so a burst of searches never waits behind the breach API's connections, nor the other way
 * round). The database must be migrated already: its tables are migrations 60 on of the one list
 * (server/storage/migrations/), which `openStorage` runs before any store opens.
 */
export async function openPostgresSearchStorage({
  url,
  poolSize = DEFAULT_POOL_SIZE,
  pool: shared,
  readDetails,
  onConnectionError = () => {},
}: {
  url: string;
  poolSize?: number | undefined;
  /** The instance's one pool (server/openStorage.ts): used instead of its own, and left open on close. */
  pool?: pg.Pool | undefined;
  readDetails: DetailsReader;
  onConnectionError?: ((error: Error) => void) | undefined;
}) {
  const where = describeDatabaseUrl(url);
  const pool = shared ?? createPool({ url, max: poolSize, onIdleError: onConnectionError });
  const endPool = shared ? async () => {} : () => pool.end();
  try {
    await requireCurrentSchema(pool);
  } catch (error) {
    await endPool().catch(() => {});
    throw unreachable(url, error);
  }
  let closed = false;
  return {
    tokens: new PostgresApiTokenStore(pool, where),
    index: new PostgresSearchIndex(pool, where, readDetails),
    async close() {
      if (closed) return;
      closed = true;
      await endPool();
    },
  };
}
