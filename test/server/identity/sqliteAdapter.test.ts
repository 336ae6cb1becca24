import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openOidcSqliteStore, type OidcSqliteStore } from '../../../server/identity/sqliteAdapter.ts';

let dir: string;
let store: OidcSqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'identity-adapter-'));
  store = openOidcSqliteStore(join(dir, 'provider.db'));
});

afterEach(() => {
  vi.useRealTimers();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite adapter for oidc-provider', () => {
  it('stores, finds, and replaces payloads per model', async () => {
    const tokens = store.adapterFactory('RefreshToken');
    const codes = store.adapterFactory('AuthorizationCode');
    await tokens.upsert('id1', { accountId: 'alice', grantId: 'g1' }, 60);
    expect(await tokens.find('id1')).toEqual({ accountId: 'alice', grantId: 'g1' });
    expect(await codes.find('id1')).toBeUndefined();
    await tokens.upsert('id1', { accountId: 'bob' }, 60);
    expect(await tokens.find('id1')).toEqual({ accountId: 'bob' });
  });

  it('marks consumption without losing the payload', async () => {
    const codes = store.adapterFactory('AuthorizationCode');
    await codes.upsert('c1', { accountId: 'alice' }, 60);
    await codes.consume('c1');
    expect(await codes.find('c1')).toMatchObject({ accountId: 'alice', consumed: expect.any(Number) });
  });

  it('never returns expired rows, and purges them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sessions = store.adapterFactory('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' }, 10);
    await sessions.upsert('s2', { uid: 'u2', accountId: 'bob' });
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'alice' });
    vi.setSystemTime(Date.now() + 11_000);
    expect(await sessions.find('s1')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toBeUndefined();
    expect(store.purgeExpired()).toBe(1);
    expect(await sessions.findByUid('u2')).toMatchObject({ accountId: 'bob' });
  });

  it('finds by user code, destroys, and revokes everything of a grant within the model', async () => {
    const tokens = store.adapterFactory('RefreshToken');
    const accessTokens = store.adapterFactory('AccessToken');
    const devices = store.adapterFactory('DeviceCode');
    await devices.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
    expect(await devices.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' });
    await devices.destroy('d1');
    expect(await devices.findByUserCode('ABCD-EFGH')).toBeUndefined();

    await tokens.upsert('r1', { grantId: 'g1' }, 60);
    await tokens.upsert('r2', { grantId: 'g1' }, 60);
    await tokens.upsert('r3', { grantId: 'g2' }, 60);
    await accessTokens.upsert('a1', { grantId: 'g1' }, 60);
    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('r1')).toBeUndefined();
    expect(await tokens.find('r2')).toBeUndefined();
    expect(await tokens.find('r3')).toEqual({ grantId: 'g2' });
    expect(await accessTokens.find('a1')).toEqual({ grantId: 'g1' });
  });

  it('survives reopening', async () => {
    await store.adapterFactory('Grant').upsert('g1', { accountId: 'alice' }, 3600);
    store.close();
    store = openOidcSqliteStore(join(dir, 'provider.db'));
    expect(await store.adapterFactory('Grant').find('g1')).toEqual({ accountId: 'alice' });
  });
});
