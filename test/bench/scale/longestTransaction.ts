// How long the longest transaction of a piece of work stayed open, from PostgreSQL's own view
// (pg_stat_activity, sampled every few milliseconds on a connection of its own): a transaction
// holds the locks it took until it ends, so this bounds the longest lock hold of the work, whoever
// ran it (the bench's stores or the service's instances). Autovacuum is not counted: it takes no
// lock a reader or writer of rows waits for.
import pg from 'pg';

const SAMPLE_MS = 10;

export interface TransactionWatch {
  /** Stops sampling; the longest transaction age seen (ms) and how many samples were taken. */
  stop(): Promise<{ longestMs: number; samples: number; longestQuery: string }>;
}

/** Starts sampling the transactions of `databaseUrl`'s database other than its own. */
export async function watchTransactions(databaseUrl: string): Promise<TransactionWatch> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let longestMs = 0;
  let longestQuery = '';
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ ms: number; query: string; state: string }>(
        `SELECT (extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS ms, query, state FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND xact_start IS NOT NULL AND state <> 'idle'
         ORDER BY xact_start LIMIT 1`,
      );
      const oldest = rows[0];
      if (oldest && oldest.ms > longestMs) {
        longestMs = oldest.ms;
        // Which transaction it was: its statement at the time (or the last one, while idle in it).
        longestQuery = `${oldest.state}: ${oldest.query.replace(/\s+/g, ' ').slice(0, 120)}`;
      }
      samples++;
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      return { longestMs, samples, longestQuery };
    },
  };
}

/** Runs `work` while watching; its duration and the longest transaction seen meanwhile. */
export async function timed<T>(databaseUrl: string, work: () => Promise<T>): Promise<{ result: T; ms: number; longestTransactionMs: number; longestQuery: string }> {
  const watch = await watchTransactions(databaseUrl);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    const { longestMs, longestQuery } = await watch.stop();
    return { result, ms, longestTransactionMs: longestMs, longestQuery };
  } catch (error) {
    await watch.stop();
    throw error;
  }
}

/**
 * Waits until no transaction of the database has been open for `quietMs` (at most `timeoutMs`):
 * what a step set off in the instances (a search index rebuilt after a catalog replacement) is
 * over before the next step is measured, so each step's longest transaction is its own.
 */
export async function settle(databaseUrl: string, quietMs = 1000, timeoutMs = 120_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const until = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() - quietSince < quietMs) {
      if (Date.now() > until) throw new Error(`the database did not settle within ${timeoutMs / 1000} s`);
      const { rows } = await client.query<{ busy: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND xact_start IS NOT NULL AND state <> 'idle') AS busy`,
      );
      if (rows[0]?.busy) quietSince = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

/** Waits (at most `timeoutMs`) until no autovacuum worker runs on the database: reads are measured on a machine not also vacuuming. */
export async function autovacuumDone(databaseUrl: string, timeoutMs = 300_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ busy: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'autovacuum worker') AS busy`);
      if (!rows[0]?.busy || Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await client.end();
  }
}
