import { createHash } from 'node:crypto';
import type { AdapterPayload } from 'oidc-provider';

/**
 * What the identity provider's stores (sqliteAdapter.ts, postgresState.ts) keep in place of an
 * identifier oidc-provider hands them. For refresh tokens, authorization codes, sessions (the
 * `_session` cookie's value) and interactions that identifier is the credential itself: whoever
 * reads it from the file, a backup or a shared database could present it. So every model's id is
 * stored as its SHA-256 (base64url) and what is presented is hashed before the lookup. The ids are
 * 126 to 256 random bits (nanoid), so an unsalted hash cannot be reversed by guessing, and every
 * instance on a shared database computes the same one.
 *
 * Kept in clear on purpose: `grant_id` (oidc-provider revokes by it; a grant id alone obtains
 * nothing, and ID tokens carry it as `gid`), a session's `uid` (it finds a session by it; the
 * cookie carries the id, not the uid) and `user_code` (the device flow is not enabled, so no row
 * has one).
 */
export function storedIdOf(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('base64url');
}

/** Stands for an interaction's own id inside its `returnTo` URL while stored. */
const OWN_ID = '{uid}';

/**
 * The payload as stored: without the id (`jti`, which oidc-provider repeats in every payload);
 * an interaction also without its session's cookie value (`session.cookie`, which nothing here
 * reads) and with its own id masked out of `returnTo`.
 */
export function toStoredPayload(model: string, id: string, payload: AdapterPayload): AdapterPayload {
  const { jti: _jti, ...stored } = payload;
  if (model === 'Interaction') {
    if (typeof stored.returnTo === 'string') stored.returnTo = stored.returnTo.replaceAll(id, OWN_ID);
    const session = stored.session as Record<string, unknown> | undefined;
    if (session && 'cookie' in session) {
      const { cookie: _cookie, ...rest } = session;
      stored.session = rest as AdapterPayload['session'];
    }
  }
  return stored;
}

/**
 * The payload oidc-provider stored, given the id it was looked up by (`undefined` for a lookup by
 * uid or user code: oidc-provider reads such a session's account and grants, never its id).
 */
export function fromStoredPayload(model: string, id: string | undefined, stored: AdapterPayload): AdapterPayload {
  if (id === undefined) return stored;
  const payload: AdapterPayload = { ...stored, jti: id };
  if (model === 'Interaction' && typeof payload.returnTo === 'string') payload.returnTo = payload.returnTo.replaceAll(OWN_ID, id);
  return payload;
}
