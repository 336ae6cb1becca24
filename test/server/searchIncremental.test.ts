// The SQLite search index updates one breach at a time when the store can say which breaches a
// catalog write touched; these properties hold it to the answers of an index rebuilt from a full
// read after every step, over random sequences of adds, changes, removals and details edits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Breach } from '../../shared/api/index.ts';
import type { BreachDetails } from '../../shared/catalog/index.ts';
import { parseMetadataFilter, BREACH_FILTER_FIELDS, type SearchOptions } from '../../shared/search/index.ts';
import { demoBreachDetails } from '../../server/catalog/demoDetails.ts';
import { changedDetailIds } from '../../server/rtdb/detailsFeed.ts';
import { CatalogSearchIndex } from '../../server/search/CatalogSearchIndex.ts';
import { openSqliteBreachStore, type SqliteBreachStore } from '../../server/breaches/SqliteBreachStore.ts';

const IDS = ['Adobe', 'LinkedIn', 'Canva', 'Dropbox', 'MySpace', 'Zynga', 'Ébay', '__proto__', 'Tumblr', 'Gamer'];
const WORDS = ['games', 'forum', 'dating', 'crypto', 'passwords', 'music', 'photos', 'shop', 'adobe', 'social'];
const CLASSES = ['Email addresses', 'Passwords', 'Phone numbers', 'Usernames', 'IP addresses'];

const QUERIES: SearchOptions[] = [
  { query: 'games forum', maxResults: 10 },
  { query: 'dating passwords', maxResults: 10 },
  { query: 'adobe', maxResults: 3 },
  { query: 'crypto shop music photos', maxResults: 10 },
  { query: 'email addresses phone numbers', maxResults: 10 },
  { query: '', filter: parseMetadataFilter({ dataClasses: 'Passwords' }, BREACH_FILTER_FIELDS), maxResults: 10 },
  { query: 'social', filter: parseMetadataFilter({ isSensitive: false }, BREACH_FILTER_FIELDS), maxResults: 10 },
];

const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
const breachOf = (id: string) =>
  fc
    .record({
      domain: fc.constantFrom('', 'example.com', 'games.example', 'shop.example'),
      day: fc.integer({ min: 1, max: 28 }),
      dataClasses: fc.uniqueArray(fc.constantFrom(...CLASSES), { minLength: 1, maxLength: 4 }),
      isSensitive: fc.boolean(),
    })
    .map(({ domain, day, dataClasses, isSensitive }): Breach => {
      const date = `2020-01-${String(day).padStart(2, '0')}`;
      return { id, domain, breachDate: date, addedDate: `${date}T00:00:00Z`, modifiedDate: `${date}T00:00:00Z`, dataClasses: [...dataClasses].sort(), isSensitive };
    });

type Step = { kind: 'put'; breach: Breach } | { kind: 'remove'; id: string } | { kind: 'details'; id: string; title: string; description: string } | { kind: 'dropDetails'; id: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...IDS).chain((id) => breachOf(id).map((breach): Step => ({ kind: 'put', breach }))) },
  { weight: 1, arbitrary: fc.constantFrom(...IDS).map((id): Step => ({ kind: 'remove', id })) },
  { weight: 2, arbitrary: fc.record({ id: fc.constantFrom(...IDS), title: text, description: text }).map((d): Step => ({ kind: 'details', ...d })) },
  { weight: 1, arbitrary: fc.constantFrom(...IDS).map((id): Step => ({ kind: 'dropDetails', id })) },
);

/** As the service's `parseDetailsRecord` gives them: no prototype, so `__proto__` is only an id. */
const copyOf = (details: Record<string, BreachDetails>) => Object.assign(Object.create(null) as Record<string, BreachDetails>, details);

/** The catalog (a real SQLite store) and the details feed, with an incremental index and a rebuilt one over them. */
function setUp() {
  const store = openSqliteBreachStore(':memory:');
  const details: Record<string, BreachDetails> = Object.create(null) as Record<string, BreachDetails>;
  const incremental = new CatalogSearchIndex({
    catalogRevision: () => store.catalogRevision(),
    listBreaches: () => store.listBreaches(),
    readDetails: () => copyOf(details),
    catalogChangesSince: (revision) => store.catalogChangesSince(revision),
    getBreach: (id) => store.getBreach(id),
    readDetailsOf: (id) => details[id],
  });
  const rebuilt = new CatalogSearchIndex({ catalogRevision: () => store.catalogRevision(), listBreaches: () => store.listBreaches(), readDetails: () => copyOf(details) });
  return { store, details, incremental, rebuilt };
}

async function answers(index: CatalogSearchIndex) {
  return Promise.all(QUERIES.map(async (options) => (await index.search(options)).map((hit) => ({ id: hit.doc.id, title: hit.doc.title, score: hit.score }))));
}

const opened: { store: SqliteBreachStore; incremental: CatalogSearchIndex; rebuilt: CatalogSearchIndex }[] = [];
afterEach(async () => {
  for (const { store, incremental, rebuilt } of opened.splice(0)) {
    await incremental.close();
    await rebuilt.close();
    store.close();
  }
});

describe('the SQLite search index, updated one breach at a time', () => {
  it('answers every query as an index rebuilt from a full read does, after any sequence of catalog and details changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), fc.array(fc.constantFrom(...IDS), { maxLength: 4 }), async (steps, seeded) => {
        const state = setUp();
        opened.push(state);
        const { store, details, incremental, rebuilt } = state;
        // A bulk load first (one transaction, the index reads everything), then single changes.
        const initial = [...new Set(seeded)].map((id): Breach => ({
          id,
          domain: 'seed.example',
          breachDate: '2019-05-05',
          addedDate: '2019-05-05T00:00:00Z',
          modifiedDate: '2019-05-05T00:00:00Z',
          dataClasses: ['Passwords'],
          isSensitive: false,
        }));
        store.replaceCatalog(initial);
        for (const breach of initial) details[breach.id] = demoBreachDetails(breach);
        expect(await answers(incremental)).toEqual(await answers(rebuilt));
        for (const change of steps) {
          if (change.kind === 'put') store.putBreach(change.breach);
          else if (change.kind === 'remove') store.replaceCatalog(store.listBreaches().filter((breach) => breach.id !== change.id));
          else {
            const breach = store.getBreach(change.id);
            if (change.kind === 'dropDetails') delete details[change.id];
            else if (breach) details[change.id] = { ...demoBreachDetails(breach), title: change.title, description: change.description };
            else continue;
            await incremental.rebuild([change.id]);
            await rebuilt.rebuild();
          }
          expect(await answers(incremental)).toEqual(await answers(rebuilt));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('re-indexes only the written breach: the store names it, and a write by another connection makes it read everything', () => {
    const state = setUp();
    opened.push(state);
    const { store } = state;
    const revision = store.catalogRevision();
    const breach: Breach = {
      id: 'Canva',
      domain: 'canva.com',
      breachDate: '2019-05-24',
      addedDate: '2019-05-24T00:00:00Z',
      modifiedDate: '2019-05-24T00:00:00Z',
      dataClasses: ['Passwords'],
      isSensitive: false,
    };
    store.putBreach(breach);
    store.putBreach({ ...breach, id: 'Adobe' });
    expect(store.catalogChangesSince(revision)).toEqual(['Canva', 'Adobe']);
    expect(store.catalogChangesSince(revision + 1)).toEqual(['Adobe']);
    expect(store.catalogChangesSince(store.catalogRevision())).toEqual([]);
    expect(store.listBreaches().map((b) => b.id)).toEqual(['Adobe', 'Canva']);
    store.replaceCatalog([breach]);
    expect(store.catalogChangesSince(revision)).toBeUndefined();
  });

  it('reads everything after another process wrote the catalog file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'search-incremental-'));
    const file = path.join(dir, 'service.db');
    const mine = openSqliteBreachStore(file);
    const theirs = openSqliteBreachStore(file);
    try {
      const breach: Breach = {
        id: 'Canva',
        domain: 'canva.com',
        breachDate: '2019-05-24',
        addedDate: '2019-05-24T00:00:00Z',
        modifiedDate: '2019-05-24T00:00:00Z',
        dataClasses: ['Passwords'],
        isSensitive: false,
      };
      const revision = mine.catalogRevision();
      mine.putBreach(breach);
      theirs.putBreach({ ...breach, id: 'Adobe' });
      expect(mine.catalogChangesSince(revision)).toBeUndefined();
      mine.putBreach({ ...breach, id: 'Zynga' });
      expect(mine.catalogChangesSince(revision + 2)).toEqual(['Zynga']);
      expect(mine.listBreaches().map((b) => b.id)).toEqual(['Adobe', 'Canva', 'Zynga']);
    } finally {
      mine.close();
      theirs.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('which breaches a write to the details feed changed', () => {
  it('names the breach under each written path, and everything for a write at or above the feed', () => {
    expect(
      changedDetailIds([
        ['catalog', 'breaches', 'Adobe'],
        ['catalog', 'breaches', 'Canva', 'title'],
      ]),
    ).toEqual(['Adobe', 'Canva']);
    expect(changedDetailIds([])).toEqual([]);
    expect(
      changedDetailIds([
        ['catalog', 'breaches', 'Adobe'],
        ['catalog', 'breaches'],
      ]),
    ).toBeUndefined();
    expect(changedDetailIds([['catalog']])).toBeUndefined();
    expect(changedDetailIds([[]])).toBeUndefined();
    expect(changedDetailIds(undefined)).toBeUndefined();
  });
});
