import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/** What an API token may do: `read` searches, `run` also produces answers (chat completions). */
export const API_TOKEN_SCOPES = ['ai-search:read', 'ai-search:run'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** An IPv4 or IPv6 address, or a CIDR block (`10.0.0.0/8`, `2001:db8::/32`). */
export const Cidr = z.string().refine((value) => parseCidr(value) !== undefined, { message: 'must be an IP address or a CIDR block such as 10.0.0.0/8' });

export const ApiTokenRequest = z.strictObject({
  scopes: z.array(z.enum(API_TOKEN_SCOPES)).min(1, 'name at least one scope: ai-search:read, ai-search:run'),
  /** Seconds from now; absent means the token does not expire. */
  expiresIn: z
    .int()
    .min(1)
    .max(10 * 365 * 24 * 3600)
    .optional(),
  allowIps: z.array(Cidr).max(100).optional(),
  name: z.string().min(1).max(100).optional(),
});
export type ApiTokenRequest = z.infer<typeof ApiTokenRequest>;

export interface ApiTokenInfo {
  id: string;
  accountId: string;
  name: string | undefined;
  scopes: ApiTokenScope[];
  allowIps: string[];
  createdAt: string;
  expiresAt: string | undefined;
  revokedAt: string | undefined;
}

export function parseCidr(value: string): { address: string; prefix: number; type: 'ipv4' | 'ipv6' } | undefined {
  const [address, prefixText, extra] = value.trim().split('/');
  if (extra !== undefined || !address) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  return { address, prefix, type: version === 4 ? 'ipv4' : 'ipv6' };
}

/** True when `ip` (as a socket reports it; IPv4-mapped IPv6 counts as IPv4) is inside one of `cidrs`. */
export function ipAllowed(ip: string, cidrs: readonly string[]): boolean {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.type);
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * API tokens of the search interface. A token is `bmst_<id>_<secret>`; only the SHA-256 of the
 * secret is stored (the secret is 256 random bits, so a fast hash suffices: there is nothing to
 * guess), and it is shown once, at creation. Two implementations: a SQLite file in the data
 * folder ({@link SqliteApiTokenStore}) and the shared PostgreSQL database
 * ({@link PostgresApiTokenStore}), where a token created or revoked through one instance is
 * accepted or refused by every other at once (nothing is cached).
 */
export interface ApiTokenStore {
  create(accountId: string, request: ApiTokenRequest, now?: number): Promise<{ id: string; token: string; info: ApiTokenInfo }>;
  get(id: string): Promise<ApiTokenInfo | undefined>;
  /** Every token, oldest first. */
  list(): Promise<ApiTokenInfo[]>;
  /** Revokes a token; false when there is no such token. Revoking twice keeps the first time. */
  revoke(id: string, now?: number): Promise<boolean>;
  /** The token a bearer string names, when its secret matches (constant-time); revocation, expiry and the rest are the caller's to judge. */
  find(bearer: string): Promise<ApiTokenInfo | undefined>;
  close(): Promise<void>;
}

/** One stored token, as both stores hold it (times in epoch milliseconds). */
export interface StoredApiToken {
  id: string;
  accountId: string;
  name: string | null;
  secretHash: Buffer;
  scopes: ApiTokenScope[];
  allowIps: string[];
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

const TOKEN_PATTERN = /^bmst_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();
const iso = (ms: number | null): string | undefined => (ms === null ? undefined : new Date(ms).toISOString());

/** A new token for `request` (validated here): the row to store and the bearer string shown once. */
export function mintApiToken(accountId: string, request: ApiTokenRequest, now: number): { row: StoredApiToken; token: string } {
  const { scopes, expiresIn, allowIps = [], name } = ApiTokenRequest.parse(request);
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return {
    token: `bmst_${id}_${secret}`,
    row: {
      id,
      accountId,
      name: name ?? null,
      secretHash: hashSecret(secret),
      scopes: [...new Set(scopes)],
      allowIps: allowIps.map((cidr) => cidr.trim()),
      createdAt: now,
      expiresAt: expiresIn === undefined ? null : now + expiresIn * 1000,
      revokedAt: null,
    },
  };
}

/** The id and secret hash a bearer string names, or undefined when it is not shaped like a token. */
export function parseBearer(bearer: string): { id: string; secretHash: Buffer } | undefined {
  const match = TOKEN_PATTERN.exec(bearer);
  return match ? { id: match[1]!, secretHash: hashSecret(match[2]!) } : undefined;
}

/** Constant-time comparison of a stored hash with a presented one. */
export function secretMatches(stored: Buffer, given: Buffer): boolean {
  return stored.length === given.length && timingSafeEqual(stored, given);
}

export function toApiTokenInfo(row: StoredApiToken): ApiTokenInfo {
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name ?? undefined,
    scopes: row.scopes,
    allowIps: row.allowIps,
    createdAt: iso(row.createdAt)!,
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
  };
}
