import type { HandlerSlice } from './combineHandlers.ts';
import type { DetailsFeed } from '../feed/DetailsFeed.ts';

/** The details feed and the person's shared preferences. */
export function createFeedHandlers({ feed, openExternal }: { feed: DetailsFeed; openExternal(url: string): Promise<void | 'opened' | 'page'> }) {
  return {
    'feed-status': () => feed.status(),
    'feed-sync': async () => {
      // A failed sync is reported in the status (lastError) rather than thrown: the UI shows it there.
      await feed.sync().catch(() => undefined);
      return feed.status();
    },
    'feed-configure': (change) => feed.configure(change),
    'breach-logo': async ({ id }) => {
      const dataUrl = await feed.logo(id);
      return dataUrl ? { dataUrl } : {};
    },
    'open-link': async ({ url }) => {
      return (await openExternal(url)) === 'page' ? { openHere: true } : {};
    },
    'preferences-get': () => feed.preferences(),
    'preferences-set': (preferences) => feed.setPreferences(preferences),
  } satisfies HandlerSlice;
}
