import type pg from 'pg';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { generateKeys, parseKeySet, type IdentityKeys, type KeyFile } from './keys.ts';
import type { OidcStateStore } from './sqliteAdapter.ts';
import { fromStoredPayload, storedIdOf, toStoredPayload } from './storedIdentifiers.ts';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;
const KEY_SET_NAME = 'current';

/**
 * The signing and cookie keys in PostgreSQL (table `identity_keys`, created by the database's
 * migration 20), so every instance signs and verifies with the same key. Instances starting
 * together may each generate a key set; the first insert wins and all read that one back.
 */
export async function loadOrCreateIdentityKeysIn(pool: pg.Pool): Promise<IdentityKeys> {
  const stored = await readKeySet(pool);
  if (stored) return stored;
  const keys = await generateKeys();
  const content: KeyFile = { keys: [keys.signingKey], cookieKeys: keys.cookieKeys };
  await pool.query('INSERT INTO identity_keys (name, jwks) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [KEY_SET_NAME, JSON.stringify(content)]);
  const winner = await readKeySet(pool);
  if (!winner) throw new Error('the identity key set vanished from PostgreSQL right after it was written');
  return winner;
}

async function readKeySet(pool: pg.Pool): Promise<IdentityKeys | undefined> {
  const { rows } = await pool.query<{ jwks: Partial<KeyFile> }>('SELECT jwks FROM identity_keys WHERE name = $1', [KEY_SET_NAME]);
  const row = rows[0];
  return row && parseKeySet(row.jwks, 'the identity key set in PostgreSQL (identity_keys)', 'delete its row to generate new keys (every token and session then ends)');
}

/**
 * oidc-provider's storage contract on PostgreSQL (table `oidc_models`), the same rules as the
 * SQLite adapter: expiry enforced on read, expired rows purged now and then, `consumed` a column
 * so consuming is one atomic update, ids kept as hashes and payloads without them
 * (storedIdentifiers.ts; migration 90 hashed the rows stored before).
 */
export function openOidcPostgresStore(pool: pg.Pool): OidcStateStore {
  const live = '(expires_at IS NULL OR expires_at > now())';
  const purgeExpired = async (): Promise<number> => (await pool.query('DELETE FROM oidc_models WHERE expires_at IS NOT NULL AND expires_at <= now()')).rowCount ?? 0;
  const timer = setInterval(() => void purgeExpired().catch(() => {}), PURGE_INTERVAL_MS);
  timer.unref();

  const one = async (model: string, id: string | undefined, sql: string, values: unknown[]): Promise<AdapterPayload | undefined> => {
    const { rows } = await pool.query<{ payload: AdapterPayload; consumed_at: number | null }>(sql, values);
    const row = rows[0];
    if (!row) return undefined;
    const payload = fromStoredPayload(model, id, row.payload);
    return row.consumed_at === null ? payload : { ...payload, consumed: Number(row.consumed_at) };
  };
  const select = 'SELECT payload, consumed_at FROM oidc_models';

  function adapterFor(model: string): Adapter {
    return {
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        await pool.query(
          `INSERT INTO oidc_models (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
           VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::integer IS NULL THEN NULL ELSE now() + make_interval(secs => $7::integer) END, NULL)
           ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
             uid = excluded.uid, expires_at = excluded.expires_at, consumed_at = NULL`,
          [
            model,
            storedIdOf(id),
            JSON.stringify(toStoredPayload(model, id, payload)),
            payload.grantId ?? null,
            payload.userCode ?? null,
            payload.uid ?? null,
            typeof expiresIn === 'number' ? expiresIn : null,
          ],
        );
      },
      find: (id: string) => one(model, id, `${select} WHERE model = $1 AND id = $2 AND ${live}`, [model, storedIdOf(id)]),
      findByUid: (uid: string) => one(model, undefined, `${select} WHERE model = $1 AND uid = $2 AND ${live} LIMIT 1`, [model, uid]),
      findByUserCode: (userCode: string) => one(model, undefined, `${select} WHERE model = $1 AND user_code = $2 AND ${live} LIMIT 1`, [model, userCode]),
      async consume(id: string) {
        await pool.query('UPDATE oidc_models SET consumed_at = extract(epoch FROM now())::bigint WHERE model = $1 AND id = $2', [model, storedIdOf(id)]);
      },
      async destroy(id: string) {
        await pool.query('DELETE FROM oidc_models WHERE model = $1 AND id = $2', [model, storedIdOf(id)]);
      },
      async revokeByGrantId(grantId: string) {
        await pool.query('DELETE FROM oidc_models WHERE model = $1 AND grant_id = $2', [model, grantId]);
      },
    };
  }

  return {
    adapterFactory: adapterFor,
    purgeExpired,
    close() {
      clearInterval(timer);
    },
  };
}
