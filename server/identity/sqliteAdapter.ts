import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { migrate } from '../storage/sqliteMigrate.ts';
import { openPrivateDatabase } from '../../engine/db/openPrivateDatabase.ts';
import { INTERACTION_LIMIT_DEFAULTS, currentRequestingClient, SignInsFullError, type InteractionLimits } from './interactionLimits.ts';
import { OIDC_MIGRATIONS } from './migrations/index.ts';
import { fromStoredPayload, storedIdOf, toStoredPayload } from './storedIdentifiers.ts';

/**
 * oidc-provider's storage contract on one SQLite table, so grants, refresh tokens and
 * sessions survive a restart of the development server.
 *
 * Expiry is enforced on read (an expired row is never returned) and rows are purged
 * periodically; `consumed` is a column rather than part of the JSON so consuming is atomic.
 * Ids are kept as hashes and payloads without them (storedIdentifiers.ts): the file holds no
 * refresh token, code or session cookie in clear. A new interaction (a sign-in under way) is
 * admitted under the caps of interactionLimits.ts in the transaction that stores it.
 */
/** Where the identity provider keeps its grants, sessions, codes and tokens: a SQLite file, or PostgreSQL (postgresState.ts). */
export interface OidcStateStore {
  adapterFactory: AdapterFactory;
  /** Deletes expired rows; answers how many. */
  purgeExpired(): Promise<number>;
  close(): void;
}

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

interface Row {
  payload: string;
  consumed_at: number | null;
}

export function openOidcSqliteStore(file: string, interactionLimits: InteractionLimits = INTERACTION_LIMIT_DEFAULTS): OidcStateStore {
  // Refresh tokens and grants: readable by their owner only.
  const db = openPrivateDatabase(file, { synchronous: 'FULL', tightenExisting: true }, (opened) => {
    const { from } = migrate(opened, OIDC_MIGRATIONS);
    // Migration 20 replaced clear ids by their hashes; rewrite the file and empty the log so the
    // clear values are not left behind in freed pages or old log frames.
    if (from < 20) {
      opened.exec('VACUUM');
      opened.pragma('wal_checkpoint(TRUNCATE)');
    }
  });

  const live = '(expires_at IS NULL OR expires_at > @now)';
  const statements = {
    upsert: db.prepare(`
      INSERT INTO oidc_entities (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at, client_key, client_seq)
      VALUES (@model, @id, @payload, @grantId, @userCode, @uid, @expiresAt, NULL, @clientKey, @clientSeq)
      ON CONFLICT (model, id) DO UPDATE SET
        payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
        uid = excluded.uid, expires_at = excluded.expires_at, consumed_at = NULL`),
    findById: db.prepare<{ model: string; id: string; now: number }, Row>(`SELECT payload, consumed_at FROM oidc_entities WHERE model = @model AND id = @id AND ${live}`),
    findByUid: db.prepare<{ model: string; uid: string; now: number }, Row>(`SELECT payload, consumed_at FROM oidc_entities WHERE model = @model AND uid = @uid AND ${live} LIMIT 1`),
    findByUserCode: db.prepare<{ model: string; userCode: string; now: number }, Row>(
      `SELECT payload, consumed_at FROM oidc_entities WHERE model = @model AND user_code = @userCode AND ${live} LIMIT 1`,
    ),
    consume: db.prepare('UPDATE oidc_entities SET consumed_at = @now WHERE model = @model AND id = @id'),
    destroy: db.prepare('DELETE FROM oidc_entities WHERE model = @model AND id = @id'),
    revokeByGrantId: db.prepare('DELETE FROM oidc_entities WHERE model = @model AND grant_id = @grantId'),
    purge: db.prepare('DELETE FROM oidc_entities WHERE expires_at IS NOT NULL AND expires_at <= @now'),
    exists: db.prepare<{ model: string; id: string }, { found: 1 }>('SELECT 1 AS found FROM oidc_entities WHERE model = @model AND id = @id'),
    liveInteractions: db.prepare<{ now: number }, { count: number }>(`SELECT count(*) AS count FROM oidc_entities WHERE model = 'Interaction' AND ${live}`),
    // A client's live interactions past the newest `keep` (the oldest expire first); its expired ones go too.
    dropClientsOldest: db.prepare(`
      DELETE FROM oidc_entities WHERE model = 'Interaction' AND client_key = @clientKey AND id NOT IN (
        SELECT id FROM oidc_entities WHERE model = 'Interaction' AND client_key = @clientKey AND ${live}
        ORDER BY client_seq DESC LIMIT @keep)`),
    nextClientSeq: db.prepare<{ clientKey: string }, { next: number }>("SELECT coalesce(max(client_seq), 0) + 1 AS next FROM oidc_entities WHERE model = 'Interaction' AND client_key = @clientKey"),
  };

  type UpsertRow = Parameters<typeof statements.upsert.run>[0];
  /**
   * Stores a new interaction within the caps: the client's oldest make way for it, or, with the
   * provider full, it is refused. Replacing one (a sign-in moving on) is never refused.
   */
  const admitInteraction = db.transaction((row: UpsertRow & { id: string; clientKey: string | null; clientSeq: number | null }, continuing: boolean) => {
    if (!statements.exists.get({ model: 'Interaction', id: row.id })) {
      const now = epochSeconds();
      if (row.clientKey !== null) {
        statements.dropClientsOldest.run({ clientKey: row.clientKey, keep: interactionLimits.perAddress - 1, now });
        row.clientSeq = statements.nextClientSeq.get({ clientKey: row.clientKey })!.next;
      }
      if (!continuing && statements.liveInteractions.get({ now })!.count >= interactionLimits.total) throw new SignInsFullError();
    }
    statements.upsert.run(row);
  });

  const purgeExpired = (): number => statements.purge.run({ now: epochSeconds() }).changes;
  purgeExpired();
  const timer = setInterval(purgeExpired, PURGE_INTERVAL_MS);
  timer.unref();

  function adapterFor(model: string): Adapter {
    return {
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        const requesting = currentRequestingClient();
        const row = {
          model,
          id: storedIdOf(id),
          payload: JSON.stringify(toStoredPayload(model, id, payload)),
          grantId: payload.grantId ?? null,
          userCode: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expiresAt: typeof expiresIn === 'number' ? epochSeconds() + expiresIn : null,
          clientKey: model === 'Interaction' ? (requesting.clientKey ?? null) : null,
          clientSeq: null as number | null,
        };
        if (model === 'Interaction') admitInteraction.immediate(row, requesting.continuing);
        else statements.upsert.run(row);
      },
      async find(id: string) {
        return toPayload(model, id, statements.findById.get({ model, id: storedIdOf(id), now: epochSeconds() }));
      },
      async findByUid(uid: string) {
        return toPayload(model, undefined, statements.findByUid.get({ model, uid, now: epochSeconds() }));
      },
      async findByUserCode(userCode: string) {
        return toPayload(model, undefined, statements.findByUserCode.get({ model, userCode, now: epochSeconds() }));
      },
      async consume(id: string) {
        statements.consume.run({ model, id: storedIdOf(id), now: epochSeconds() });
      },
      async destroy(id: string) {
        statements.destroy.run({ model, id: storedIdOf(id) });
      },
      async revokeByGrantId(grantId: string) {
        statements.revokeByGrantId.run({ model, grantId });
      },
    };
  }

  return {
    adapterFactory: adapterFor,
    purgeExpired: async () => purgeExpired(),
    close() {
      clearInterval(timer);
      db.close();
    },
  };
}

function toPayload(model: string, id: string | undefined, row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = fromStoredPayload(model, id, JSON.parse(row.payload) as AdapterPayload);
  return row.consumed_at === null ? payload : { ...payload, consumed: row.consumed_at };
}

function epochSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
