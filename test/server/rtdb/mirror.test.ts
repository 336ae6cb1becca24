// The details feed as the search index reads it (detailsReader): SQLite's own store read
// directly, PostgreSQL's held in memory and caught up from another instance's notices. Either way
// its change event is an Emitter (shared/base): a listener that throws is reported and the ones
// after it still hear the change, and disposing the reader stops it following the store.
import { describe, expect, it } from 'vitest';
import { DETAILS_PATH, detailsReader } from '../../../server/rtdb/detailsFeed.ts';
import type { LocationChange } from '../../../server/rtdb/mirror.ts';
import type { RtdbStore } from '../../../server/rtdb/RtdbStore.ts';
import { STORE_KINDS, useRtdbStores } from './stores.ts';

const stores = useRtdbStores();
const watchers = (store: RtdbStore) => (store as RtdbStore & { watcherCount: number }).watcherCount;

describe.each(STORE_KINDS)('the details feed reader on %s', (kind) => {
  it('tells its listeners which breaches changed, past one that throws, until it is disposed', async (ctx) => {
    const place = (await stores.place(kind)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    const writer = await place.open();
    // On PostgreSQL the reader's store is another instance: its copy catches up from the notice.
    const store = await place.open();
    const before = watchers(store);
    const readErrors: Error[] = [];
    const listenerErrors: unknown[] = [];
    const reader = await detailsReader(
      store,
      (error) => readErrors.push(error),
      (error) => listenerErrors.push(error),
    );
    expect(watchers(store)).toBe(before + 1);
    const broken = reader.onDidChange(() => {
      throw new Error('index broke');
    });
    const heard: LocationChange[] = [];
    const first = new Promise<void>((resolve) => reader.onDidChange((paths) => (heard.push(paths), resolve())));

    await writer.transaction((tx) => tx.write([{ path: [...DETAILS_PATH, 'adobe'], value: { title: 'Adobe' } }]));
    await first;
    expect(reader.get([...DETAILS_PATH, 'adobe'])).toEqual({ title: 'Adobe' });
    // This instance's write names its breach; another instance's notice may stand for anything (undefined).
    expect(heard[0] === undefined || heard[0].some((path) => path.join('/') === 'catalog/breaches/adobe')).toBe(true);
    expect(listenerErrors).toEqual(heard.map(() => new Error('index broke')));
    expect(readErrors).toEqual([]);

    broken.dispose();
    reader.dispose();
    expect(watchers(store)).toBe(before);
    // A watcher of the same store hears the next write: by then the reader would have too.
    const count = heard.length;
    const sentinel = new Promise<void>((resolve) => store.watch(() => resolve()));
    await writer.transaction((tx) => tx.write([{ path: [...DETAILS_PATH, 'adobe', 'title'], value: 'Adobe Inc.' }]));
    await sentinel;
    expect(heard).toHaveLength(count);
  });
});
