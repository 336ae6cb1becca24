import pg from 'pg';
import { StoreUnavailableError } from '../errors.ts';

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

/** Runs `work`, turning the database being away into {@link StoreUnavailableError}. */
export async function guarded<T>(where: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUnavailable(error) && !(error instanceof StoreUnavailableError)) throw new StoreUnavailableError(where, error as Error);
    throw error;
  }
}
