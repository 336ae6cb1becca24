import { openPrivateDatabase } from '../../engine/db/openPrivateDatabase.ts';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { migrate } from '../storage/sqliteMigrate.ts';
import { mintApiToken, parseBearer, secretMatches, toApiTokenInfo, type ApiTokenInfo, type ApiTokenRequest, type ApiTokenScope, type ApiTokenStore } from './ApiTokenStore.ts';
import { API_TOKEN_MIGRATIONS } from './migrations/index.ts';

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

/** API tokens in their own SQLite file in the data folder (one instance; the default store). */
export class SqliteApiTokenStore implements ApiTokenStore {
  readonly #db: SqliteDatabase;
  readonly #byId: Statement<[string], TokenRow>;

  constructor(file: string) {
    // Hashes of the tokens only, but whose account holds which: private like the other files.
    this.#db = openPrivateDatabase(file, { synchronous: 'FULL', tightenExisting: true }, (db) => migrate(db, API_TOKEN_MIGRATIONS));
    // Prepared once: `find` runs on every search request.
    this.#byId = this.#db.prepare<[string], TokenRow>('SELECT * FROM api_tokens WHERE id = ?');
  }

  async create(accountId: string, request: ApiTokenRequest, now = Date.now()): Promise<{ id: string; token: string; info: ApiTokenInfo }> {
    const { row, token } = mintApiToken(accountId, request, now);
    this.#db
      .prepare('INSERT INTO api_tokens (id, account_id, name, secret_hash, scopes, allow_ips, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(row.id, row.accountId, row.name, row.secretHash, JSON.stringify(row.scopes), JSON.stringify(row.allowIps), row.createdAt, row.expiresAt);
    return { id: row.id, token, info: toApiTokenInfo(row) };
  }

  async get(id: string): Promise<ApiTokenInfo | undefined> {
    const row = this.#byId.get(id);
    return row && toInfo(row);
  }

  async list(): Promise<ApiTokenInfo[]> {
    return this.#db.prepare<[], TokenRow>('SELECT * FROM api_tokens ORDER BY created_at, id').all().map(toInfo);
  }

  async revoke(id: string, now = Date.now()): Promise<boolean> {
    if (!this.#byId.get(id)) return false;
    this.#db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id);
    return true;
  }

  async find(bearer: string): Promise<ApiTokenInfo | undefined> {
    const presented = parseBearer(bearer);
    if (!presented) return undefined;
    const row = this.#byId.get(presented.id);
    return row && secretMatches(row.secret_hash, presented.secretHash) ? toInfo(row) : undefined;
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

function toInfo(row: TokenRow): ApiTokenInfo {
  return toApiTokenInfo({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    secretHash: row.secret_hash,
    scopes: JSON.parse(row.scopes) as ApiTokenScope[],
    allowIps: JSON.parse(row.allow_ips) as string[],
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  });
}
