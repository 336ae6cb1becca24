// The identity provider's state in PostgreSQL: oidc-provider's adapter contract (as the SQLite
// adapter keeps it) and one signing key set for every instance, even when they start together.
import { describe, expect, it, type TestContext } from 'vitest';
import { loadOrCreateIdentityKeysIn, openOidcPostgresStore } from '../../../server/identity/postgresState.ts';
import { openPostgresBreachStore } from '../../../server/store/postgres/PostgresBreachStore.ts';
import { createPool } from '../../../server/store/postgres/pool.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';

const postgres = usePrivatePostgres();

/** A migrated database (the breach store's migrations create the identity tables) and a pool on it. */
async function migratedPool(ctx: TestContext) {
  const server = postgres.server();
  if (!server) return ctx.skip('PostgreSQL could not start (see the message above)');
  const url = await server.createDatabase();
  await (await openPostgresBreachStore({ url })).close();
  const pool = createPool({ url, max: 4, onIdleError: () => {} });
  ctx.onTestFinished(() => pool.end());
  return pool;
}

describe('oidc-provider adapter on PostgreSQL', () => {
  it('stores, finds by id, uid and user code, consumes, destroys and revokes by grant', async (ctx) => {
    const pool = await migratedPool(ctx);
    const store = openOidcPostgresStore(pool);
    ctx.onTestFinished(() => store.close());
    const tokens = store.adapterFactory('RefreshToken');
    const sessions = store.adapterFactory('Session');
    await tokens.upsert('t1', { accountId: 'alice', grantId: 'g1' }, 60);
    await tokens.upsert('t2', { accountId: 'alice', grantId: 'g2' }, 60);
    await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' }, 60);
    await store.adapterFactory('DeviceCode').upsert('d1', { userCode: 'ABCD' }, 60);
    expect(await tokens.find('t1')).toEqual({ accountId: 'alice', grantId: 'g1' });
    expect(await sessions.find('t1')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'alice' });
    expect(await store.adapterFactory('DeviceCode').findByUserCode('ABCD')).toEqual({ userCode: 'ABCD' });
    await tokens.consume('t2');
    expect(await tokens.find('t2')).toMatchObject({ accountId: 'alice', consumed: expect.any(Number) });
    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('t1')).toBeUndefined();
    await sessions.destroy('s1');
    expect(await sessions.findByUid('u1')).toBeUndefined();
  });

  it('never returns an expired row, and purges it', async (ctx) => {
    const pool = await migratedPool(ctx);
    const store = openOidcPostgresStore(pool);
    ctx.onTestFinished(() => store.close());
    const codes = store.adapterFactory('AuthorizationCode');
    await codes.upsert('old', { accountId: 'alice' }, 60);
    await codes.upsert('forever', { accountId: 'alice' });
    await pool.query("UPDATE oidc_models SET expires_at = now() - interval '1 second' WHERE id = 'old'");
    expect(await codes.find('old')).toBeUndefined();
    expect(await store.purgeExpiredAsync()).toBe(1);
    expect(await codes.find('forever')).toEqual({ accountId: 'alice' });
  });
});

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
