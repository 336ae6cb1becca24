import { createHash } from 'node:crypto';
import { BoundedMap } from '../../shared/base/BoundedMap.ts';
import type { Event } from '../../shared/base/Emitter.ts';
import type { DbPath } from './paths.ts';
import type { DbValue } from './tree.ts';

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

/** Where the rules live among the changed paths: no data key can start with a dot. */
export const SETTINGS_PATH: DbPath = ['.settings'];

/**
 * What changed: the written locations (settings under {@link SETTINGS_PATH}), or `'*'` when
 * anything may have (a notice too long to list, or a listening connection that was lost).
 * `writes` is present for this instance's own writes, so a mirror can apply them at once.
 */
export interface RtdbChange {
  paths: readonly DbPath[] | '*';
  writes?: readonly DbWrite[];
}

/** The reads and writes of one {@link RtdbStore.transaction}: all of its writes or none. */
export interface RtdbTransaction {
  get(path: DbPath): Promise<DbValue>;
  snapshot(path: DbPath): Promise<LocationSnapshot>;
  write(writes: readonly DbWrite[]): Promise<void>;
}

/**
 * Storage of the realtime database: the JSON tree, its rules, legacy secrets and the identity
 * provider's service accounts. SQLite (`rtdb.db` in the data folder) for one instance,
 * PostgreSQL for several. A request's checks and its write run inside one
 * {@link RtdbStore.transaction}, which no other writer (of any instance) interleaves with, so a
 * conditional write cannot race another one.
 */
export interface RtdbStore {
  readonly kind: 'sqlite' | 'postgresql';
  /** The JSON at `path` (null where nothing is). */
  get(path: DbPath): Promise<DbValue>;
  /**
   * The value at `path` with its JSON text and ETag, cached until the next write of any instance
   * (reads of a large location, like the whole catalog, are then one revision check). Callers
   * must not mutate the value.
   */
  snapshot(path: DbPath): Promise<LocationSnapshot>;
  /**
   * What `?shallow=true` answers: the value at `path` when it is a leaf (null when nothing is),
   * else `{child: true}` for each child, found without reading the children's values, so its
   * cost is the number of children rather than of leaves. Optional: without it the router
   * builds the value and keeps its keys.
   */
  shallow?(path: DbPath): Promise<DbValue>;
  /** Runs `work` in one transaction that no other writer interleaves with; retried when it lost a race, so `work` must be repeatable. */
  transaction<T>(work: (tx: RtdbTransaction) => Promise<T>): Promise<T>;
  /**
   * Tells a listener about every committed change, this instance's at once and other instances'
   * when their notices arrive. A listener that throws is reported (`onWatcherError`) and the
   * others still hear the change: the write it follows has committed either way.
   */
  readonly watch: Event<RtdbChange>;

  getSetting(key: string): Promise<string | undefined>;
  putSetting(key: string, value: string): Promise<void>;

  /** A new secret; only its hash is stored, so the returned value is the one chance to see it. */
  createSecret(now?: Date): Promise<{ id: string; secret: string }>;
  listSecrets(): Promise<SecretInfo[]>;
  /** False when no secret has that id. Revoking twice keeps the first time. */
  revokeSecret(id: string, now?: Date): Promise<boolean>;
  /** The id of the live secret with this value, if any. */
  findLiveSecret(secret: string): Promise<string | undefined>;

  putServiceAccount(account: Omit<ServiceAccountRecord, 'createdAt'>, now?: Date): Promise<void>;
  getServiceAccount(clientEmail: string): Promise<ServiceAccountRecord | undefined>;

  close(): Promise<void>;
}

/** Secrets are long random strings, so a plain SHA-256 is enough to make the stored form useless. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** True when `change` may have altered the value at `location` (every watcher's filter). */
export function touches(change: RtdbChange, location: DbPath): boolean {
  return change.paths === '*' || change.paths.some((changed) => overlaps(changed, location));
}

/** True when a change at `changed` can alter the value at `watched` (one lies within the other). */
export function overlaps(changed: DbPath, watched: DbPath): boolean {
  const length = Math.min(changed.length, watched.length);
  for (let i = 0; i < length; i++) if (changed[i] !== watched[i]) return false;
  return true;
}

/**
 * What the snapshots kept for repeated reads may weigh in all: each holds its JSON text (two bytes
 * a character) and the value parsed from it (about as much again), counted as four bytes a
 * character of the text. The details feed, the largest location read, is about 0.7 MB of JSON.
 */
export const SNAPSHOT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A small most-recently-added cache of snapshots, each valid for one store revision: at most
 * `max` of them and {@link SNAPSHOT_CACHE_MAX_BYTES} in all, the oldest added out first; a
 * snapshot larger than the whole budget is not kept (it is read again when asked for).
 */
export class SnapshotCache {
  readonly #entries: BoundedMap<string, { revision: string; snapshot: LocationSnapshot }>;

  constructor(max = 32, maxBytes = SNAPSHOT_CACHE_MAX_BYTES) {
    this.#entries = new BoundedMap(max, maxBytes);
  }

  /** What the kept snapshots weigh, as counted against the budget. */
  get bytes(): number {
    return this.#entries.bytes;
  }

  get(key: string, revision: string): LocationSnapshot | undefined {
    const cached = this.#entries.get(key);
    return cached?.revision === revision ? cached.snapshot : undefined;
  }

  set(key: string, revision: string, snapshot: LocationSnapshot): void {
    this.#entries.set(key, { revision, snapshot }, snapshot.json.length * 4);
  }
}
