// How many PostgreSQL connections instances of the service hold (issue 27, "one storage seam"):
// each instance opens its storage once (server/openStorage.ts), ONE pool of
// `--database-pool-size` connections plus the connections that listen for other instances'
// notices. Before, the breach store, the realtime database, the search interface and the identity
// provider each made a pool of their own (~30 connections an instance at the default size), so
// four instances used up PostgreSQL's default max_connections of 100.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';

const POOL_SIZE = 4;
/** Listening connections an instance may hold beside its pool: the realtime database's notices and, with `notify`, the breach store's. */
const LISTENERS = 2;
const BURST = 3 * POOL_SIZE;

const postgres = usePrivatePostgres();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Connections to `url`'s database other than the counting one, whatever opened them. */
async function connectionsTo(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** Starts `count` instances on one new database and keeps every store of each busy at once. */
async function busyInstances(count: number, invalidation: 'check' | 'notify'): Promise<{ url: string; instances: RunningService[] }> {
  const url = await postgres.server()!.createDatabase();
  const instances: RunningService[] = [];
  for (let index = 0; index < count; index++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'connection-budget-'));
    dirs.push(dataDir);
    instances.push(await startService({ port: 0, dataDir, logLevel: 'silent', demo: true, databaseUrl: url, databasePoolSize: POOL_SIZE, databaseInvalidation: invalidation }));
  }
  await Promise.all(
    instances.map(async (running, index) => {
      const token = await running.identity!.mintAccessToken({ sub: `person-${index}`, email: `person-${index}@example.com` });
      const headers = { authorization: `Bearer ${token}` };
      expect((await fetch(`${running.apiBaseUrl}/user`, { method: 'POST', headers })).status).toBe(201);
      // Every store at once, more requests than a pool holds: breaches, search, realtime database, identity.
      const answers = await Promise.all(
        Array.from({ length: BURST }, async (_, n) => {
          switch (n % 4) {
            case 0:
              return (await fetch(`${running.apiBaseUrl}/user/breaches`, { headers })).status;
            case 1:
              await running.search.index.search({ query: 'adobe', maxResults: 5 });
              return 200;
            case 2:
              await running.rtdb.get(['catalog', 'breaches']);
              return 200;
            default:
              return (await running.identity!.isGrantLive(`no-such-grant-${n}`)) ? 500 : 200;
          }
        }),
      );
      expect(answers.every((status) => status === 200)).toBe(true);
    }),
  );
  return { url, instances };
}

describe('PostgreSQL connections per instance', () => {
  for (const invalidation of ['check', 'notify'] as const) {
    it(`stays within one pool and its listeners, with 1, 2 and 4 instances busy (${invalidation})`, async (context) => {
      if (!postgres.server()) return context.skip();
      const counts: Record<number, number> = {};
      for (const count of [1, 2, 4]) {
        const { url, instances } = await busyInstances(count, invalidation);
        try {
          counts[count] = await connectionsTo(url);
        } finally {
          for (const running of instances) await running.close();
        }
        expect(counts[count], `${count} instance(s)`).toBeLessThanOrEqual(count * (POOL_SIZE + LISTENERS));
        // Closing an instance closes its pool: nothing is left behind (a server process ends a
        // moment after its client said goodbye, so the count is allowed that moment).
        await expect.poll(() => connectionsTo(url), { timeout: 5000, interval: 100 }).toBe(0);
      }
      console.info(`PostgreSQL connections (${invalidation}, pool size ${POOL_SIZE}) by instances: ${JSON.stringify(counts)}`);
    }, 120_000);
  }
});
