import type pg from 'pg';
import { requireCurrentSchema } from '../storage/postgresMigrate.ts';
import { describeDatabaseUrl, unreachable } from '../storage/pool.ts';
import { PostgresApiTokenStore } from './PostgresApiTokenStore.ts';
import { PostgresSearchIndex } from './PostgresSearchIndex.ts';
import type { DetailsReader } from './SearchIndex.ts';

/**
 * The search interface's tokens and index in the shared PostgreSQL database, on the instance's
 * one pool (server/openStorage.ts), which closing leaves open. The database must be migrated already: its tables are migrations 60 on of the one list
 * (server/storage/migrations/), which `openStorage` runs before any store opens.
 */
export async function openPostgresSearchStorage({ url, pool, readDetails }: { url: string; pool: pg.Pool; readDetails: DetailsReader }) {
  const where = describeDatabaseUrl(url);
  try {
    await requireCurrentSchema(pool);
  } catch (error) {
    throw unreachable(url, error);
  }
  return {
    tokens: new PostgresApiTokenStore(pool, where),
    index: new PostgresSearchIndex(pool, where, readDetails),
    // The tokens and the index hold nothing of their own: the pool ends with the storage.
    async close() {},
  };
}
