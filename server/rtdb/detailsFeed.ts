import { Emitter } from '../../shared/base/Emitter.ts';
import { DisposableStore } from '../../shared/base/lifecycle.ts';
import { feedKeyOf, idOfFeedKey, type CatalogDetails } from '../../shared/catalog/index.ts';
import { keyProblem, type DbPath } from './paths.ts';
import type { DbValue } from './tree.ts';
import { mirrorLocation, type LocationChange, type LocationMirror } from './mirror.ts';
import { overlaps, touches, type RtdbStore } from './RtdbStore.ts';
import { SqliteRtdbStore } from './SqliteRtdbStore.ts';

export const RTDB_FILE = 'rtdb.db';
/** The details feed: what the search index reads beside the catalog. */
export const DETAILS_PATH: DbPath = ['catalog', 'breaches'];

/** Where one breach's details sit in the feed: its id as a database key (`shared/catalog/feedKeys.ts`). */
export function detailsPathOf(id: string): DbPath {
  return [...DETAILS_PATH, feedKeyOf(id)];
}

/**
 * The feed's value for `details`: keyed by {@link feedKeyOf}, without a prototype. A breach
 * whose key the database cannot hold even so (over 768 bytes) is left out and told to
 * `onLeftOut`, so one record costs only itself, never the feed.
 */
export function toFeedValue(details: CatalogDetails, onLeftOut: (id: string, problem: string) => void): Record<string, DbValue> {
  const value = Object.create(null) as Record<string, DbValue>;
  for (const [id, entry] of Object.entries(details)) {
    const key = feedKeyOf(id);
    const problem = keyProblem(key);
    if (problem) onLeftOut(id, problem);
    else value[key] = entry as DbValue;
  }
  return value;
}

/** The feed's value read back: keyed by breach id ({@link idOfFeedKey}), without a prototype; not an object reads as empty. */
export function fromFeedValue(value: unknown): Record<string, unknown> {
  const byId = Object.create(null) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null) return byId;
  for (const [key, entry] of Object.entries(value)) byId[idOfFeedKey(key)] = entry;
  return byId;
}

/**
 * The writer of the whole feed (`null` empties it): each breach left out is logged once per
 * writer (the service's life), not at every refresh.
 */
export function detailsFeedWriter(write: (value: Record<string, DbValue> | null) => Promise<void>, warn: (id: string, problem: string) => void): (details: CatalogDetails | null) => Promise<void> {
  const told = new Set<string>();
  return (details) =>
    write(
      details === null
        ? null
        : toFeedValue(details, (id, problem) => {
            if (told.has(id)) return;
            told.add(id);
            warn(id, problem);
          }),
    );
}

/**
 * The breach ids whose details the written `paths` (within the feed) changed, or undefined when
 * a write replaced the feed itself (or an ancestor) or the paths are not known: then all may have.
 */
export function changedDetailIds(paths: readonly DbPath[] | undefined): string[] | undefined {
  if (paths === undefined) return undefined;
  const ids: string[] = [];
  for (const path of paths) {
    if (path.length <= DETAILS_PATH.length) return undefined;
    ids.push(idOfFeedKey(path[DETAILS_PATH.length]!));
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
