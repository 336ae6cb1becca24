import { Emitter } from '../../shared/base/Emitter.ts';
import { DisposableStore } from '../../shared/base/lifecycle.ts';
import type { DbPath } from './paths.ts';
import { mirrorLocation, type LocationChange, type LocationMirror } from './mirror.ts';
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

/**
 * A synchronous reader of the details feed for the search index: SQLite's own store reads it
 * directly; PostgreSQL's is mirrored in memory ({@link mirrorLocation}). `onError` hears a
 * re-read that failed (PostgreSQL), `onListenerError` a listener that threw (the console by default).
 */
export async function detailsReader(store: RtdbStore, onError: (error: Error) => void, onListenerError?: (error: unknown) => void): Promise<LocationMirror> {
  if (store instanceof SqliteRtdbStore) {
    const subscriptions = new DisposableStore();
    const changes = subscriptions.add(new Emitter<LocationChange>(onListenerError ? { onListenerError } : {}));
    subscriptions.add(
      store.watch((change) => {
        if (!touches(change, DETAILS_PATH)) return;
        changes.fire(change.paths === '*' ? undefined : change.paths.filter((path) => overlaps(path, DETAILS_PATH)));
      }),
    );
    return { get: (at) => store.getNow(at), onDidChange: changes.event, dispose: () => subscriptions.dispose() };
  }
  return mirrorLocation(store, DETAILS_PATH, onError, onListenerError);
}
