/**
 * Sign-ins under way are capped per client address (server/identity/interactionLimits.ts): each
 * interaction row keeps the hash of the address that started it, and the cap counts them by it.
 * Rows stored before have none and count toward the total only (they expire within the hour).
 * Released: never edited, only followed (server/store/postgres/migrations/index.ts).
 */
export const identityInteractionClientsSql = `
      ALTER TABLE oidc_models ADD COLUMN client_key text;
      CREATE INDEX oidc_models_client ON oidc_models (model, client_key, expires_at) WHERE client_key IS NOT NULL;
    `;
