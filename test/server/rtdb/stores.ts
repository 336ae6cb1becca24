// The realtime database's two stores for parameterised tests: SQLite in a temporary folder, and
// PostgreSQL on the file's private server (test/support/postgres.ts: skipped loudly outside CI
// when it cannot start, failing in CI).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openPostgresRtdbStoreAt, migratePostgresAt } from '../../support/storeOpeners.ts';
import type { RtdbStore } from '../../../server/rtdb/RtdbStore.ts';
import { SqliteRtdbStore } from '../../../server/rtdb/SqliteRtdbStore.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';

export type StoreKind = 'sqlite' | 'postgres';
export const STORE_KINDS: readonly StoreKind[] = ['sqlite', 'postgres'];

export interface StoreFactory {
  /**
   * A place for one database: `open()` opens a store on it; on PostgreSQL each call is another
   * instance sharing it. SQLite serves one instance (better-sqlite3 is synchronous: a second
   * connection in the same process would wait on the first's open transaction), so there every
   * call answers the same store. Undefined when PostgreSQL is unavailable.
   */
  place(kind: StoreKind): Promise<{ open(): Promise<RtdbStore>; databaseUrl: string | undefined; dataDir: string } | undefined>;
}

export function useRtdbStores(): StoreFactory & { postgres: ReturnType<typeof usePrivatePostgres> } {
  const postgres = usePrivatePostgres();
  const dirs: string[] = [];
  const opened: RtdbStore[] = [];
  afterAll(async () => {
    for (const store of opened) await store.close().catch(() => {});
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    postgres,
    async place(kind) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'rtdb-store-'));
      dirs.push(dataDir);
      if (kind === 'sqlite') {
        let store: SqliteRtdbStore | undefined;
        return {
          dataDir,
          databaseUrl: undefined,
          open: async () => {
            if (!store) opened.push((store = new SqliteRtdbStore(path.join(dataDir, 'rtdb.db'))));
            return store;
          },
        };
      }
      const server = postgres.server();
      if (!server) return undefined;
      const databaseUrl = await server.createDatabase();
      await migratePostgresAt(databaseUrl);
      return {
        dataDir,
        databaseUrl,
        open: async () => {
          const store = await openPostgresRtdbStoreAt(databaseUrl);
          opened.push(store);
          return store;
        },
      };
    },
  };
}
