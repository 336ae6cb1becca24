/**
 * Sign-ins under way are capped per client address (server/identity/interactionLimits.ts): each
 * interaction row keeps the hash of the address that started it, and the cap counts them by it;
 * `client_seq` numbers a client's interactions in the order they were stored (the oldest make way).
 * Rows stored before have none and count toward the total only (they expire within the hour).
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const identityInteractionClientsSql = `
      ALTER TABLE oidc_models ADD COLUMN client_key text, ADD COLUMN client_seq bigint;
      CREATE INDEX oidc_models_client ON oidc_models (model, client_key, client_seq) WHERE client_key IS NOT NULL;
    `;
