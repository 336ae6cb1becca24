import { randomBytes, randomUUID } from 'node:crypto';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { Emitter, type Event } from '../../shared/base/Emitter.ts';
import { etagOf } from '../http/respond.ts';
import { migrate } from '../storage/sqliteMigrate.ts';
import { openPrivateDatabase } from '../../engine/db/openPrivateDatabase.ts';
import { pathKey, type DbPath } from './paths.ts';
import { hashSecret, SnapshotCache, type DbWrite, type LocationSnapshot, type RtdbChange, type RtdbStore, type RtdbTransaction, type SecretInfo, type ServiceAccountRecord } from './RtdbStore.ts';
import { RTDB_MIGRATIONS } from './migrations/index.ts';
import { flatten, unflatten, type DbValue, type Leaf } from './tree.ts';

/**
 * {@link RtdbStore} in one SQLite file (`rtdb.db`), for one instance. better-sqlite3 is
 * synchronous; transactions take turns on the one connection (a queue), and reads wait while one
 * is open so they never see its uncommitted writes. Other processes (the `rtdb-secret` command)
 * are serialized by SQLite itself.
 */
export class SqliteRtdbStore implements RtdbStore {
  readonly kind = 'sqlite' as const;
  readonly #db: SqliteDatabase;
  readonly #select;
  readonly #selectAll;
  readonly #deleteSubtree;
  readonly #deleteAll;
  readonly #deleteLeaf;
  readonly #insert;
  readonly #leafAt;
  readonly #firstFrom;
  readonly #firstAfter;
  /** Prepared once: every snapshot (each streaming reader's, after each change) reads it. */
  readonly #dataVersion;
  /** Transactions through this connection; with SQLite's data_version (other connections' commits), when a cached read is stale. */
  #transactions = 0;
  readonly #snapshots = new SnapshotCache();
  readonly #changes: Emitter<RtdbChange>;
  readonly watch: Event<RtdbChange>;
  /** Settles when the open transaction (if any) has ended. */
  #turn: Promise<void> = Promise.resolve();
  #open = false;

  constructor(file: string, options: { onWatcherError?: (error: unknown) => void } = {}) {
    this.#changes = new Emitter({ ...(options.onWatcherError ? { onListenerError: options.onWatcherError } : {}) });
    this.watch = this.#changes.event;
    // Secrets' hashes, service-account keys and people's data: private like the other database files.
    this.#db = openPrivateDatabase(file, { synchronous: 'FULL', tightenExisting: true }, (db) => migrate(db, RTDB_MIGRATIONS));
    // `/` sorts just before `0`: every path below `p` lies in [p + '/', p + '0').
    this.#select = this.#db.prepare<[string, string, string], Leaf>("SELECT path, value AS json FROM leaves WHERE path = ? OR (path >= ? || '/' AND path < ? || '0') ORDER BY path");
    this.#selectAll = this.#db.prepare<[], Leaf>('SELECT path, value AS json FROM leaves ORDER BY path');
    this.#deleteSubtree = this.#db.prepare<[string, string, string]>("DELETE FROM leaves WHERE path = ? OR (path >= ? || '/' AND path < ? || '0')");
    this.#deleteAll = this.#db.prepare('DELETE FROM leaves');
    this.#deleteLeaf = this.#db.prepare<[string]>('DELETE FROM leaves WHERE path = ?');
    this.#insert = this.#db.prepare<[string, string]>('INSERT INTO leaves (path, value) VALUES (?, ?)');
    this.#dataVersion = this.#db.prepare<[], number>('PRAGMA data_version').pluck();
    this.#leafAt = this.#db.prepare<[string], string>('SELECT value FROM leaves WHERE path = ?').pluck();
    this.#firstFrom = this.#db.prepare<[string, string], string>('SELECT path FROM leaves WHERE path >= ? AND path < ? ORDER BY path LIMIT 1').pluck();
    this.#firstAfter = this.#db.prepare<[string, string], string>('SELECT path FROM leaves WHERE path > ? AND path < ? ORDER BY path LIMIT 1').pluck();
  }

  async get(path: DbPath): Promise<DbValue> {
    await this.#settled();
    return this.getNow(path);
  }

  /**
   * The committed value at `path`, synchronously (the search index reads the details feed inside
   * a synchronous rebuild). Between transactions only; {@link get} waits for that.
   */
  getNow(path: DbPath): DbValue {
    const key = pathKey(path);
    const leaves = path.length === 0 ? this.#selectAll.all() : this.#select.all(key, key, key);
    return unflatten(path, leaves);
  }

  /**
   * Children by skipping from one to the next through the primary key's index, never reading
   * the leaves below them: a child's own paths are `c` and `[c/, c0)`, so after finding `c` the
   * search goes on from `c0` — and between `c` and `c/`, where siblings extending `c` with a
   * character sorting before `/` lie (`a-b` after `a`). Two or three seeks per child.
   */
  async shallow(path: DbPath): Promise<DbValue> {
    await this.#settled();
    const key = pathKey(path);
    if (path.length > 0) {
      const leaf = this.#leafAt.get(key);
      if (leaf !== undefined) return JSON.parse(leaf) as DbValue;
    }
    const below = path.length === 0 ? '' : key + '/';
    // Every path below sorts in [below, end): the character after '/' is '0'; at the root, all.
    const end = path.length === 0 ? '\u{10FFFF}\u{10FFFF}' : key + '0';
    const children: Record<string, true> = {};
    let found = false;
    const ranges: { from: string; inclusive: boolean; to: string }[] = [{ from: below, inclusive: true, to: end }];
    while (ranges.length > 0) {
      const { from, inclusive, to } = ranges.pop()!;
      const first = (inclusive ? this.#firstFrom : this.#firstAfter).get(from, to);
      if (first === undefined) continue;
      const child = first.slice(below.length).split('/', 1)[0]!;
      // As JSON.parse would: an own property even for "__proto__".
      Object.defineProperty(children, child, { value: true, enumerable: true, writable: true, configurable: true });
      found = true;
      const own = below + child;
      ranges.push({ from: own + '0', inclusive: true, to });
      if (first === own) ranges.push({ from: own, inclusive: false, to: own + '/' });
    }
    return found ? children : null;
  }

  async snapshot(path: DbPath): Promise<LocationSnapshot> {
    await this.#settled();
    return this.#snapshotNow(path);
  }

  #snapshotNow(path: DbPath): LocationSnapshot {
    const key = pathKey(path);
    const revision = `${this.#transactions}:${this.#dataVersion.get()!}`;
    const cached = this.#snapshots.get(key, revision);
    if (cached) return cached;
    const value = this.getNow(path);
    const json = JSON.stringify(value);
    const snapshot = { value, json, etag: etagOf(json) };
    this.#snapshots.set(key, revision, snapshot);
    return snapshot;
  }

  #writeNow(writes: readonly DbWrite[]): void {
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

  async transaction<T>(work: (tx: RtdbTransaction) => Promise<T>): Promise<T> {
    const previous = this.#turn;
    let done!: () => void;
    this.#turn = new Promise<void>((resolve) => (done = resolve));
    await previous;
    this.#open = true;
    const written: DbWrite[] = [];
    const tx: RtdbTransaction = {
      get: async (path) => this.getNow(path),
      snapshot: async (path) => this.#snapshotNow(path),
      write: async (writes) => {
        // Cached snapshots are keyed by the transaction count: one that saw these writes must not outlive a rollback.
        this.#transactions++;
        this.#writeNow(writes);
        written.push(...writes);
      },
    };
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      let result: T;
      try {
        result = await work(tx);
        this.#db.exec('COMMIT');
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw error;
      } finally {
        if (written.length > 0) this.#transactions++;
      }
      if (written.length > 0) this.#announce({ paths: written.map((w) => w.path), writes: written });
      return result;
    } finally {
      this.#open = false;
      done();
    }
  }

  /** How many watchers are registered (open streams, the rules, the details copy): what a leak would show. */
  get watcherCount(): number {
    return this.#changes.listenerCount;
  }

  #announce(change: RtdbChange): void {
    this.#changes.fire(change);
  }

  async #settled(): Promise<void> {
    while (this.#open) await this.#turn;
  }

  async getSetting(key: string): Promise<string | undefined> {
    await this.#settled();
    const row = this.#db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
    return row?.value;
  }

  async putSetting(key: string, value: string): Promise<void> {
    await this.#settled();
    this.#db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
    this.#announce({ paths: [['.settings', key]] });
  }

  // Legacy secrets ---------------------------------------------------------------------------

  async createSecret(now = new Date()): Promise<{ id: string; secret: string }> {
    await this.#settled();
    const id = randomUUID();
    const secret = randomBytes(30).toString('base64url');
    this.#db.prepare('INSERT INTO secrets (id, secret_hash, created_at) VALUES (?, ?, ?)').run(id, hashSecret(secret), now.toISOString());
    return { id, secret };
  }

  async listSecrets(): Promise<SecretInfo[]> {
    await this.#settled();
    return this.#db.prepare<[], SecretInfo>('SELECT id, created_at AS createdAt, revoked_at AS revokedAt FROM secrets ORDER BY created_at, id').all();
  }

  async revokeSecret(id: string, now = new Date()): Promise<boolean> {
    await this.#settled();
    const found = this.#db.prepare<[string], { id: string }>('SELECT id FROM secrets WHERE id = ?').get(id);
    if (!found) return false;
    this.#db.prepare('UPDATE secrets SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(now.toISOString(), id);
    return true;
  }

  async findLiveSecret(secret: string): Promise<string | undefined> {
    await this.#settled();
    const row = this.#db.prepare<[string], { id: string }>('SELECT id FROM secrets WHERE secret_hash = ? AND revoked_at IS NULL').get(hashSecret(secret));
    return row?.id;
  }

  // Service accounts -------------------------------------------------------------------------

  async putServiceAccount(account: Omit<ServiceAccountRecord, 'createdAt'>, now = new Date()): Promise<void> {
    await this.#settled();
    this.#db
      .prepare('INSERT INTO service_accounts (client_email, key_id, public_key_pem, scopes, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(account.clientEmail, account.keyId, account.publicKeyPem, JSON.stringify(account.scopes), now.toISOString());
  }

  async getServiceAccount(clientEmail: string): Promise<ServiceAccountRecord | undefined> {
    await this.#settled();
    const row = this.#db
      .prepare<[string], { clientEmail: string; keyId: string; publicKeyPem: string; scopes: string; createdAt: string }>(
        'SELECT client_email AS clientEmail, key_id AS keyId, public_key_pem AS publicKeyPem, scopes, created_at AS createdAt FROM service_accounts WHERE client_email = ?',
      )
      .get(clientEmail);
    return row ? { ...row, scopes: JSON.parse(row.scopes) as string[] } : undefined;
  }

  async close(): Promise<void> {
    await this.#settled();
    this.#changes.dispose();
    this.#db.close();
  }
}
