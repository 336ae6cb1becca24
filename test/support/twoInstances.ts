// Two instances of the reference service sharing one database of a private PostgreSQL, as behind
// a load balancer (development surface on). The first instance's origin is the shared issuer.
// Where PostgreSQL cannot start outside CI, the file's tests are skipped (test/support/postgres.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startService, type RunningService } from '../../server/app.ts';
import type { PrivatePostgres } from '../../tools/privatePostgres.ts';
import { usePrivatePostgres } from './postgres.ts';

export interface TwoInstances {
  /** The first instance; its origin is the issuer both sign tokens as. */
  readonly a: RunningService;
  readonly b: RunningService;
  /** The PostgreSQL server they share (a test may stop and restart it). */
  readonly server: PrivatePostgres;
}

export function useTwoInstances(folderPrefix: string): TwoInstances {
  const postgres = usePrivatePostgres();
  let a: RunningService | undefined;
  let b: RunningService | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    const server = postgres.server();
    if (!server) return;
    dataDir = mkdtempSync(path.join(tmpdir(), folderPrefix));
    const databaseUrl = await server.createDatabase();
    a = await startService({ port: 0, dataDir: path.join(dataDir, 'a'), dev: true, logLevel: 'silent', databaseUrl });
    // Behind one address in production; here the first instance's origin is the shared issuer.
    b = await startService({ port: 0, dataDir: path.join(dataDir, 'b'), dev: true, logLevel: 'silent', databaseUrl, identityOrigin: a.url });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach((ctx) => {
    if (!a || !b) ctx.skip('PostgreSQL could not start (see the message above)');
  });
  // Read only by tests, which run after `beforeAll` and are skipped without the instances.
  return {
    get a() {
      return a!;
    },
    get b() {
      return b!;
    },
    get server() {
      return postgres.server()!;
    },
  };
}
