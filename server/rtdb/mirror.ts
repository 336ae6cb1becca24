import { Emitter, type Event } from '../../shared/base/Emitter.ts';
import { DisposableStore, type Disposable } from '../../shared/base/lifecycle.ts';
import type { DbPath } from './paths.ts';
import { afterWrites } from './reads.ts';
import { overlaps, touches, type RtdbStore } from './RtdbStore.ts';
import { childOf, type DbValue } from './tree.ts';

/** The paths written within the location, when known (undefined: anything within it may have changed). */
export type LocationChange = readonly DbPath[] | undefined;

/** A synchronous view of one location of the store; disposing it stops following the store. */
export interface LocationMirror extends Disposable {
  /** The value at `path` (within the mirrored location), synchronously. */
  get(path: DbPath): DbValue;
  /** Fires each time what `get` answers may have changed (after the copy caught up). */
  readonly onDidChange: Event<LocationChange>;
}

/**
 * One location of an asynchronous store held in memory for synchronous readers (the search
 * index reads the details feed inside a synchronous rebuild). This instance's own writes apply
 * at once, before their request is answered; another instance's are re-read when its notice
 * arrives. A re-read that a change overtook is dropped and done again, so the copy converges.
 * `onError` hears a re-read that failed, `onListenerError` a listener that threw (the console by
 * default; the others still hear the change).
 */
export async function mirrorLocation(store: RtdbStore, location: DbPath, onError: (error: Error) => void, onListenerError?: (error: unknown) => void): Promise<LocationMirror> {
  let value = await store.get(location);
  const subscriptions = new DisposableStore();
  const changes = subscriptions.add(new Emitter<LocationChange>(onListenerError ? { onListenerError } : {}));
  const changed = (paths?: readonly DbPath[]) => changes.fire(paths);
  let seen = 0;
  let reading = false;
  let stale = false;
  const reread = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    try {
      while (stale) {
        stale = false;
        const before = seen;
        const read = await store.get(location);
        if (seen === before) value = read;
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
  subscriptions.add(
    store.watch((change) => {
      if (!touches(change, location)) return;
      seen++;
      if (change.writes) {
        value = afterWrites(value, location, change.writes);
        changed(change.writes.map((write) => write.path).filter((path) => overlaps(path, location)));
        return;
      }
      stale = true;
      void reread();
    }),
  );
  return {
    get(path) {
      if (!overlaps(path, location) || path.length < location.length) throw new Error(`/${path.join('/')} is outside the mirrored /${location.join('/')}`);
      return childOf(value, path.slice(location.length));
    },
    onDidChange: changes.event,
    dispose: () => subscriptions.dispose(),
  };
}
