import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server/app.ts';
import { AnswerCache, answerKey } from '../../server/search/AnswerCache.ts';
import { serviceStores } from '../support/postgres.ts';
import { openPostgresBreachStoreAt } from '../support/storeOpeners.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('AnswerCache', () => {
  it('serves an answer only for the revision it was made for', () => {
    const cache = new AnswerCache<string>();
    cache.set('1.0', 'k', 'old');
    expect(cache.get('1.0', 'k')).toBe('old');
    expect(cache.get('2.0', 'k')).toBeUndefined();
    cache.set('2.0', 'j', 'new');
    // Moving to a new revision drops everything of the old one.
    expect(cache.size).toBe(1);
    expect(cache.get('1.0', 'k')).toBeUndefined();
  });

  it('drops the least recently used entry past its capacity', () => {
    const cache = new AnswerCache<number>({ capacity: 2 });
    cache.set('r', 'a', 1);
    cache.set('r', 'b', 2);
    expect(cache.get('r', 'a')).toBe(1);
    cache.set('r', 'c', 3);
    expect(cache.get('r', 'b')).toBeUndefined();
    expect([cache.get('r', 'a'), cache.get('r', 'c')]).toEqual([1, 3]);
  });

  it('keeps its keys and answers within its byte budget, least recently used out first, and never keeps one larger than the budget', () => {
    const cache = new AnswerCache<string>({ maxBytes: 100, sizeOf: (value) => value.length * 2 });
    cache.set('r', 'a', 'x'.repeat(20)); // 2 + 40 bytes
    cache.set('r', 'b', 'y'.repeat(20)); // 42 more: 84
    expect(cache.bytes).toBe(84);
    expect(cache.get('r', 'a')).toBe('x'.repeat(20)); // a is now the most recently used
    cache.set('r', 'c', 'z'.repeat(10)); // 22 more: past 100, so b goes
    expect(cache.get('r', 'b')).toBeUndefined();
    expect([cache.get('r', 'a'), cache.get('r', 'c')]).toEqual(['x'.repeat(20), 'z'.repeat(10)]);
    expect(cache.bytes).toBe(64);
    // Replacing an entry counts its new size only.
    cache.set('r', 'a', 'x');
    expect(cache.bytes).toBe(4 + 22);
    // Too large for the whole budget: not kept, and nothing else is dropped for it.
    cache.set('r', 'huge', 'h'.repeat(60));
    expect(cache.get('r', 'huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('keys on account, endpoint and the body as sent, which cannot run into each other', () => {
    expect(answerKey('a', 'search', '{}')).not.toBe(answerKey('a', 'chat', '{}'));
    expect(answerKey('a', 'search', '{}')).not.toBe(answerKey('b', 'search', '{}'));
    expect(answerKey('a\u0000search', 'x', '{}')).not.toBe(answerKey('a', 'search\u0000x', '{}'));
  });
});

// The answer cache is keyed by the index's revision: on each store it must move when the catalog
// changes, including through another instance's store (PostgreSQL), so no remembered answer
// outlives the catalog it was made from.
describe.each(await serviceStores())('the index revision on $name', (store) => {
  if (!store.available) {
    it.skip('PostgreSQL could not start (see the message above)', () => {});
    return;
  }
  let running: RunningService;
  let databaseUrl: string | undefined;
  beforeAll(async () => {
    dirs.push(mkdtempSync(path.join(tmpdir(), 'answer-cache-')));
    databaseUrl = (await store.serviceOptions()).databaseUrl;
    running = await startService({ port: 0, dataDir: dirs.at(-1)!, logLevel: 'silent', demo: true, databaseUrl });
  });
  afterAll(async () => {
    await running.close();
  });

  it('stays put while nothing changes, and moves when another writer changes the catalog', async () => {
    const before = await running.search.index.revision();
    expect(await running.search.index.revision()).toBe(before);
    // Another instance's store on the same database, or this instance's own SQLite store.
    const other = databaseUrl ? await openPostgresBreachStoreAt({ url: databaseUrl }) : undefined;
    try {
      const writer = other ?? running.store;
      await writer.putBreach({
        id: 'Revisiontest',
        domain: 'revision.example',
        breachDate: '2024-01-01',
        addedDate: '2024-02-01T00:00:00Z',
        modifiedDate: '2024-02-01T00:00:00Z',
        dataClasses: ['Passwords'],
        isSensitive: false,
      });
    } finally {
      await other?.close();
    }
    const after = await running.search.index.revision();
    expect(after).not.toBe(before);
    const cache = new AnswerCache<string>();
    cache.set(before, 'k', 'made before the change');
    expect(cache.get(after, 'k')).toBeUndefined();
    const hits = await running.search.index.search({ query: 'Revisiontest', maxResults: 5 });
    expect(hits[0]?.doc.id).toBe('Revisiontest');
  });

  it('moves when the details feed changes without the catalog, and not for a rebuild from the same details', async () => {
    let before = await running.search.index.revision();
    await running.search.index.rebuild();
    // On PostgreSQL the shared index knows which details it was built from (instances rebuild once).
    if (databaseUrl) expect(await running.search.index.revision()).toBe(before);
    before = await running.search.index.revision();
    // Written as any writer of the feed would: the service notices and rebuilds.
    const [id] = (await running.store.listBreaches()).map((breach) => breach.id);
    await running.rtdb.transaction((tx) => tx.write([{ path: ['catalog', 'breaches', id!, 'description'], value: 'A description changed on its own.' }]));
    await expect.poll(() => running.search.index.revision(), { timeout: 10_000 }).not.toBe(before);
  });
});
