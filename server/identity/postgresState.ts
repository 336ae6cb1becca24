import type pg from 'pg';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { generateKeys, parseKeySet, type IdentityKeys, type KeyFile } from './keys.ts';
import { transaction } from '../storage/pool.ts';
import { INTERACTION_LIMIT_DEFAULTS, currentRequestingClient, SignInsFullError, type InteractionLimits } from './interactionLimits.ts';
import type { OidcStateStore } from './sqliteAdapter.ts';
import { fromStoredPayload, storedIdOf, toStoredPayload } from './storedIdentifiers.ts';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;
const KEY_SET_NAME = 'current';
/** The advisory lock every instance takes to admit a new interaction, so the caps hold across instances. */
const INTERACTION_ADMISSION_LOCK = 0x6f696463; // "oidc"

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
 * (storedIdentifiers.ts; migration 90 hashed the rows stored before). A new interaction (a
 * sign-in under way) is admitted under the caps of interactionLimits.ts in the transaction that
 * stores it, holding an advisory lock so instances sharing the database admit one at a time.
 */
export function openOidcPostgresStore(pool: pg.Pool, interactionLimits: InteractionLimits = INTERACTION_LIMIT_DEFAULTS): OidcStateStore {
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

  const upsertSql = `INSERT INTO oidc_models (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at, client_key, client_seq)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::integer IS NULL THEN NULL ELSE now() + make_interval(secs => $7::integer) END, NULL, $8, $9)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
       uid = excluded.uid, expires_at = excluded.expires_at, consumed_at = NULL`;

  /**
   * Stores a new interaction within the caps: the client's oldest make way for it, or, with the
   * provider full, it is refused. Replacing one (a sign-in moving on) is never refused.
   */
  const admitInteraction = (values: unknown[], storedId: string, clientKey: string | null, continuing: boolean) =>
    transaction(pool, 'storing a sign-in under way', { attempts: 1 }, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [INTERACTION_ADMISSION_LOCK]);
      const { rowCount: known } = await client.query(`SELECT 1 FROM oidc_models WHERE model = 'Interaction' AND id = $1`, [storedId]);
      if (!known) {
        if (clientKey !== null) {
          // The client's live interactions past its newest (cap - 1), the oldest expiring first; its expired ones go too.
          await client.query(
            `DELETE FROM oidc_models WHERE model = 'Interaction' AND client_key = $1 AND id NOT IN (
               SELECT id FROM oidc_models WHERE model = 'Interaction' AND client_key = $1 AND ${live}
               ORDER BY client_seq DESC LIMIT $2)`,
            [clientKey, interactionLimits.perAddress - 1],
          );
          const { rows: next } = await client.query<{ next: string }>(`SELECT coalesce(max(client_seq), 0) + 1 AS next FROM oidc_models WHERE model = 'Interaction' AND client_key = $1`, [clientKey]);
          values[8] = Number(next[0]!.next);
        }
        const { rows } = await client.query<{ count: string }>(`SELECT count(*) AS count FROM oidc_models WHERE model = 'Interaction' AND ${live}`);
        if (!continuing && Number(rows[0]!.count) >= interactionLimits.total) throw new SignInsFullError();
      }
      await client.query(upsertSql, values);
    });

  function adapterFor(model: string): Adapter {
    return {
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        const requesting = currentRequestingClient();
        const clientKey = model === 'Interaction' ? (requesting.clientKey ?? null) : null;
        const values = [
          model,
          storedIdOf(id),
          JSON.stringify(toStoredPayload(model, id, payload)),
          payload.grantId ?? null,
          payload.userCode ?? null,
          payload.uid ?? null,
          typeof expiresIn === 'number' ? expiresIn : null,
          clientKey,
          null,
        ];
        if (model === 'Interaction') await admitInteraction(values, storedIdOf(id), clientKey, requesting.continuing);
        else await pool.query(upsertSql, values);
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
