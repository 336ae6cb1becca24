import pg from 'pg';
import { StoreUnavailableError } from './errors.ts';

/** Waiting longer for a connection than this answers 503 rather than holding the request. */
const CONNECT_TIMEOUT_MS = 5000;
/** Idle connections are closed after this, so a quiet instance holds few. */
const IDLE_TIMEOUT_MS = 30_000;
/** No statement of the service needs longer; a stuck one frees its connection. */
const STATEMENT_TIMEOUT_MS = 15_000;

/** `host:port/database` of a PostgreSQL URL: what messages name (never the user or password). */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return '(an unparsable database URL)';
  }
}

export interface PoolOptions {
  url: string;
  max: number;
  /** Told about errors of idle connections (the server went away); without a listener they would crash the process. */
  onIdleError: (error: Error) => void;
}

export function createPool({ url, max, onIdleError }: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'breach-alert-service',
  });
  pool.on('error', onIdleError);
  return pool;
}

/** SQLSTATE classes and codes that mean "the database cannot answer now", not "this query is wrong". */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof StoreUnavailableError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  // pg's own words for a connection lost mid-query or a pool wait that ran out; they carry no code.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(error.message);
}

/** `error`, or, when the database at `url` could not be reached, one that says where (never the password). */
export function unreachable(url: string, error: unknown): unknown {
  return isUnavailable(error) ? new Error(`cannot reach the PostgreSQL database at ${describeDatabaseUrl(url)}: ${(error as Error).message}`, { cause: error }) : error;
}

/** Runs `work`, turning the database being away into {@link StoreUnavailableError}. */
export async function guarded<T>(where: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUnavailable(error) && !(error instanceof StoreUnavailableError)) throw new StoreUnavailableError(where, error as Error);
    throw error;
  }
}

/** Serialization failures and deadlocks: the transaction lost a race and is safe to run again. */
const RETRYABLE = new Set(['40001', '40P01']);

export interface TransactionOptions {
  /** Without one, the server's default (READ COMMITTED). */
  isolation?: 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';
  /** How many times a transaction that lost a race runs in all; 1 never runs it again. */
  attempts: number;
}

/**
 * One transaction on a connection of `pool`: `work`, then COMMIT (or ROLLBACK where `finish`
 * says so, e.g. nothing was written); ROLLBACK when `work` throws. A transaction that lost a race
 * runs again after a short random pause (so `work` must be repeatable); a connection that failed
 * is discarded rather than handed to the next request; the database being away is
 * {@link StoreUnavailableError} naming `where`.
 */
export async function transaction<T>(
  pool: pg.Pool,
  where: string,
  options: TransactionOptions,
  work: (client: pg.PoolClient) => Promise<T>,
  finish: (result: T) => 'COMMIT' | 'ROLLBACK' = () => 'COMMIT',
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await guarded(where, () => pool.connect());
    let broken = false;
    // A connection lost while checked out is reported here (the pool listens only to idle
    // ones); the query in flight fails with it and the connection is discarded below.
    const onLost = () => (broken = true);
    client.on('error', onLost);
    try {
      await client.query(options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN');
      const result = await work(client);
      await client.query(finish(result));
      return result;
    } catch (error) {
      broken ||= isUnavailable(error);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && RETRYABLE.has(code) && attempt < options.attempts) {
        // Random and growing, so the losers of one race do not meet again in the next.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 2 ** attempt)));
        continue;
      }
      if (broken) throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError(where, error as Error);
      throw error;
    } finally {
      client.off('error', onLost);
      client.release(broken);
    }
  }
}
