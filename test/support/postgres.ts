// One private PostgreSQL server per test file (tools/privatePostgres.ts). Where it cannot start,
// the file's PostgreSQL tests are skipped with a loud message; in CI that is a failure.
import { afterAll, beforeAll } from 'vitest';
import { startPrivatePostgres, type PrivatePostgres } from '../../tools/privatePostgres.ts';

export interface PostgresForTests {
  /** The server, once `beforeAll` ran; undefined when it could not start outside CI. */
  server(): PrivatePostgres | undefined;
}

export function usePrivatePostgres(): PostgresForTests {
  let server: PrivatePostgres | undefined;
  beforeAll(async () => {
    try {
      server = await startPrivatePostgres();
    } catch (error) {
      if (process.env.CI) throw error;
      console.warn(`\n!!! SKIPPED PostgreSQL tests: ${(error as Error).message}\n!!! Install PostgreSQL (apt-get install postgresql) to run them.\n`);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  return { server: () => server };
}
