import type { Database } from 'better-sqlite3';

/**
 * Sign-ins under way are capped per client address (server/identity/interactionLimits.ts): each
 * interaction row keeps the hash of the address that started it, and the cap counts them by it;
 * `client_seq` numbers a client's interactions in the order they were stored (expiry times are
 * whole seconds, so they cannot tell which of a burst is oldest).
 * Rows stored before have none and count toward the total only (they expire within the hour).
 */
export function updateToSchemaVersion30(db: Database): void {
  db.exec(`
    ALTER TABLE oidc_entities ADD COLUMN client_key TEXT;
    ALTER TABLE oidc_entities ADD COLUMN client_seq INTEGER;
    CREATE INDEX oidc_entities_client ON oidc_entities (model, client_key, client_seq) WHERE client_key IS NOT NULL;
  `);
}
