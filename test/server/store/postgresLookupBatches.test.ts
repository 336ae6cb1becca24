// PostgreSQL shares one lookup queue among instances and a million addresses: a new breach in the
// catalog makes them due again in batches, each its own transaction, never all under one (issue 39,
// `npm run bench:scale`). SQLite keeps one person's queue in one transaction, so this is
// PostgreSQL's alone; the contract both follow is test/server/store/lookupStore.test.ts.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migratePostgresAt } from '../../support/storeOpeners.ts';
import { openPostgresLookupStore } from '../../support/storeOpeners.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { eventually } from '../../support/waitFor.ts';

const postgres = usePrivatePostgres();
const T = 1_772_442_000_000;

describe('addresses made due again on PostgreSQL', () => {
  it('in batches: a lock on one address holds back its batch only, and every address ends due', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip('PostgreSQL could not start (see the message above)');
    const databaseUrl = await server.createDatabase();
    await migratePostgresAt(databaseUrl);
    const store = openPostgresLookupStore({ url: databaseUrl });
    const reader = new pg.Client({ connectionString: databaseUrl });
    const holder = new pg.Client({ connectionString: databaseUrl });
    await reader.connect();
    await holder.connect();
    const count = 12_000;
    try {
      await reader.query(
        `INSERT INTO address_checks (email, domain, added_at, seen_at, checked_at, due_at, via_domain)
         SELECT 'a' || lpad(i::text, 5, '0') || '@x.example', 'x.example', $1::bigint, $1::bigint, $1::bigint, $1::bigint + 1000000, false FROM generate_series(0, $2::int - 1) AS i`,
        [T, count],
      );
      // Another writer (a lookup's answer) holds the last address's row.
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM address_checks WHERE email = 'a11999@x.example' FOR UPDATE");
      const making = store.dueAgainIfCheckedBefore(T + 5, T + 6);
      const dueAt = async (email: string) => Number((await reader.query<{ due_at: string }>('SELECT due_at FROM address_checks WHERE email = $1', [email])).rows[0]!.due_at);
      // The first batch is committed, for every reader, while the last one still waits for the lock.
      await eventually('the first address to be due while the last one is locked', async () => (await dueAt('a00000@x.example')) === T + 6);
      expect(await dueAt('a11999@x.example')).toBe(T + 1_000_000);
      await holder.query('ROLLBACK');
      expect(await making).toBe(count);
      const { rows } = await reader.query<{ n: string }>('SELECT count(*) AS n FROM address_checks WHERE due_at = $1', [T + 6]);
      expect(Number(rows[0]!.n)).toBe(count);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
      await reader.end();
      await store.close();
    }
  });
});
