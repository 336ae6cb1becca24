import type { Database } from 'better-sqlite3';
import { createOrAdopt } from '../../../engine/db/createOrAdopt.ts';

/**
 * oidc-provider's storage contract on one table (grants, sessions, codes, tokens). Files written
 * before this list (made with `CREATE … IF NOT EXISTS` on every open, `user_version` 0) hold
 * exactly this table and these indexes: the statements are the ones they were made with, IF NOT
 * EXISTS included, so they adopt theirs (and refuse an object of those names with any other
 * schema). Never edited: later changes follow it.
 */
export function updateToSchemaVersion10(db: Database): void {
  createOrAdopt(
    db,
    `
    CREATE TABLE IF NOT EXISTS oidc_entities (
      model       TEXT NOT NULL,
      id          TEXT NOT NULL,
      payload     TEXT NOT NULL,
      grant_id    TEXT,
      user_code   TEXT,
      uid         TEXT,
      expires_at  INTEGER,
      consumed_at INTEGER,
      PRIMARY KEY (model, id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS oidc_entities_grant ON oidc_entities (model, grant_id) WHERE grant_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS oidc_entities_uid ON oidc_entities (model, uid) WHERE uid IS NOT NULL;
    CREATE INDEX IF NOT EXISTS oidc_entities_user_code ON oidc_entities (model, user_code) WHERE user_code IS NOT NULL;
    CREATE INDEX IF NOT EXISTS oidc_entities_expiry ON oidc_entities (expires_at) WHERE expires_at IS NOT NULL;
  `,
  );
}
