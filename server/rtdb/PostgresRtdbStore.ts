import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Emitter, type Event } from '../../shared/base/Emitter.ts';
import { etagOf } from '../http/respond.ts';
import { requireCurrentSchema } from '../storage/postgresMigrate.ts';
import { MAX_NOTICE_PAYLOAD, NoticeChannel } from '../storage/noticeChannel.ts';
import { describeDatabaseUrl, guarded, unreachable, transaction } from '../storage/pool.ts';
import { pathKey, type DbPath } from './paths.ts';
import { hashSecret, SnapshotCache, type DbWrite, type LocationSnapshot, type RtdbChange, type RtdbStore, type RtdbTransaction, type SecretInfo, type ServiceAccountRecord } from './RtdbStore.ts';
import { flatten, unflatten, type DbValue, type Leaf } from './tree.ts';

/** Every write announces itself here: the writing store's id, then the written paths (one a line) or `*`. */
export const RTDB_CHANGE_CHANNEL = 'rtdb_changes';
const MAX_ATTEMPTS = 8;

// `/` sorts just before `0` (byte order, COLLATE "C"): every path below `p` lies in [p || '/', p || '0').
const SUBTREE = "(path = $1 OR (path >= $1 || '/' AND path < $1 || '0'))";

export interface PostgresRtdbOptions {
  /** Where the pool connects (for the listening connection, and for messages: never the password). */
  url: string;
  /** The instance's one pool (server/openStorage.ts), left open on close. */
  pool: pg.Pool;
  /** What closing the store does to the pool: nothing unless the opener handed the store a pool of its own. */
  endPool?: () => Promise<void>;
  /** Told when a connection fails (the server went away); the next request reconnects. */
  onConnectionError?: (error: Error) => void;
  /** Told when a watcher throws (the others still hear the change); the console by default. */
  onWatcherError?: (error: unknown) => void;
}

/**
 * {@link RtdbStore} on PostgreSQL, shared by several instances. A write transaction first takes
 * the row lock of `rtdb_revision` (and moves it), so the checks and the write of one request see
 * no other writer in between, whichever instance it came through; reads never wait. Each commit
 * is announced with `NOTIFY` carrying the written paths, so listeners on other instances re-read
 * what they show; cached snapshots are keyed by the revision, checked with one indexed read.
 */
export class PostgresRtdbStore implements RtdbStore {
  readonly kind = 'postgresql' as const;
  readonly #pool: pg.Pool;
  readonly #where: string;
  readonly #id: string;
  readonly #channel: NoticeChannel;
  readonly #snapshots = new SnapshotCache();
  readonly #changes: Emitter<RtdbChange>;
  readonly watch: Event<RtdbChange>;

  /** Ends the pool when the store owns it; nothing when the pool is shared. */
  readonly #endPool: () => Promise<void>;

  constructor(pool: pg.Pool, where: string, id: string, channel: NoticeChannel, endPool: () => Promise<void> = () => pool.end(), onWatcherError?: (error: unknown) => void) {
    this.#changes = new Emitter({ ...(onWatcherError ? { onListenerError: onWatcherError } : {}) });
    this.watch = this.#changes.event;
    this.#pool = pool;
    this.#endPool = endPool;
    this.#where = where;
    this.#id = id;
    this.#channel = channel;
  }

  /** Called by the notice channel for every notice, this store's own included (skipped: announced at commit). */
  receiveNotice(payload: string): void {
    const [from, ...lines] = payload.split('\n');
    if (from === this.#id) return;
    this.#announce({ paths: lines.length === 0 || lines[0] === '*' ? '*' : lines.map((line) => (line === '' ? [] : line.split('/'))) });
  }

  /** The listening connection came back: whatever was announced meanwhile is unknown. */
  resumed(): void {
    this.#announce({ paths: '*' });
  }

  async get(path: DbPath): Promise<DbValue> {
    const { rows } = await this.#query<Leaf>(readLeaves(path), path.length === 0 ? [] : [pathKey(path)]);
    return unflatten(path, rows);
  }

  async snapshot(path: DbPath): Promise<LocationSnapshot> {
    const key = pathKey(path);
    const { rows } = await this.#query<{ revision: string }>('SELECT revision FROM rtdb_revision');
    const cached = this.#snapshots.get(key, rows[0]!.revision);
    if (cached) return cached;
    // The revision and the leaves in one statement (one snapshot of the database).
    const read = await this.#query<{ revision: string; path: string | null; json: string | null }>(
      `SELECT r.revision, l.path, l.json FROM rtdb_revision r LEFT JOIN (${readLeaves(path)}) l ON true ORDER BY l.path COLLATE "C"`,
      path.length === 0 ? [] : [key],
    );
    const snapshot = snapshotOf(
      path,
      read.rows.filter((row): row is { revision: string; path: string; json: string } => row.path !== null),
    );
    this.#snapshots.set(key, read.rows[0]!.revision, snapshot);
    return snapshot;
  }

  async transaction<T>(work: (tx: RtdbTransaction) => Promise<T>): Promise<T> {
    const { result, written } = await transaction(
      this.#pool,
      this.#where,
      { isolation: 'READ COMMITTED', attempts: MAX_ATTEMPTS },
      async (client) => {
        const written: DbWrite[] = [];
        // Taken first: waits for any writer of any instance to commit; every later statement of
        // this transaction then reads what they committed (READ COMMITTED reads per statement).
        const locked = await client.query<{ revision: string }>('UPDATE rtdb_revision SET revision = revision + 1 RETURNING revision');
        const revision = locked.rows[0]!.revision;
        let dirty = false;
        const tx: RtdbTransaction = {
          get: async (path) => unflatten(path, (await client.query<Leaf>(readLeaves(path), path.length === 0 ? [] : [pathKey(path)])).rows),
          snapshot: async (path) => {
            // Before this transaction's writes, the revision it moved to names exactly what is read.
            const cached = dirty ? undefined : this.#snapshots.get(pathKey(path), String(BigInt(revision) - 1n));
            if (cached) return cached;
            return snapshotOf(path, (await client.query<Leaf>(readLeaves(path), path.length === 0 ? [] : [pathKey(path)])).rows);
          },
          write: async (writes) => {
            dirty = true;
            for (const write of writes) await writeOne(client, write);
            written.push(...writes);
          },
        };
        const result = await work(tx);
        if (written.length > 0)
          await client.query('SELECT pg_notify($1, $2)', [
            RTDB_CHANGE_CHANNEL,
            noticeOf(
              this.#id,
              written.map((w) => w.path),
            ),
          ]);
        return { result, written };
      },
      // Nothing written: the revision goes back, so cached snapshots stay valid.
      ({ written }) => (written.length > 0 ? 'COMMIT' : 'ROLLBACK'),
    );
    if (written.length > 0) this.#announce({ paths: written.map((w) => w.path), writes: written });
    return result;
  }

  /** How many watchers are registered (open streams, the rules, the details copy): what a leak would show. */
  get watcherCount(): number {
    return this.#changes.listenerCount;
  }

  #announce(change: RtdbChange): void {
    this.#changes.fire(change);
  }

  async getSetting(key: string): Promise<string | undefined> {
    const { rows } = await this.#query<{ value: string }>('SELECT value FROM rtdb_settings WHERE key = $1', [key]);
    return rows[0]?.value;
  }

  async putSetting(key: string, value: string): Promise<void> {
    const path = ['.settings', key];
    await this.#query(
      `WITH put AS (INSERT INTO rtdb_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value RETURNING 1)
       SELECT pg_notify($3, $4) FROM put`,
      [key, value, RTDB_CHANGE_CHANNEL, noticeOf(this.#id, [path])],
    );
    this.#announce({ paths: [path] });
  }

  // Legacy secrets ---------------------------------------------------------------------------

  async createSecret(now = new Date()): Promise<{ id: string; secret: string }> {
    const id = randomUUID();
    const secret = randomBytes(30).toString('base64url');
    await this.#query('INSERT INTO rtdb_secrets (id, secret_hash, created_at) VALUES ($1, $2, $3)', [id, hashSecret(secret), now.toISOString()]);
    return { id, secret };
  }

  async listSecrets(): Promise<SecretInfo[]> {
    const { rows } = await this.#query<SecretInfo>('SELECT id, created_at AS "createdAt", revoked_at AS "revokedAt" FROM rtdb_secrets ORDER BY created_at, id');
    return rows;
  }

  async revokeSecret(id: string, now = new Date()): Promise<boolean> {
    const { rowCount } = await this.#query('UPDATE rtdb_secrets SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2', [now.toISOString(), id]);
    return (rowCount ?? 0) > 0;
  }

  async findLiveSecret(secret: string): Promise<string | undefined> {
    const { rows } = await this.#query<{ id: string }>('SELECT id FROM rtdb_secrets WHERE secret_hash = $1 AND revoked_at IS NULL', [hashSecret(secret)]);
    return rows[0]?.id;
  }

  // Service accounts -------------------------------------------------------------------------

  async putServiceAccount(account: Omit<ServiceAccountRecord, 'createdAt'>, now = new Date()): Promise<void> {
    await this.#query('INSERT INTO rtdb_service_accounts (client_email, key_id, public_key_pem, scopes, created_at) VALUES ($1, $2, $3, $4, $5)', [
      account.clientEmail,
      account.keyId,
      account.publicKeyPem,
      JSON.stringify(account.scopes),
      now.toISOString(),
    ]);
  }

  async getServiceAccount(clientEmail: string): Promise<ServiceAccountRecord | undefined> {
    const { rows } = await this.#query<ServiceAccountRecord>(
      'SELECT client_email AS "clientEmail", key_id AS "keyId", public_key_pem AS "publicKeyPem", scopes, created_at AS "createdAt" FROM rtdb_service_accounts WHERE client_email = $1',
      [clientEmail],
    );
    return rows[0];
  }

  async close(): Promise<void> {
    this.#changes.dispose();
    await this.#channel.close();
    await this.#endPool();
  }

  async #query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return guarded(this.#where, () => this.#pool.query<R>(sql, values));
  }
}

function readLeaves(path: DbPath): string {
  return `SELECT path, value AS json FROM rtdb_leaves${path.length === 0 ? '' : ` WHERE ${SUBTREE}`} ORDER BY path`;
}

function snapshotOf(path: DbPath, leaves: readonly Leaf[]): LocationSnapshot {
  const value = unflatten(path, leaves);
  const json = JSON.stringify(value);
  return { value, json, etag: etagOf(json) };
}

async function writeOne(client: pg.PoolClient, { path, value }: DbWrite): Promise<void> {
  const leaves = flatten(path, value);
  const key = pathKey(path);
  if (path.length === 0) await client.query('DELETE FROM rtdb_leaves');
  else await client.query(`DELETE FROM rtdb_leaves WHERE ${SUBTREE}`, [key]);
  // A leaf above the location stops being a leaf: its place becomes an object.
  if (path.length > 0) await client.query('DELETE FROM rtdb_leaves WHERE path = ANY($1::text[])', [path.map((_, depth) => pathKey(path.slice(0, depth)))]);
  if (leaves.length > 0) await client.query('INSERT INTO rtdb_leaves (path, value) SELECT * FROM unnest($1::text[], $2::text[])', [leaves.map((leaf) => leaf.path), leaves.map((leaf) => leaf.json)]);
}

function noticeOf(writer: string, paths: readonly DbPath[]): string {
  const list = paths.map(pathKey).join('\n');
  return `${writer}\n${Buffer.byteLength(list) > MAX_NOTICE_PAYLOAD ? '*' : list}`;
}

/**
 * Connects to PostgreSQL at `url`, on a database already migrated (its tables are migrations 50
 * on of the one list, server/storage/migrations/), and starts listening for other
 * instances' writes. An unreachable server fails with a message naming its host.
 */
export async function openPostgresRtdbStore(options: PostgresRtdbOptions): Promise<PostgresRtdbStore> {
  const where = describeDatabaseUrl(options.url);
  const onError = options.onConnectionError ?? (() => {});
  const pool = options.pool;
  const endPool = options.endPool ?? (async () => {});
  let store: PostgresRtdbStore | undefined;
  const channel = new NoticeChannel({
    url: options.url,
    channel: RTDB_CHANGE_CHANNEL,
    onNotice: (payload) => store?.receiveNotice(payload),
    onResumed: () => store?.resumed(),
    onError,
  });
  try {
    await requireCurrentSchema(pool);
    store = new PostgresRtdbStore(pool, where, randomUUID(), channel, endPool, options.onWatcherError);
    await channel.start();
    return store;
  } catch (error) {
    await channel.close();
    await endPool().catch(() => {});
    throw unreachable(options.url, error);
  }
}
