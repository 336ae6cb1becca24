import { z } from 'zod';

/**
 * What the app holds for one account. The ID token is kept in memory only (never stored): the
 * details feed sends it as `?auth=`, and a refresh brings a new one.
 */
export interface TokenSet {
  accessToken: string;
  idToken?: string | undefined;
  /** Epoch milliseconds; undefined when the provider did not say (then only a 401 ends it). */
  expiresAt: number | undefined;
  refreshToken?: string | undefined;
  scope?: string | undefined;
}

/** The secret-store entry of an account: one value, so a rotated refresh token and its access token change together. */
const StoredTokens = z.object({
  v: z.literal(1),
  accessToken: z.string().min(1).optional(),
  expiresAt: z.number().optional(),
  refreshToken: z.string().min(1).optional(),
  scope: z.string().optional(),
});

export function serializeTokens(tokens: TokenSet): string {
  return JSON.stringify({
    v: 1,
    ...(tokens.accessToken ? { accessToken: tokens.accessToken } : {}),
    ...(tokens.expiresAt !== undefined ? { expiresAt: tokens.expiresAt } : {}),
    ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
  });
}

/** Undefined for anything unreadable: a damaged entry means "sign in again", never a crash. */
export function parseStoredTokens(text: string): (Partial<TokenSet> & { refreshToken?: string }) | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = StoredTokens.safeParse(json);
  if (!parsed.success) return undefined;
  const { accessToken, expiresAt, refreshToken, scope } = parsed.data;
  if (!accessToken && !refreshToken) return undefined;
  return { accessToken, expiresAt, refreshToken, scope };
}

/** The fields of a token endpoint response the app keeps. */
export function tokenSetFromResponse(
  response: { access_token: string; id_token?: string | undefined; refresh_token?: string | undefined; scope?: string | undefined; expiresIn(): number | undefined },
  now: number,
): TokenSet {
  const expiresIn = response.expiresIn();
  return {
    accessToken: response.access_token,
    idToken: response.id_token,
    expiresAt: expiresIn === undefined ? undefined : now + expiresIn * 1000,
    refreshToken: response.refresh_token,
    scope: response.scope,
  };
}
