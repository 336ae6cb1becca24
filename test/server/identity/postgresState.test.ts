// The identity provider's state in PostgreSQL: one signing key set for every instance, even when
// they start together. oidc-provider's adapter contract, which the SQLite adapter keeps alike, is
// in oidcAdapter.contract.test.ts, run on both.
import { describe, expect, it, type TestContext } from 'vitest';
import { loadOrCreateIdentityKeysIn } from '../../../server/identity/postgresState.ts';
import { migratePostgresAt } from '../../support/storeOpeners.ts';
import { createPool } from '../../../server/storage/pool.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';

const postgres = usePrivatePostgres();

/** A migrated database (the breach store's migrations create the identity tables) and a pool on it. */
async function migratedPool(ctx: TestContext) {
  const server = postgres.server();
  if (!server) return ctx.skip('PostgreSQL could not start (see the message above)');
  const url = await server.createDatabase();
  await migratePostgresAt(url);
  const pool = createPool({ url, max: 4, onIdleError: () => {} });
  ctx.onTestFinished(() => pool.end());
  return pool;
}

describe('signing keys on PostgreSQL', () => {
  it('gives instances starting together one key set, and keeps it across starts', async (ctx) => {
    const pool = await migratedPool(ctx);
    const [a, b, c] = await Promise.all([loadOrCreateIdentityKeysIn(pool), loadOrCreateIdentityKeysIn(pool), loadOrCreateIdentityKeysIn(pool)]);
    expect(b.signingKey.kid).toBe(a.signingKey.kid);
    expect(c.signingKey).toEqual(a.signingKey);
    expect(b.cookieKeys).toEqual(a.cookieKeys);
    expect((await loadOrCreateIdentityKeysIn(pool)).signingKey.kid).toBe(a.signingKey.kid);
  });

  it('refuses an incomplete stored key set instead of silently making a new one', async (ctx) => {
    const pool = await migratedPool(ctx);
    await pool.query(`INSERT INTO identity_keys (name, jwks) VALUES ('current', '{"keys": [], "cookieKeys": []}')`);
    await expect(loadOrCreateIdentityKeysIn(pool)).rejects.toThrow(/identity key set in PostgreSQL .* is incomplete/);
  });
});
