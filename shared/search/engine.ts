import type { SearchChunk } from './api.ts';
import { chunkText, documentMetadata, filterRecordOf, itemKey, type BreachSearchDocument } from './document.ts';
import { compileFilter, isEmptyFilter, type MetadataFilter } from './filter.ts';

/**
 * The breach search engine: SQLite FTS5 ranks the text (bm25 over title, domain, data classes
 * and description), the filter engine keeps what the filter admits. The same class runs in the
 * reference service and in the app's core; both hand it a better-sqlite3 database (typed here
 * structurally so `shared/` imports nothing outside itself).
 */
export interface SearchDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): { lastInsertRowid: number | bigint }; all(...params: unknown[]): unknown[] };
}

/** Column weights of bm25: a word in the title counts most, in the description least. */
const WEIGHTS = { title: 10, domain: 6, dataClasses: 4, description: 1 };
const MAX_TERMS = 32;
/**
 * Words that say nothing about which breach is meant ("which of my breaches leaked …"): English
 * function words, words nearly every breach description uses (matching them costs a bm25 score
 * per breach and ranks nothing), and top-level domains every site shares. Dates in a question
 * ("after 2020") are the date chips' job.
 */
const STOP_WORDS = new Set(
  [
    'a an and are as at be by did do does for from had has have how i in is it its me my of on or our that the their them there these they this to was were what when where which who why with you your about any all',
    'breach breaches breached data leak leaks leaked hack hacked after before since',
    'com net org www',
  ]
    .join(' ')
    .split(' '),
);

export interface SearchOptions {
  query: string;
  filter?: MetadataFilter | undefined;
  maxResults: number;
}

export interface SearchHit {
  doc: BreachSearchDocument;
  score: number;
}

/** The meaningful words of a query (stop words and lone letters dropped), lower case, at most 32, each once. */
export function searchTerms(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word) && (word.length > 1 || /\d/.test(word)));
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/**
 * The words of a text as an index without SQLite's tokenizer is fed them (PostgreSQL's): runs of
 * letters and digits, lower case, Latin diacritics removed (combining marks U+0300–U+036F, as
 * SQLite's unicode61 tokenizer with remove_diacritics 2 folds them).
 */
export function indexWords(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** FTS5 query of free text: each meaningful word as a quoted prefix term, any of them (bm25 ranks by how many and where). */
export function toFtsQuery(text: string): string | undefined {
  const unique = searchTerms(text);
  return unique.length === 0 ? undefined : unique.map((word) => `"${word}"*`).join(' OR ');
}

/** The order of hits without searchable words: newest breach first, then newest added, then id. */
export function newestFirst(a: BreachSearchDocument, b: BreachSearchDocument): number {
  return b.breachDate - a.breachDate || b.addedAt - a.addedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A score in [0, 1]: the rank relative to the best hit's, to four decimals. */
export function relativeScore(rank: number, best: number): number {
  return best !== 0 ? Math.round((rank / best) * 10_000) / 10_000 : 1;
}

/**
 * Whether a hit with this relative score is a match. bm25 gives a word found in more than half
 * of the documents no weight (FTS5 clamps its IDF to 1e-6), so a breach found only through such
 * words ("passwords", in most descriptions) scores about a millionth of one found through a word
 * that tells breaches apart: 0 to four decimals. It matched nothing the question asked about,
 * and counting it would answer "8 breaches match" where one does.
 */
export const isMatchScore = (score: number): boolean => score > 0;

export class BreachSearchIndex {
  readonly #db: SearchDatabase;
  readonly #docs = new Map<string, BreachSearchDocument>();
  /** FTS5 rowids by breach id: one document is replaced or removed without a scan. */
  readonly #rowids = new Map<string, number | bigint>();
  readonly #insert;
  readonly #deleteRow;
  readonly #match;
  readonly #ids;
  #names: { id: string; title: string }[] | undefined;

  constructor(db: SearchDatabase) {
    this.#db = db;
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS breach_search USING fts5(
      id UNINDEXED, title, domain, data_classes, description,
      tokenize = 'porter unicode61 remove_diacritics 2')`);
    db.exec('DELETE FROM breach_search');
    this.#insert = db.prepare('INSERT INTO breach_search (id, title, domain, data_classes, description) VALUES (?, ?, ?, ?, ?)');
    this.#deleteRow = db.prepare('DELETE FROM breach_search WHERE rowid = ?');
    const { title, domain, dataClasses, description } = WEIGHTS;
    // Equal ranks (to 9 decimals: sums in another order differ in the last bits) go by id, as the
    // reference service's PostgreSQL index orders them: answers never depend on insertion order.
    // (`rank` inside an expression would name FTS5's own unweighted rank column, hence bm25 again.)
    const bm25 = `bm25(breach_search, 0, ${title}, ${domain}, ${dataClasses}, ${description})`;
    this.#match = db.prepare(`SELECT id, ${bm25} AS rank FROM breach_search WHERE breach_search MATCH ? ORDER BY round(${bm25}, 9), id`);
    this.#ids = db.prepare(`SELECT id FROM breach_search WHERE breach_search MATCH ? ORDER BY bm25(breach_search, 0, ${title}, ${domain}, ${dataClasses}, ${description}) LIMIT ?`);
  }

  get size(): number {
    return this.#docs.size;
  }

  /** The titles a question may name (the same list until a document changes, so its reading is kept). */
  names(): readonly { id: string; title: string }[] {
    this.#names ??= [...this.#docs.values()].map((doc) => ({ id: doc.id, title: doc.title }));
    return this.#names;
  }

  /** The data class names of the documents, each once. */
  dataClasses(): string[] {
    return [...new Set([...this.#docs.values()].flatMap((doc) => doc.dataClasses))];
  }

  /** Replaces everything indexed, in one transaction. */
  replaceAll(docs: readonly BreachSearchDocument[]): void {
    this.#db.exec('BEGIN');
    try {
      this.#db.exec('DELETE FROM breach_search');
      this.#docs.clear();
      this.#rowids.clear();
      this.#names = undefined;
      for (const doc of docs) this.#insertDoc(doc);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      this.#docs.clear();
      this.#rowids.clear();
      throw error;
    }
  }

  /**
   * Adds or replaces one document. FTS5 keeps its ranking statistics (document count, lengths,
   * term frequencies) exact across inserts and deletes, so answers equal a full `replaceAll`.
   */
  put(doc: BreachSearchDocument): void {
    this.#db.exec('BEGIN');
    try {
      this.#deleteDoc(doc.id);
      this.#insertDoc(doc);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Removes one document (nothing when it is not indexed). */
  remove(id: string): void {
    this.#deleteDoc(id);
  }

  #insertDoc(doc: BreachSearchDocument): void {
    // Domains index as words too: "adobe.com" finds "adobe".
    const { lastInsertRowid } = this.#insert.run(doc.id, doc.title, doc.domain.replaceAll('.', ' ') + ' ' + doc.domain, doc.dataClasses.join(' ; '), doc.description);
    this.#rowids.set(doc.id, lastInsertRowid);
    this.#docs.set(doc.id, doc);
    this.#names = undefined;
  }

  #deleteDoc(id: string): void {
    const rowid = this.#rowids.get(id);
    if (rowid === undefined) return;
    this.#deleteRow.run(rowid);
    this.#rowids.delete(id);
    this.#docs.delete(id);
    this.#names = undefined;
  }

  get(id: string): BreachSearchDocument | undefined {
    return this.#docs.get(id);
  }

  /**
   * Ranked hits, best first. Scores are in (0, 1], the best match 1; hits scoring 0 are not
   * matches ({@link isMatchScore}) and are left out. Without searchable words the filter alone
   * decides, newest breach first, every score 1.
   */
  search({ query, filter, maxResults }: SearchOptions): SearchHit[] {
    const admits = isEmptyFilter(filter) ? () => true : compileFilter(filter!);
    const fts = toFtsQuery(query);
    const hits: SearchHit[] = [];
    if (fts === undefined) {
      const all = [...this.#docs.values()].filter((doc) => admits(filterRecordOf(doc)));
      all.sort(newestFirst);
      return all.slice(0, maxResults).map((doc) => ({ doc, score: 1 }));
    }
    const rows = this.#match.all(fts) as { id: string; rank: number }[];
    const best = rows[0]?.rank ?? -1;
    for (const row of rows) {
      const doc = this.#docs.get(row.id);
      if (!doc || !admits(filterRecordOf(doc))) continue;
      const score = best < 0 ? relativeScore(row.rank, best) : 1;
      // Ranks only grow worse from here: the first hit scoring 0 ends the matches.
      if (!isMatchScore(score)) break;
      hits.push({ doc, score });
      if (hits.length >= maxResults) break;
    }
    return hits;
  }

  /** The FTS5 query alone (no filter, no documents): the floor the benchmark compares against. */
  _matchIds(query: string, limit: number): string[] {
    const fts = toFtsQuery(query);
    return fts === undefined ? [] : (this.#ids.all(fts, limit) as { id: string }[]).map((row) => row.id);
  }
}

export function toChunk({ doc, score }: SearchHit): SearchChunk {
  return { id: `${itemKey(doc.id)}#0`, type: 'text', score, text: chunkText(doc), item: { key: itemKey(doc.id), timestamp: doc.addedAt, metadata: documentMetadata(doc) } };
}
