import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { etagOf } from '../http/respond.ts';
import { migrate } from '../store/migrate.ts';
import { pathKey, type DbPath } from './paths.ts';
import { RTDB_MIGRATIONS } from './schema.ts';
import { flatten, unflatten, type DbValue, type Leaf } from './tree.ts';

/** One location written by a request; a PATCH writes several at once. */
export interface DbWrite {
  path: DbPath;
  value: DbValue;
}

export interface LocationSnapshot {
  value: DbValue;
  json: string;
  /** A strong ETag of `json`. */
  etag: string;
}

const MAX_SNAPSHOTS = 32;

export interface SecretInfo {
  id: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface ServiceAccountRecord {
  clientEmail: string;
  keyId: string;
  publicKeyPem: string;
  scopes: string[];
  createdAt: string;
}

/**
 * Storage of the realtime database (`rtdb.db`): the JSON tree, its rules, legacy secrets and
 * the identity provider's service accounts. Synchronous (better-sqlite3): a request's checks
 * and its write run inside one {@link RtdbStore.transaction}, so a conditional write cannot
 * race another writer.
 */
export class RtdbStore {
  readonly #db: SqliteDatabase;
  readonly #select;
  readonly #selectAll;
  readonly #deleteSubtree;
  readonly #deleteAll;
  readonly #deleteLeaf;
  readonly #insert;
  /** Writes through this connection; with SQLite's data_version (other connections' commits), when a cached read is stale. */
  #writes = 0;
  readonly #snapshots = new Map<string, { version: string; snapshot: LocationSnapshot }>();

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.pragma('busy_timeout = 5000');
    migrate(this.#db, RTDB_MIGRATIONS);
    // `/` sorts just before `0`: every path below `p` lies in [p + '/', p + '0').
    this.#select = this.#db.prepare<[string, string, string], Leaf>("SELECT path, value AS json FROM leaves WHERE path = ? OR (path >= ? || '/' AND path < ? || '0') ORDER BY path");
    this.#selectAll = this.#db.prepare<[], Leaf>('SELECT path, value AS json FROM leaves ORDER BY path');
    this.#deleteSubtree = this.#db.prepare<[string, string, string]>("DELETE FROM leaves WHERE path = ? OR (path >= ? || '/' AND path < ? || '0')");
    this.#deleteAll = this.#db.prepare('DELETE FROM leaves');
    this.#deleteLeaf = this.#db.prepare<[string]>('DELETE FROM leaves WHERE path = ?');
    this.#insert = this.#db.prepare<[string, string]>('INSERT INTO leaves (path, value) VALUES (?, ?)');
  }

  /** The JSON at `path` (null where nothing is). */
  get(path: DbPath): DbValue {
    const key = pathKey(path);
    const leaves = path.length === 0 ? this.#selectAll.all() : this.#select.all(key, key, key);
    return unflatten(path, leaves);
  }

  /**
   * The value at `path` with its JSON text and ETag, remembered until the next write (reads of
   * a large location, like the whole catalog, are then one hash lookup). Callers must not
   * mutate the value.
   */
  snapshot(path: DbPath): LocationSnapshot {
    const key = pathKey(path);
    const version = `${this.#writes}:${this.#db.pragma('data_version', { simple: true }) as number}`;
    const cached = this.#snapshots.get(key);
    if (cached?.version === version) return cached.snapshot;
    const value = this.get(path);
    const json = JSON.stringify(value);
    const snapshot = { value, json, etag: etagOf(json) };
    if (this.#snapshots.size >= MAX_SNAPSHOTS) this.#snapshots.delete(this.#snapshots.keys().next().value!);
    this.#snapshots.set(key, { version, snapshot });
    return snapshot;
  }

  /** Applies the writes in order, in the caller's transaction (see {@link transaction}). */
  write(writes: readonly DbWrite[]): void {
    this.#writes++;
    for (const { path, value } of writes) {
      const leaves = flatten(path, value);
      const key = pathKey(path);
      if (path.length === 0) this.#deleteAll.run();
      else this.#deleteSubtree.run(key, key, key);
      // A leaf above the location stops being a leaf: its place becomes an object.
      for (let depth = 0; depth < path.length; depth++) this.#deleteLeaf.run(pathKey(path.slice(0, depth)));
      for (const leaf of leaves) this.#insert.run(leaf.path, leaf.json);
    }
  }

  /** Runs `fn` in one immediate transaction: all of its writes or none. */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn).immediate();
  }

  getSetting(key: string): string | undefined {
    const row = this.#db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
    return row?.value;
  }

  putSetting(key: string, value: string): void {
    this.#db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  // Legacy secrets ---------------------------------------------------------------------------

  /** A new secret; only its hash is stored, so the returned value is the one chance to see it. */
  createSecret(now = new Date()): { id: string; secret: string } {
    const id = randomUUID();
    const secret = randomBytes(30).toString('base64url');
    this.#db.prepare('INSERT INTO secrets (id, secret_hash, created_at) VALUES (?, ?, ?)').run(id, hashSecret(secret), now.toISOString());
    return { id, secret };
  }

  listSecrets(): SecretInfo[] {
    return this.#db.prepare<[], SecretInfo>('SELECT id, created_at AS createdAt, revoked_at AS revokedAt FROM secrets ORDER BY created_at, id').all();
  }

  /** False when no secret has that id. Revoking twice keeps the first time. */
  revokeSecret(id: string, now = new Date()): boolean {
    const found = this.#db.prepare<[string], { id: string }>('SELECT id FROM secrets WHERE id = ?').get(id);
    if (!found) return false;
    this.#db.prepare('UPDATE secrets SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(now.toISOString(), id);
    return true;
  }

  /** The id of the live secret with this value, if any. */
  findLiveSecret(secret: string): string | undefined {
    const row = this.#db.prepare<[string], { id: string }>('SELECT id FROM secrets WHERE secret_hash = ? AND revoked_at IS NULL').get(hashSecret(secret));
    return row?.id;
  }

  // Service accounts -------------------------------------------------------------------------

  putServiceAccount(account: Omit<ServiceAccountRecord, 'createdAt'>, now = new Date()): void {
    this.#db
      .prepare('INSERT INTO service_accounts (client_email, key_id, public_key_pem, scopes, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(account.clientEmail, account.keyId, account.publicKeyPem, JSON.stringify(account.scopes), now.toISOString());
  }

  getServiceAccount(clientEmail: string): ServiceAccountRecord | undefined {
    const row = this.#db
      .prepare<[string], { clientEmail: string; keyId: string; publicKeyPem: string; scopes: string; createdAt: string }>(
        'SELECT client_email AS clientEmail, key_id AS keyId, public_key_pem AS publicKeyPem, scopes, created_at AS createdAt FROM service_accounts WHERE client_email = ?',
      )
      .get(clientEmail);
    return row ? { ...row, scopes: JSON.parse(row.scopes) as string[] } : undefined;
  }

  close(): void {
    this.#db.close();
  }
}

/** Secrets are long random strings, so a plain SHA-256 is enough to make the stored form useless. */
function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
