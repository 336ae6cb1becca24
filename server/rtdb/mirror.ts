import type { DbPath } from './paths.ts';
import { afterWrites } from './reads.ts';
import { overlaps, touches, type RtdbStore } from './RtdbStore.ts';
import { childOf, type DbValue } from './tree.ts';

export interface LocationMirror {
  /** The value at `path` (within the mirrored location), synchronously. */
  get(path: DbPath): DbValue;
  /**
   * Tells `listener` each time what `get` answers may have changed (after the copy caught up),
   * with the written paths when known (undefined: anything within the location may have).
   */
  onDidChange(listener: (paths: readonly DbPath[] | undefined) => void): () => void;
  close(): void;
}

/**
 * One location of an asynchronous store held in memory for synchronous readers (the search
 * index reads the details feed inside a synchronous rebuild). This instance's own writes apply
 * at once, before their request is answered; another instance's are re-read when its notice
 * arrives. A re-read that a change overtook is dropped and done again, so the copy converges.
 */
export async function mirrorLocation(store: RtdbStore, location: DbPath, onError: (error: Error) => void): Promise<LocationMirror> {
  let value = await store.get(location);
  const listeners = new Set<(paths: readonly DbPath[] | undefined) => void>();
  const changed = (paths?: readonly DbPath[]) => {
    for (const listener of listeners) listener(paths);
  };
  let changes = 0;
  let reading = false;
  let stale = false;
  const reread = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    try {
      while (stale) {
        stale = false;
        const before = changes;
        const read = await store.get(location);
        if (changes === before) value = read;
        else stale = true;
      }
      changed();
    } catch (error) {
      // Tried again on the next notice (a lost listening connection announces everything when it is back).
      onError(error as Error);
    } finally {
      reading = false;
    }
  };
  const stop = store.watch((change) => {
    if (!touches(change, location)) return;
    changes++;
    if (change.writes) {
      value = afterWrites(value, location, change.writes);
      changed(change.writes.map((write) => write.path).filter((path) => overlaps(path, location)));
      return;
    }
    stale = true;
    void reread();
  });
  return {
    get(path) {
      if (!overlaps(path, location) || path.length < location.length) throw new Error(`/${path.join('/')} is outside the mirrored /${location.join('/')}`);
      return childOf(value, path.slice(location.length));
    },
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
