/**
 * What several instances share beyond the breach store: per-email change revisions (the response
 * cache's stamps), the identity provider's state and its signing keys.
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const sharedInstancesSql = `
      -- Moves whenever an email's exposures or resolutions change, whichever instance wrote:
      -- the response cache compares these, so another instance's write is seen at once.
      CREATE SEQUENCE change_counter;
      CREATE TABLE email_revisions (email text PRIMARY KEY, revision bigint NOT NULL);
      INSERT INTO email_revisions (email, revision)
        SELECT email, nextval('change_counter') FROM (SELECT email FROM exposure_records UNION SELECT email FROM resolutions) AS known;

      -- The development identity provider's grants, sessions, codes and tokens (oidc-provider's adapter).
      CREATE TABLE oidc_models (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        uid text,
        grant_id text,
        user_code text,
        consumed_at bigint,
        expires_at timestamptz,
        PRIMARY KEY (model, id)
      );
      CREATE INDEX oidc_models_grant ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
      CREATE INDEX oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL;
      CREATE INDEX oidc_models_user_code ON oidc_models (model, user_code) WHERE user_code IS NOT NULL;

      -- Signing keys, so any instance verifies a token another issued (one row: the current key set).
      CREATE TABLE identity_keys (name text PRIMARY KEY, jwks jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    `;
