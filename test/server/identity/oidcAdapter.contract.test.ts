// oidc-provider's storage contract (grants, tokens, sessions, codes), one suite run on the SQLite
// adapter (server/identity/sqliteAdapter.ts) and the PostgreSQL one (postgresState.ts) alike:
// payloads per model, lookups by id, uid and user code, consumption, destruction, revocation by
// grant within a model, expiry enforced on read and purged, another instance (or a restart)
// finding what one stored, and ids (tokens, codes, session cookies) kept only as hashes, rows of
// the previous version hashed by the migration. Expiry is moved in the database rather than by
// waiting: each dialect's `age` takes seconds off every expiry, as time passing would. A payload
// found by its id carries that id as `jti`, as oidc-provider writes every payload.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it, type TestContext } from 'vitest';
import type { AdapterFactory } from 'oidc-provider';
import { openOidcPostgresStore } from '../../../server/identity/postgresState.ts';
import { openOidcSqliteStore } from '../../../server/identity/sqliteAdapter.ts';
import { storedIdOf } from '../../../server/identity/storedIdentifiers.ts';
import { migratePostgresAt } from '../../support/storeOpeners.ts';
import { createPool } from '../../../server/storage/pool.ts';
import { DIALECTS, useStoreDialects, type Dialect, type DialectPlace } from '../../support/storeDialects.ts';

// The breach store's PostgreSQL migrations create the identity tables.
const dialects = useStoreDialects({ preparePostgres: async (url) => void (await migratePostgresAt(url)) });

interface Adapters {
  adapterFactory: AdapterFactory;
  /** Deletes expired rows; how many. */
  purge(): Promise<number>;
}

async function open(ctx: TestContext, dialect: Dialect): Promise<{ store: Adapters; another(): Promise<Adapters>; age(seconds: number): Promise<void>; place: DialectPlace }> {
  const place = (await dialects.place(dialect)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
  const instance = async (): Promise<Adapters> => {
    if (dialect === 'sqlite') {
      const store = openOidcSqliteStore(place.file);
      ctx.onTestFinished(() => store.close());
      return { adapterFactory: store.adapterFactory, purge: () => store.purgeExpired() };
    }
    const pool = createPool({ url: place.url, max: 2, onIdleError: () => {} });
    const store = openOidcPostgresStore(pool);
    ctx.onTestFinished(async () => {
      store.close();
      await pool.end();
    });
    return { adapterFactory: store.adapterFactory, purge: () => store.purgeExpired() };
  };
  const store = await instance();
  return {
    place,
    store,
    another: instance,
    age: (seconds) =>
      place.exec(
        dialect === 'sqlite'
          ? `UPDATE oidc_entities SET expires_at = expires_at - ${seconds} WHERE expires_at IS NOT NULL`
          : `UPDATE oidc_models SET expires_at = expires_at - make_interval(secs => ${seconds}) WHERE expires_at IS NOT NULL`,
      ),
  };
}

describe.each(DIALECTS)('the oidc-provider adapter contract on %s', (dialect) => {
  it('stores, finds and replaces payloads per model', async (ctx) => {
    const { store } = await open(ctx, dialect);
    const tokens = store.adapterFactory('RefreshToken');
    const codes = store.adapterFactory('AuthorizationCode');
    await tokens.upsert('id1', { accountId: 'alice', grantId: 'g1' }, 60);
    expect(await tokens.find('id1')).toEqual({ jti: 'id1', accountId: 'alice', grantId: 'g1' });
    expect(await codes.find('id1')).toBeUndefined();
    expect(await tokens.find('nope')).toBeUndefined();
    await tokens.upsert('id1', { accountId: 'bob' }, 60);
    expect(await tokens.find('id1')).toEqual({ jti: 'id1', accountId: 'bob' });
  });

  it('marks consumption without losing the payload; storing it again starts unconsumed', async (ctx) => {
    const { store } = await open(ctx, dialect);
    const codes = store.adapterFactory('AuthorizationCode');
    await codes.upsert('c1', { accountId: 'alice' }, 60);
    await codes.consume('c1');
    expect(await codes.find('c1')).toEqual({ jti: 'c1', accountId: 'alice', consumed: expect.any(Number) });
    const { consumed } = (await codes.find('c1')) as { consumed: number };
    expect(Math.abs(consumed - Date.now() / 1000)).toBeLessThan(60);
    await codes.upsert('c1', { accountId: 'alice' }, 60);
    expect(await codes.find('c1')).toEqual({ jti: 'c1', accountId: 'alice' });
  });

  it('finds by uid and by user code within the model; destroys', async (ctx) => {
    const { store } = await open(ctx, dialect);
    const sessions = store.adapterFactory('Session');
    const devices = store.adapterFactory('DeviceCode');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' }, 60);
    await devices.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: 'alice' });
    expect(await devices.findByUid('u1')).toBeUndefined();
    expect(await devices.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' });
    expect(await sessions.findByUserCode('ABCD-EFGH')).toBeUndefined();
    await devices.destroy('d1');
    expect(await devices.findByUserCode('ABCD-EFGH')).toBeUndefined();
    await sessions.destroy('s1');
    expect(await sessions.findByUid('u1')).toBeUndefined();
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('revokes everything of a grant within the model, and nothing else', async (ctx) => {
    const { store } = await open(ctx, dialect);
    const tokens = store.adapterFactory('RefreshToken');
    const accessTokens = store.adapterFactory('AccessToken');
    await tokens.upsert('r1', { grantId: 'g1' }, 60);
    await tokens.upsert('r2', { grantId: 'g1' }, 60);
    await tokens.upsert('r3', { grantId: 'g2' }, 60);
    await accessTokens.upsert('a1', { grantId: 'g1' }, 60);
    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('r1')).toBeUndefined();
    expect(await tokens.find('r2')).toBeUndefined();
    expect(await tokens.find('r3')).toEqual({ jti: 'r3', grantId: 'g2' });
    expect(await accessTokens.find('a1')).toEqual({ jti: 'a1', grantId: 'g1' });
  });

  it('never returns a row past its expiry, by any lookup, and purges exactly those', async (ctx) => {
    const { store, age } = await open(ctx, dialect);
    const sessions = store.adapterFactory('Session');
    const devices = store.adapterFactory('DeviceCode');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' }, 10);
    await sessions.upsert('s2', { uid: 'u2', accountId: 'bob' });
    await sessions.upsert('s3', { uid: 'u3', accountId: 'carol' }, 3600);
    await devices.upsert('d1', { userCode: 'WXYZ' }, 10);
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'alice' });
    await age(11);
    expect(await sessions.find('s1')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toBeUndefined();
    expect(await devices.findByUserCode('WXYZ')).toBeUndefined();
    expect(await sessions.findByUid('u2')).toMatchObject({ accountId: 'bob' });
    expect(await sessions.find('s3')).toMatchObject({ accountId: 'carol' });
    expect(await store.purge()).toBe(2);
    expect(await store.purge()).toBe(0);
    expect(await sessions.find('s3')).toMatchObject({ accountId: 'carol' });
  });

  it('lets another instance (or the next start) find what one stored, consumed or revoked', async (ctx) => {
    const { store, another } = await open(ctx, dialect);
    await store.adapterFactory('Grant').upsert('g1', { accountId: 'alice' }, 3600);
    await store.adapterFactory('AuthorizationCode').upsert('c1', { accountId: 'alice', grantId: 'g1' }, 60);
    await store.adapterFactory('AuthorizationCode').consume('c1');
    const other = await another();
    expect(await other.adapterFactory('Grant').find('g1')).toEqual({ jti: 'g1', accountId: 'alice' });
    expect(await other.adapterFactory('AuthorizationCode').find('c1')).toMatchObject({ consumed: expect.any(Number) });
    await other.adapterFactory('AuthorizationCode').revokeByGrantId('g1');
    expect(await store.adapterFactory('AuthorizationCode').find('c1')).toBeUndefined();
  });

  const table = dialect === 'sqlite' ? 'oidc_entities' : 'oidc_models';
  /** Every row as its columns' text, as anyone reading the table would see it. */
  const rawRows = async (place: DialectPlace) => JSON.stringify(await place.rows(`SELECT * FROM ${table}`));

  it('keeps ids only as hashes: neither the id nor jti in the row, an interaction without its session cookie or own id; found by the presented id', async (ctx) => {
    const { store, place } = await open(ctx, dialect);
    const refreshToken = 'rt_3Vq9xKp2LmN8wYz4AbCdEfGhIjKlMnOpQrStUvWxYz0';
    const sessionId = 'ses_Zx8Wv7Ut6Sr5Qp4On3Ml2Kj';
    const interactionId = 'int_Hg1Fe2Dc3Ba4Zy5Xw6Vu7';
    await store.adapterFactory('RefreshToken').upsert(refreshToken, { jti: refreshToken, grantId: 'g1', sessionUid: 'u1' }, 60);
    await store.adapterFactory('Session').upsert(sessionId, { jti: sessionId, uid: 'u1', accountId: 'alice' }, 60);
    await store
      .adapterFactory('Interaction')
      .upsert(interactionId, { jti: interactionId, returnTo: `http://127.0.0.1:1/oidc/auth/${interactionId}`, session: { accountId: 'alice', uid: 'u1', cookie: sessionId } }, 60);
    const raw = await rawRows(place);
    for (const secret of [refreshToken, sessionId, interactionId]) expect(raw).not.toContain(secret);
    expect(raw).toContain(storedIdOf(refreshToken));

    expect(await store.adapterFactory('RefreshToken').find(refreshToken)).toEqual({ jti: refreshToken, grantId: 'g1', sessionUid: 'u1' });
    expect(await store.adapterFactory('RefreshToken').find(storedIdOf(refreshToken))).toBeUndefined();
    expect(await store.adapterFactory('Session').findByUid('u1')).toEqual({ uid: 'u1', accountId: 'alice' });
    expect(await store.adapterFactory('Interaction').find(interactionId)).toEqual({
      jti: interactionId,
      returnTo: `http://127.0.0.1:1/oidc/auth/${interactionId}`,
      session: { accountId: 'alice', uid: 'u1' },
    });
    await store.adapterFactory('RefreshToken').consume(refreshToken);
    expect(await store.adapterFactory('RefreshToken').find(refreshToken)).toMatchObject({ consumed: expect.any(Number) });
    await store.adapterFactory('Session').destroy(sessionId);
    expect(await store.adapterFactory('Session').find(sessionId)).toBeUndefined();
  });

  it('hashes the rows the previous version stored in clear, which keep working; drops interactions under way', async (ctx) => {
    const { store, place } = await open(ctx, dialect);
    // The previous version's rows: the clear id in `id` and again as `jti`.
    const refreshToken = 'rt_old9xKp2LmN8wYz4AbCdEfGhIjKlMnOpQrStUvWxYz0';
    const sessionId = 'ses_old7Ut6Sr5Qp4On3Ml2Kj';
    const interactionId = 'int_old2Dc3Ba4Zy5Xw6Vu7';
    const rows: [string, string, Record<string, unknown>, string | null, string | null][] = [
      ['RefreshToken', refreshToken, { jti: refreshToken, accountId: 'alice', grantId: 'g1' }, 'g1', null],
      ['Session', sessionId, { jti: sessionId, uid: 'u1', accountId: 'alice' }, null, 'u1'],
      ['Interaction', interactionId, { jti: interactionId, session: { cookie: sessionId } }, null, null],
    ];
    const expiry = dialect === 'sqlite' ? String(Math.floor(Date.now() / 1000) + 3600) : "now() + interval '1 hour'";
    const inserts = rows
      .map(
        ([model, id, payload, grantId, uid]) =>
          `INSERT INTO ${table} (model, id, payload, grant_id, uid, expires_at) VALUES ('${model}', '${id}', '${JSON.stringify(payload)}', ${grantId ? `'${grantId}'` : 'NULL'}, ${uid ? `'${uid}'` : 'NULL'}, ${expiry});`,
      )
      .join('');
    let adapters = store.adapterFactory;
    if (dialect === 'sqlite') {
      // The file as the previous version left it; this version migrates it when it opens it.
      // (version 10 had no client column: migration 30 adds it)
      await place.exec(`PRAGMA user_version = 10; DROP INDEX oidc_entities_client; ALTER TABLE oidc_entities DROP COLUMN client_key; ALTER TABLE oidc_entities DROP COLUMN client_seq; ${inserts}`);
      const reopened = openOidcSqliteStore(place.file);
      ctx.onTestFinished(() => reopened.close());
      adapters = reopened.adapterFactory;
    } else {
      // The schema as version 80 left it: what later migrations made goes, and is made again.
      await place.exec(
        `DROP TABLE person_emails, verification_sends; ALTER TABLE oidc_models DROP COLUMN client_key, DROP COLUMN client_seq; DROP INDEX address_checks_fresh_order, address_checks_recheck_order, address_checks_next_due, address_checks_next_stealer_due, exposures_breach; UPDATE schema_version SET version = 80; ${inserts}`,
      );
      expect(await migratePostgresAt(place.url)).toMatchObject({ from: 80, applied: [90, 100, 110, 120, 130] });
    }
    expect(await adapters('RefreshToken').find(refreshToken)).toEqual({ jti: refreshToken, accountId: 'alice', grantId: 'g1' });
    expect(await adapters('Session').find(sessionId)).toEqual({ jti: sessionId, uid: 'u1', accountId: 'alice' });
    expect(await adapters('Session').findByUid('u1')).toEqual({ uid: 'u1', accountId: 'alice' });
    expect(await adapters('Interaction').find(interactionId)).toBeUndefined();
    const raw = await rawRows(place);
    for (const secret of [refreshToken, sessionId, interactionId]) expect(raw).not.toContain(secret);
    if (dialect === 'sqlite') {
      // Nor anywhere in the file or its log: the migration rewrote the file (VACUUM).
      const bytes = Buffer.concat([readFileSync(place.file), ...(existsSync(`${place.file}-wal`) ? [readFileSync(`${place.file}-wal`)] : [])]).toString('latin1');
      for (const secret of [refreshToken, sessionId, interactionId]) expect(bytes).not.toContain(secret);
    }
  });
});
