import type { Database } from 'better-sqlite3';
import { storedIdOf } from '../storedIdentifiers.ts';

/**
 * Ids become their hashes (storedIdentifiers.ts): rows written before kept refresh tokens, codes
 * and session cookies in clear, in `id` and again as `jti` in the payload. Each row's id is
 * replaced by its hash and `jti` is dropped from its payload, so every sign-in, session and
 * refresh token goes on working (nobody is signed out by the upgrade). Interactions (sign-ins
 * under way, an hour at most) are deleted instead: their payload also holds the session's cookie
 * value and their own id in a URL; whoever was signing in at that moment starts again.
 * The adapter then rewrites the file (VACUUM) so no freed page keeps a clear value.
 */
export function updateToSchemaVersion20(db: Database): void {
  db.function('oidc_stored_id', { deterministic: true }, (id: unknown) => storedIdOf(String(id)));
  db.exec(`
    DELETE FROM oidc_entities WHERE model = 'Interaction';
    UPDATE oidc_entities SET id = oidc_stored_id(id), payload = json_remove(payload, '$.jti');
  `);
}
