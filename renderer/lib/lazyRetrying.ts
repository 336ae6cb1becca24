import { lazy, type ComponentType } from 'react';

/** Waits between tries of a chunk that did not load: about half a minute in all. */
const WAITS_MS = [250, 500, 1000, 2000, 4000, 8000, 15_000];

/**
 * `React.lazy` whose chunk is asked again when it could not be fetched. In the browser host a
 * chunk asked while the app restarts (or the network blinks) fails, and a lazy component that
 * fails takes the whole screen down with it; asked again once the app is back, it loads.
 */
export function lazyRetrying<P extends object>(load: () => Promise<{ default: ComponentType<P> }>, waits: readonly number[] = WAITS_MS) {
  return lazy(async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await load();
      } catch (error) {
        if (attempt >= waits.length) throw error;
        await new Promise((resolve) => setTimeout(resolve, waits[attempt]));
      }
    }
  });
}
