import type { Database } from 'better-sqlite3';

/**
 * Sign-ins under way are capped per client address (server/identity/interactionLimits.ts): each
 * interaction row keeps the hash of the address that started it, and the cap counts them by it.
 * Rows stored before have none and count toward the total only (they expire within the hour).
 */
export function updateToSchemaVersion30(db: Database): void {
  db.exec(`
    ALTER TABLE oidc_entities ADD COLUMN client_key TEXT;
    CREATE INDEX oidc_entities_client ON oidc_entities (model, client_key, expires_at) WHERE client_key IS NOT NULL;
  `);
}
