import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ChangeListener } from './changeNotices.ts';
import { requireCurrentSchema } from '../../storage/postgresMigrate.ts';
import { PostgresBreachStore } from './PostgresBreachStore.ts';
import { describeDatabaseUrl, unreachable } from '../../storage/pool.ts';

export interface PostgresStoreOptions {
  url: string;
  /** The instance's one pool (server/openStorage.ts), shared with its other stores. */
  pool: pg.Pool;
  /**
   * Ends the pool when the store closes or fails to open: given only where the pool is the
   * store's own (test/support/storeOpeners.ts); the instance's pool is ended by its opener.
   */
  endPool?: () => Promise<void>;
  /** Told when an idle connection fails (the server went away); the next query reconnects. */
  onConnectionError?: (error: Error) => void;
  /**
   * How cached answers learn of other instances' writes: `check` reads the revisions once per
   * request (never stale; the default), `notify` listens for their notices (no query; stale for
   * the few milliseconds a notice takes).
   */
  invalidation?: 'check' | 'notify';
}

/**
 * Connects to PostgreSQL at `url` and returns the store, on a database already migrated
 * (`openStorage` migrates once for every store; see server/storage/postgresMigrate.ts). An
 * unreachable server fails with a message naming its host and port (never the password).
 */
export async function openPostgresBreachStore(options: PostgresStoreOptions): Promise<PostgresBreachStore> {
  const where = describeDatabaseUrl(options.url);
  const pool = options.pool;
  const endPool = options.endPool ?? (async () => {});
  try {
    await requireCurrentSchema(pool);
  } catch (error) {
    await endPool().catch(() => {});
    throw unreachable(options.url, error);
  }
  const id = randomUUID();
  let listener: ChangeListener | undefined;
  if (options.invalidation === 'notify') {
    listener = new ChangeListener(options.url, id, options.onConnectionError ?? (() => {}));
    await listener.start().catch(async (error: unknown) => {
      await endPool().catch(() => {});
      throw error;
    });
  }
  return new PostgresBreachStore(pool, where, id, listener, endPool);
}
