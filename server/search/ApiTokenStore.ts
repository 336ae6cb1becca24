import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
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

const TOKEN_PATTERN = /^bmst_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

interface TokenRow {
  id: string;
  account_id: string;
  name: string | null;
  secret_hash: Buffer;
  scopes: string;
  allow_ips: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

const iso = (ms: number | null): string | undefined => (ms === null ? undefined : new Date(ms).toISOString());

/**
 * API tokens of the search interface, in their own SQLite file. A token is
 * `bmst_<id>_<secret>`; only the SHA-256 of the secret is stored (the secret is 256 random bits,
 * so a fast hash suffices: there is nothing to guess), and it is shown once, at creation.
 */
export class ApiTokenStore {
  readonly #db: SqliteDatabase;
  #byId: Statement<[string], TokenRow> | undefined;

  constructor(file: string) {
    if (file !== ':memory:') {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      closeSync(openSync(file, 'a', 0o600));
    }
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.exec(`CREATE TABLE IF NOT EXISTS api_tokens (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      name TEXT,
      secret_hash BLOB NOT NULL,
      scopes TEXT NOT NULL,
      allow_ips TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      revoked_at INTEGER
    ) STRICT`);
  }

  create(accountId: string, request: ApiTokenRequest, now = Date.now()): { id: string; token: string; info: ApiTokenInfo } {
    const { scopes, expiresIn, allowIps = [], name } = ApiTokenRequest.parse(request);
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const expiresAt = expiresIn === undefined ? null : now + expiresIn * 1000;
    this.#db
      .prepare('INSERT INTO api_tokens (id, account_id, name, secret_hash, scopes, allow_ips, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, accountId, name ?? null, hashSecret(secret), JSON.stringify([...new Set(scopes)]), JSON.stringify(allowIps.map((cidr) => cidr.trim())), now, expiresAt);
    return { id, token: `bmst_${id}_${secret}`, info: this.get(id)! };
  }

  get(id: string): ApiTokenInfo | undefined {
    const row = this.#db.prepare<[string], TokenRow>('SELECT * FROM api_tokens WHERE id = ?').get(id);
    return row && toInfo(row);
  }

  list(): ApiTokenInfo[] {
    return this.#db.prepare<[], TokenRow>('SELECT * FROM api_tokens ORDER BY created_at, id').all().map(toInfo);
  }

  /** Revokes a token; false when there is no such token. Revoking twice keeps the first time. */
  revoke(id: string, now = Date.now()): boolean {
    const found = this.#db.prepare<[string], { id: string }>('SELECT id FROM api_tokens WHERE id = ?').get(id);
    if (!found) return false;
    this.#db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id);
    return true;
  }

  /** The token a bearer string names, when its secret matches (constant-time); revocation, expiry and the rest are the caller's to judge. */
  find(bearer: string): ApiTokenInfo | undefined {
    const match = TOKEN_PATTERN.exec(bearer);
    if (!match) return undefined;
    // Prepared once: this runs on every search request.
    this.#byId ??= this.#db.prepare<[string], TokenRow>('SELECT * FROM api_tokens WHERE id = ?');
    const row = this.#byId.get(match[1]!);
    if (!row) return undefined;
    const given = hashSecret(match[2]!);
    return row.secret_hash.length === given.length && timingSafeEqual(row.secret_hash, given) ? toInfo(row) : undefined;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

function toInfo(row: TokenRow): ApiTokenInfo {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name ?? undefined,
    scopes: JSON.parse(row.scopes) as ApiTokenScope[],
    allowIps: JSON.parse(row.allow_ips) as string[],
    createdAt: iso(row.created_at)!,
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
  };
}
