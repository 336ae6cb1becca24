import path from 'node:path';
import type { DbPath } from './paths.ts';
import { mirrorLocation, type LocationMirror } from './mirror.ts';
import { overlaps, touches, type RtdbStore } from './RtdbStore.ts';
import { SqliteRtdbStore } from './SqliteRtdbStore.ts';

export const RTDB_FILE = 'rtdb.db';
/** The details feed: what the search index reads beside the catalog. */
export const DETAILS_PATH: DbPath = ['catalog', 'breaches'];

/**
 * The breach ids whose details the written `paths` (within the feed) changed, or undefined when
 * a write replaced the feed itself (or an ancestor) or the paths are not known: then all may have.
 */
export function changedDetailIds(paths: readonly DbPath[] | undefined): string[] | undefined {
  if (paths === undefined) return undefined;
  const ids: string[] = [];
  for (const path of paths) {
    if (path.length <= DETAILS_PATH.length) return undefined;
    ids.push(path[DETAILS_PATH.length]!);
  }
  return ids;
}

export interface RtdbStoreChoice {
  dataDir: string;
  /** PostgreSQL, shared by instances; without it the SQLite file `rtdb.db` in the data folder. */
  databaseUrl?: string | undefined;
  databasePoolSize?: number | undefined;
}

/** The realtime database's store on the same choice as the breach store. */
export async function openRtdbStore(choice: RtdbStoreChoice, onConnectionError: (error: Error) => void = () => {}): Promise<RtdbStore> {
  if (!choice.databaseUrl) return new SqliteRtdbStore(path.join(choice.dataDir, RTDB_FILE));
  // A few connections: database requests are a small part of the service's load.
  // Loaded only here, so the SQLite path (and the small commands) never load the driver.
  const { openPostgresRtdbStore } = await import('./PostgresRtdbStore.ts');
  return openPostgresRtdbStore({ url: choice.databaseUrl, poolSize: Math.max(2, Math.ceil((choice.databasePoolSize ?? 10) / 2)), onConnectionError });
}

/**
 * A synchronous reader of the details feed for the search index: SQLite's own store reads it
 * directly; PostgreSQL's is mirrored in memory ({@link mirrorLocation}).
 */
export async function detailsReader(store: RtdbStore, onError: (error: Error) => void): Promise<LocationMirror> {
  if (store instanceof SqliteRtdbStore) {
    const listeners = new Set<(paths: readonly DbPath[] | undefined) => void>();
    const stop = store.watch((change) => {
      if (!touches(change, DETAILS_PATH)) return;
      const paths = change.paths === '*' ? undefined : change.paths.filter((path) => overlaps(path, DETAILS_PATH));
      for (const listener of listeners) listener(paths);
    });
    return {
      get: (at) => store.getNow(at),
      onDidChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close() {
        listeners.clear();
        stop();
      },
    };
  }
  return mirrorLocation(store, DETAILS_PATH, onError);
}
