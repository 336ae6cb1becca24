// The PostgreSQL search index updates only what changed when the shared catalog log
// (`catalog_log`, migration 80) names the breaches written since it was built and the documents'
// details hashes name those whose details changed: these tests hold its tables, row for row, to
// a build from a full read after every step, and check that an unchanged document is not written.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Breach } from '../../shared/api/index.ts';
import type { BreachDetails } from '../../shared/catalog/index.ts';
import { demoBreachDetails } from '../../server/catalog/demoDetails.ts';
import { PostgresSearchIndex } from '../../server/search/PostgresSearchIndex.ts';
import { migratePostgresAt } from '../support/storeOpeners.ts';
import { openPostgresBreachStore } from '../../server/breaches/postgres/openPostgresBreachStore.ts';
import type { PostgresBreachStore } from '../../server/breaches/postgres/PostgresBreachStore.ts';
import { usePrivatePostgres } from '../support/postgres.ts';

const postgres = usePrivatePostgres();
const IDS = ['Adobe', 'LinkedIn', 'Canva', 'Dropbox', 'Zynga', 'Ébay'];
const WORDS = ['games', 'forum', 'dating', 'crypto', 'passwords', 'music'];

let url: string;
let pool: pg.Pool;
let store: PostgresBreachStore;
let details: Record<string, BreachDetails>;
let index: PostgresSearchIndex;

beforeAll(async () => {
  if (!postgres.server()) return;
  url = await postgres.server()!.createDatabase();
  await migratePostgresAt(url);
  pool = new pg.Pool({ connectionString: url, max: 3 });
  store = await openPostgresBreachStore({ url, pool });
  index = new PostgresSearchIndex(pool, 'test', async () => ({ ...details }));
}, 60_000);
afterAll(async () => {
  await store?.close();
  await pool?.end();
});
beforeEach((context) => {
  if (!postgres.server()) context.skip();
});

function breach(id: string, day: number, dataClasses: string[]): Breach {
  const date = `2020-01-${String(day).padStart(2, '0')}`;
  return { id, domain: `${id.toLowerCase()}.example`, breachDate: date, addedDate: `${date}T00:00:00Z`, modifiedDate: `${date}T00:00:00Z`, dataClasses, isSensitive: false };
}

/** Everything the index holds: documents (with their words and details hashes), postings, corpus figures. */
async function indexTables() {
  const documents = await pool.query(
    'SELECT id, document, record, breach_date, added_at, title_words, domain_words, class_words, description_words, word_count, details_hash FROM search_documents ORDER BY id COLLATE "C"',
  );
  const postings = await pool.query('SELECT lexeme, id, weighted_count FROM search_postings ORDER BY lexeme COLLATE "C", id COLLATE "C"');
  const state = await pool.query('SELECT catalog_revision::text, document_count::text, average_word_count, details_fingerprint FROM search_index_state');
  return { documents: documents.rows, postings: postings.rows, state: state.rows };
}

/** The index as a build from a full read makes it (the state forgotten, so the next request reads everything). */
async function fullBuild() {
  await pool.query('DELETE FROM search_index_state');
  await index.revision();
  return indexTables();
}

const xmins = async () => new Map((await pool.query<{ id: string; xmin: string }>('SELECT id, xmin::text FROM search_documents')).rows.map((row) => [row.id, row.xmin]));

type Step = { kind: 'put'; id: string; day: number; classes: string[] } | { kind: 'remove'; id: string } | { kind: 'details'; id: string; words: string[] };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('put' as const),
    id: fc.constantFrom(...IDS),
    day: fc.integer({ min: 1, max: 28 }),
    classes: fc.uniqueArray(fc.constantFrom('Passwords', 'Email addresses', 'Usernames'), { minLength: 1 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.constantFrom(...IDS) }),
  fc.record({ kind: fc.constant('details' as const), id: fc.constantFrom(...IDS), words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }) }),
);

describe('the PostgreSQL search index, updated from the catalog log', () => {
  it('holds, after any sequence of puts, removals and details edits, exactly what a build from a full read holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        details = {};
        await store.replaceCatalog([breach('Adobe', 1, ['Passwords'])]);
        details.Adobe = demoBreachDetails(breach('Adobe', 1, ['Passwords']));
        await fullBuild();
        for (const change of steps) {
          if (change.kind === 'put') await store.putBreach(breach(change.id, change.day, change.classes));
          else if (change.kind === 'remove') await store.replaceCatalog((await store.listBreaches()).filter((b) => b.id !== change.id));
          else {
            const known = await store.getBreach(change.id);
            if (!known) continue;
            details[change.id] = { ...demoBreachDetails(known), title: change.words.join(' '), description: change.words.join(' ') };
            await index.rebuild();
          }
          await index.revision();
          const updated = await indexTables();
          expect(updated).toEqual(await fullBuild());
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('writes only the added breach, and only the breach whose details changed', async () => {
    details = {};
    const catalog = IDS.map((id, i) => breach(id, i + 1, ['Passwords']));
    await store.replaceCatalog(catalog);
    for (const b of catalog) details[b.id] = demoBreachDetails(b);
    await fullBuild();
    const before = await xmins();

    await store.putBreach(breach('Newcomer', 9, ['Usernames']));
    details.Newcomer = demoBreachDetails(breach('Newcomer', 9, ['Usernames']));
    await index.rebuild();
    expect((await index.search({ query: 'newcomer', maxResults: 5 })).map((hit) => hit.doc.id)).toEqual(['Newcomer']);
    const afterAdd = await xmins();
    for (const id of IDS) expect(afterAdd.get(id), id).toBe(before.get(id));

    details.Canva = { ...details.Canva!, title: 'Canva crypto forum' };
    await index.rebuild();
    expect((await index.search({ query: 'crypto', maxResults: 5 })).map((hit) => hit.doc.id)).toEqual(['Canva']);
    const afterDetails = await xmins();
    for (const id of [...IDS, 'Newcomer']) {
      if (id === 'Canva') expect(afterDetails.get(id)).not.toBe(afterAdd.get(id));
      else expect(afterDetails.get(id), id).toBe(afterAdd.get(id));
    }
  });

  it('reads everything after a whole-catalog replacement, or when the log does not reach back', async () => {
    details = {};
    await store.replaceCatalog([breach('Adobe', 1, ['Passwords'])]);
    const revision = await store.catalogRevision();
    await store.putBreach(breach('Canva', 2, ['Passwords']));
    await store.putBreaches([breach('Zynga', 3, ['Passwords']), breach('Dropbox', 4, ['Passwords'])]);
    expect(await store.catalogChangesSince(revision)).toEqual(['Canva', 'Zynga', 'Dropbox']);
    expect(await store.catalogChangesSince(revision + 2)).toEqual([]);
    await store.replaceCatalog([breach('Adobe', 1, ['Passwords'])]);
    expect(await store.catalogChangesSince(revision)).toBeUndefined();
    await pool.query('DELETE FROM catalog_log WHERE revision = $1', [revision + 3]);
    expect(await store.catalogChangesSince(revision + 2)).toBeUndefined();
  });
});
