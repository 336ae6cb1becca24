import type pg from 'pg';
import { guarded } from '../storage/pool.ts';
import { mintApiToken, parseBearer, secretMatches, toApiTokenInfo, type ApiTokenInfo, type ApiTokenRequest, type ApiTokenScope, type ApiTokenStore } from './ApiTokenStore.ts';

interface TokenRow {
  id: string;
  account_id: string;
  name: string | null;
  secret_hash: Buffer;
  scopes: ApiTokenScope[];
  allow_ips: string[];
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const ms = (value: string | null): number | null => (value === null ? null : Number(value));

/**
 * API tokens in the shared PostgreSQL database (`search_api_tokens`). Every check reads the row
 * (one primary-key lookup), so a token created or revoked through any instance is accepted or
 * refused by all of them on the next request. The database being away surfaces as
 * `StoreUnavailableError` (the routes answer 503).
 */
export class PostgresApiTokenStore implements ApiTokenStore {
  readonly #pool: pg.Pool;
  readonly #where: string;

  constructor(pool: pg.Pool, where: string) {
    this.#pool = pool;
    this.#where = where;
  }

  async create(accountId: string, request: ApiTokenRequest, now = Date.now()): Promise<{ id: string; token: string; info: ApiTokenInfo }> {
    const { row, token } = mintApiToken(accountId, request, now);
    await this.#query(
      `INSERT INTO search_api_tokens (id, account_id, name, secret_hash, scopes, allow_ips, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8)`,
      [row.id, row.accountId, row.name, row.secretHash, JSON.stringify(row.scopes), JSON.stringify(row.allowIps), row.createdAt, row.expiresAt],
    );
    return { id: row.id, token, info: toApiTokenInfo(row) };
  }

  async get(id: string): Promise<ApiTokenInfo | undefined> {
    const row = await this.#row(id);
    return row && toInfo(row);
  }

  async list(): Promise<ApiTokenInfo[]> {
    const { rows } = await this.#query<TokenRow>('SELECT * FROM search_api_tokens ORDER BY created_at, id COLLATE "C"');
    return rows.map(toInfo);
  }

  async revoke(id: string, now = Date.now()): Promise<boolean> {
    // coalesce keeps the first revocation time; the row count says whether the token exists.
    const { rowCount } = await this.#query('UPDATE search_api_tokens SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1', [id, now]);
    return rowCount === 1;
  }

  async find(bearer: string): Promise<ApiTokenInfo | undefined> {
    const presented = parseBearer(bearer);
    if (!presented) return undefined;
    const row = await this.#row(presented.id);
    return row && secretMatches(row.secret_hash, presented.secretHash) ? toInfo(row) : undefined;
  }

  /** The pool belongs to whoever opened it (the search storage). */
  async close(): Promise<void> {}

  async #row(id: string): Promise<TokenRow | undefined> {
    // Named: prepared once per connection, as `find` runs on every search request.
    const { rows } = await guarded(this.#where, () => this.#pool.query<TokenRow>({ name: 'search-api-token', text: 'SELECT * FROM search_api_tokens WHERE id = $1', values: [id] }));
    return rows[0];
  }

  #query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return guarded(this.#where, () => this.#pool.query<R>(sql, values));
  }
}

function toInfo(row: TokenRow): ApiTokenInfo {
  return toApiTokenInfo({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    secretHash: row.secret_hash,
    scopes: row.scopes,
    allowIps: row.allow_ips,
    createdAt: Number(row.created_at),
    expiresAt: ms(row.expires_at),
    revokedAt: ms(row.revoked_at),
  });
}
