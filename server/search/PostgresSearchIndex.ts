import { createHash } from 'node:crypto';
import type pg from 'pg';
import {
  breachIdOfKey,
  compileFilter,
  filterRecordOf,
  indexWords,
  isEmptyFilter,
  isMatchScore,
  relativeScore,
  searchTerms,
  toSearchDocument,
  type BreachSearchDocument,
  type FilterRecord,
  type SearchHit,
  type SearchOptions,
} from '../../shared/search/index.ts';
import { fromBreachColumns, type BreachColumns } from '../breaches/breachRows.ts';
import { catalogChangesSince } from '../breaches/postgres/catalogLog.ts';
import { guarded, transaction } from '../storage/pool.ts';
import type { DetailsReader, SearchIndex } from './SearchIndex.ts';

/** Held while rebuilding, so instances noticing the same catalog change rebuild once. */
const REBUILD_LOCK = 0x7365_6172; // "sear"

/** The catalog revision now, and what the index was built from (null before the first build). */
const STATE = `SELECT (SELECT value FROM meta WHERE key = 'catalog_revision')::text AS catalog,
                      s.catalog_revision::text AS indexed, s.generation::text AS generation, s.details_fingerprint AS details
               FROM (VALUES (1)) AS one (x) LEFT JOIN search_index_state AS s ON true`;

/** More changed breaches than this (a bulk load) are indexed again all at once. */
const MAX_CHANGES_INDEXED = 256;

/** bm25's parameters, as SQLite's FTS5 fixes them. */
const K1 = 1.2;
const B = 0.75;

/**
 * Ranked matches of the query's words ($1), each a prefix term (as SQLite's `"word"*`), any of
 * them, ranked by bm25 exactly as SQLite's FTS5 computes it: per word, IDF = ln((N − n + ½) /
 * (n + ½)) (at least 10⁻⁶), term frequency = the column weights (title 10, domain 6, data classes
 * 4, description 1) summed over the word's occurrences, k1 = 1.2, b = 0.75, document length = its
 * word count against the average. The GIN index finds the matching documents; the postings give
 * each word's weighted count by a range of the primary key. Equal ranks (to 9 decimals, as
 * SQLite's index orders them) go by id. `COLUMN` is what is answered per hit: the document, or
 * only the fields filters read (the documents of the hits kept are read afterwards).
 */
const match = (column: 'document' | 'record') => `
  WITH terms AS (
    SELECT t.n, lexeme.prefix
    FROM unnest($1::text[]) WITH ORDINALITY AS t (word, n)
    CROSS JOIN LATERAL unnest(to_tsvector('search_english', t.word)) AS lexeme (prefix, positions, weights)
  ), matched AS (
    SELECT d.id, d.word_count FROM search_documents AS d
    WHERE d.words @@ to_tsquery('search_english', array_to_string(array(SELECT word || ':*' FROM unnest($1::text[]) AS word), ' | '))
  ), hits AS (
    SELECT terms.n, p.id, sum(p.weighted_count)::float8 AS tf
    FROM terms JOIN search_postings AS p ON p.lexeme >= terms.prefix AND p.lexeme < terms.prefix || chr(1114111)
    GROUP BY terms.n, p.id
  ), frequency AS (
    SELECT n, count(*)::float8 AS df FROM hits GROUP BY n
  ), ranked AS (
    SELECT m.id, sum(greatest(ln((s.document_count - f.df + 0.5) / (f.df + 0.5)), 1e-6)
                     * (h.tf * ${K1 + 1}) / (h.tf + ${K1} * (1 - ${B} + ${B} * m.word_count / s.average_word_count))) AS rank
    FROM matched AS m JOIN hits AS h USING (id) JOIN frequency AS f USING (n) CROSS JOIN search_index_state AS s
    GROUP BY m.id
  )
  SELECT d.${column} AS data, r.rank
  FROM ranked AS r JOIN search_documents AS d USING (id)
  ORDER BY round(r.rank::numeric, 9) DESC, d.id COLLATE "C"
  LIMIT $2`;
const MATCH_DOCUMENTS = match('document');
const MATCH_RECORDS = match('record');

const newest = (column: 'document' | 'record') => `SELECT ${column} AS data FROM search_documents ORDER BY breach_date DESC, added_at DESC, id COLLATE "C" LIMIT $1`;
const NEWEST_DOCUMENTS = newest('document');
const NEWEST_RECORDS = newest('record');
const DOCUMENTS_BY_ID = 'SELECT document FROM search_documents WHERE id = ANY($1::text[])';

/** One row of a ranked (or newest-first) read: rank is absent for newest-first. */
interface Ranked<T> {
  data: T;
  rank?: number;
}

interface StateRow {
  catalog: string | null;
  indexed: string | null;
  generation: string | null;
  details: string | null;
}

/** One breach's details as a hash, kept with its document to tell which documents a details change makes stale. */
function detailsHashOf(details: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(details ?? null))
    .digest('base64url');
}

/** The details feed as one hash, whatever order an instance's copy holds it in. */
function fingerprintOf(details: Record<string, unknown>): string {
  const hash = createHash('sha256');
  for (const id of Object.keys(details).sort()) hash.update(JSON.stringify([id, details[id]]));
  return hash.digest('base64url');
}

/**
 * The `breaches` instance on PostgreSQL: full-text search in the shared database
 * (`search_documents`, a weighted tsvector under a GIN index), built from the catalog tables and
 * the details feed. Before answering, one indexed read compares the catalog revision with the one
 * the index was built from; when another instance changed the catalog, the first instance to
 * notice brings the index up to date (under an advisory lock, in one transaction, so readers see
 * the old index or the new one): the breaches the catalog log (`catalog_log`) names and those whose
 * details `rebuild(ids)` named, when they are few and known; otherwise every breach. The revision it reports moves with every rebuild, so every instance's
 * answer cache drops its answers at once.
 */
export class PostgresSearchIndex implements SearchIndex {
  readonly #pool: pg.Pool;
  readonly #where: string;
  readonly #readDetails: DetailsReader;
  /** Set by `rebuild()`: the details changed without the catalog moving. */
  #detailsChanged = false;

  constructor(pool: pg.Pool, where: string, readDetails: DetailsReader) {
    this.#pool = pool;
    this.#where = where;
    this.#readDetails = readDetails;
  }

  async revision(): Promise<string> {
    // Named: prepared once per connection, as it runs on every request.
    const { rows } = await guarded(this.#where, () => this.#pool.query<StateRow>({ name: 'search-index-state', text: STATE }));
    const state = rows[0]!;
    if (state.indexed !== null && state.indexed === state.catalog) {
      if (!this.#detailsChanged) return `${state.catalog}.${state.generation}`;
      // Another instance may have rebuilt from these very details already.
      if (state.details === fingerprintOf(await this.#readDetails())) {
        this.#detailsChanged = false;
        return `${state.catalog}.${state.generation}`;
      }
    }
    return this.#build();
  }

  /** The details feed changed: the next request rebuilds, unless an instance already built from the same details. */
  async rebuild(): Promise<void> {
    this.#detailsChanged = true;
    await this.revision();
  }

  async search({ query, filter, maxResults }: SearchOptions): Promise<SearchHit[]> {
    await this.revision();
    // The query's words folded as the documents' are (SQLite folds both inside its tokenizer).
    const terms = [...new Set(searchTerms(query).flatMap(indexWords))];
    if (isEmptyFilter(filter)) {
      // Without a filter the database stops at maxResults and answers the documents at once.
      const { rows } =
        terms.length === 0 ? await this.#query<Ranked<BreachSearchDocument>>(NEWEST_DOCUMENTS, [maxResults]) : await this.#query<Ranked<BreachSearchDocument>>(MATCH_DOCUMENTS, [terms, maxResults]);
      const best = rows[0]?.rank ?? 0;
      // Hits scoring 0 are not matches (isMatchScore), as on SQLite.
      return rows.map(({ data, rank }) => ({ doc: data, score: rank === undefined ? 1 : relativeScore(rank, best) })).filter((hit) => isMatchScore(hit.score));
    }
    // With a filter, the filter engine (shared with SQLite, so both answer alike) picks from
    // every match in rank order, reading only the fields it needs; then the kept documents are read.
    const admits = compileFilter(filter!);
    const { rows } = terms.length === 0 ? await this.#query<Ranked<FilterRecord>>(NEWEST_RECORDS, [null]) : await this.#query<Ranked<FilterRecord>>(MATCH_RECORDS, [terms, null]);
    const best = rows[0]?.rank ?? 0;
    const kept: { id: string; score: number }[] = [];
    for (const { data, rank } of rows) {
      if (!admits(data)) continue;
      const score = rank === undefined ? 1 : relativeScore(rank, best);
      if (!isMatchScore(score)) break;
      kept.push({ id: breachIdOfKey(String(data.key))!, score });
      if (kept.length >= maxResults) break;
    }
    if (kept.length === 0) return [];
    const documents = new Map((await this.#query<{ document: BreachSearchDocument }>(DOCUMENTS_BY_ID, [kept.map((hit) => hit.id)])).rows.map(({ document }) => [document.id, document]));
    // A rebuild between the two reads may have dropped a document: it is left out, never invented.
    return kept.flatMap(({ id, score }) => {
      const doc = documents.get(id);
      return doc ? [{ doc, score }] : [];
    });
  }

  /** The pool belongs to whoever opened it (the search storage). */
  async close(): Promise<void> {}

  async #build(): Promise<string> {
    const force = this.#detailsChanged;
    // Read before the transaction (the instance's copy of the details feed), so a slow read never holds the lock.
    const details = await this.#readDetails();
    const fingerprint = fingerprintOf(details);
    const revision = await this.#transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [REBUILD_LOCK]);
      // Read again under the lock: another instance may have rebuilt while this one waited.
      const state = (await client.query<StateRow>(STATE)).rows[0]!;
      const current = state.indexed !== null && state.indexed === state.catalog;
      if (current && (!force || state.details === fingerprint)) return `${state.catalog}.${state.generation}`;
      // The revision is read before the breaches: if the catalog moves in between, the state
      // names the older revision and the next request rebuilds again (never the other way round).
      // When the catalog log names the breaches written since the index was built (by any
      // instance) and they are few, only those and the ones whose details changed are indexed again.
      const ids = state.indexed === null ? undefined : await this.#changedSince(client, Number(state.indexed), current, state.details === fingerprint ? undefined : details);
      const breaches = (ids ? await client.query<BreachColumns>('SELECT * FROM breaches WHERE id = ANY($1::text[])', [ids]) : await client.query<BreachColumns>('SELECT * FROM breaches')).rows.map(
        fromBreachColumns,
      );
      const rows = breaches.map((breach) => ({ ...toRow(toSearchDocument(breach, details[breach.id])), details_hash: detailsHashOf(details[breach.id]) }));
      if (ids) {
        // The postings of these documents go with them (ON DELETE CASCADE).
        await client.query('DELETE FROM search_documents WHERE id = ANY($1::text[])', [ids]);
      } else {
        await client.query('DELETE FROM search_postings');
        await client.query('DELETE FROM search_documents');
      }
      await client.query(
        `INSERT INTO search_documents (id, document, record, breach_date, added_at, title_words, domain_words, class_words, description_words, word_count, details_hash)
         SELECT d.id, d.document, d.record, d.breach_date, d.added_at, d.title_words, d.domain_words, d.class_words, d.description_words, d.word_count, d.details_hash
         FROM jsonb_to_recordset($1::jsonb) AS d (id text, document jsonb, record jsonb, breach_date bigint, added_at bigint,
                                                  title_words text, domain_words text, class_words text, description_words text, word_count integer, details_hash text)`,
        [JSON.stringify(rows)],
      );
      await client.query(
        `INSERT INTO search_postings (lexeme, id, weighted_count)
         SELECT u.lexeme, d.id, sum(CASE w WHEN 'A' THEN 10 WHEN 'B' THEN 6 WHEN 'C' THEN 4 ELSE 1 END)
         FROM search_documents AS d CROSS JOIN unnest(d.words) AS u CROSS JOIN unnest(u.weights) AS w
         WHERE $1::text[] IS NULL OR d.id = ANY($1::text[])
         GROUP BY u.lexeme, d.id`,
        [ids ?? null],
      );
      const built = await client.query<{ generation: string }>(
        `INSERT INTO search_index_state (singleton, catalog_revision, generation, document_count, average_word_count, details_fingerprint)
         SELECT true, $1, 1, count(*), coalesce(nullif(avg(word_count), 0), 1), $2 FROM search_documents
         ON CONFLICT (singleton) DO UPDATE SET catalog_revision = excluded.catalog_revision, generation = search_index_state.generation + 1,
           document_count = excluded.document_count, average_word_count = excluded.average_word_count,
           details_fingerprint = excluded.details_fingerprint, built_at = now()
         RETURNING generation::text`,
        [state.catalog ?? '0', fingerprint],
      );
      return `${state.catalog ?? '0'}.${built.rows[0]!.generation}`;
    });
    if (force) this.#detailsChanged = false;
    return revision;
  }

  /**
   * The breaches to index again, or undefined for all of them: those the catalog log names since
   * revision `indexed` (none when the catalog has not moved), and, when the details feed changed
   * (`details`), those whose details differ from what their document was built from (each
   * document keeps a hash of its details) — when the log reaches back and they are few.
   */
  async #changedSince(client: pg.PoolClient, indexed: number, catalogCurrent: boolean, details: Record<string, unknown> | undefined): Promise<string[] | undefined> {
    const written = catalogCurrent ? [] : await catalogChangesSince(client, indexed);
    if (written === undefined) return undefined;
    const ids = new Set(written);
    if (details) {
      const { rows } = await client.query<{ id: string; details_hash: string | null }>('SELECT id, details_hash FROM search_documents');
      for (const { id, details_hash } of rows) if (details_hash !== detailsHashOf(details[id])) ids.add(id);
    }
    return ids.size <= MAX_CHANGES_INDEXED ? [...ids] : undefined;
  }

  #query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return guarded(this.#where, () => this.#pool.query<R>(sql, values));
  }

  /** The rebuild waits on its advisory lock instead of racing, so it never runs twice. */
  #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return transaction(this.#pool, this.#where, { attempts: 1 }, work);
  }
}

/**
 * One row of `search_documents`: the document as answered, and its words as SQLite's index
 * receives them (the domain both split and whole, so "adobe.com" counts as SQLite counts it).
 */
function toRow(doc: BreachSearchDocument) {
  const columns = [indexWords(doc.title), indexWords(doc.domain.replaceAll('.', ' ') + ' ' + doc.domain), indexWords(doc.dataClasses.join(' ; ')), indexWords(doc.description)];
  return {
    id: doc.id,
    document: doc,
    record: filterRecordOf(doc),
    breach_date: doc.breachDate,
    added_at: doc.addedAt,
    title_words: columns[0]!.join(' '),
    domain_words: columns[1]!.join(' '),
    class_words: columns[2]!.join(' '),
    description_words: columns[3]!.join(' '),
    word_count: columns.reduce((sum, words) => sum + words.length, 0),
  };
}
