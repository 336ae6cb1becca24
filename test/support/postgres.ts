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

export type StoreName = 'sqlite' | 'postgres';

export interface ServiceStore {
  name: StoreName;
  /** False when PostgreSQL could not start outside CI (the message above says why). */
  available: boolean;
  /** What `startService` needs to use this store: nothing for SQLite, a new database for PostgreSQL. */
  serviceOptions(): Promise<{ databaseUrl?: string }>;
}

/**
 * Both stores a service can run on, for tests that must pass on each: SQLite, and PostgreSQL on
 * a private server started now (call at the top of a test file, with `await`, so `describe`
 * blocks can be made per store). Outside CI a PostgreSQL that cannot start leaves its store
 * unavailable, loudly; in CI it fails the file.
 */
export async function serviceStores(): Promise<ServiceStore[]> {
  let server: PrivatePostgres | undefined;
  try {
    server = await startPrivatePostgres();
  } catch (error) {
    if (process.env.CI) throw error;
    console.warn(`\n!!! SKIPPED PostgreSQL tests: ${(error as Error).message}\n!!! Install PostgreSQL (apt-get install postgresql) to run them.\n`);
  }
  afterAll(async () => {
    await server?.close();
  });
  return [
    { name: 'sqlite', available: true, serviceOptions: async () => ({}) },
    { name: 'postgres', available: server !== undefined, serviceOptions: async () => ({ databaseUrl: await server!.createDatabase() }) },
  ];
}
