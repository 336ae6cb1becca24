/**
 * The identity provider's ids become their hashes (server/identity/storedIdentifiers.ts): rows
 * written before kept refresh tokens, codes and session cookies in clear, in `id` and again as
 * `jti` in the payload. Each row's id becomes the SHA-256 of its UTF-8 bytes in base64url without
 * padding (what `storedIdOf` computes; 32 bytes encode to 44 characters, below `encode`'s 76 per
 * line) and `jti` leaves its payload, so every sign-in, session and refresh token goes on working.
 * Interactions (sign-ins under way, an hour at most) are deleted instead: their payload also holds
 * the session's cookie value and their own id in a URL; whoever was signing in starts again.
 * Old row versions stay in the table's files until PostgreSQL's vacuum reclaims them.
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const identityHashedIdsSql = `
      DELETE FROM oidc_models WHERE model = 'Interaction';
      UPDATE oidc_models
        SET id = rtrim(translate(encode(sha256(convert_to(id, 'UTF8')), 'base64'), '+/', '-_'), '='),
            payload = payload - 'jti';
    `;
