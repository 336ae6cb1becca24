import type { BreachDetails } from '../../shared/catalog/index.ts';
import type { SearchHit, SearchOptions } from '../../shared/search/index.ts';

/**
 * The `breaches` instance of the search interface: ranked hits over the catalog and the details
 * feed. Two implementations with one set of answers: SQLite FTS5 in memory beside the SQLite
 * store ({@link CatalogSearchIndex}), PostgreSQL full-text search in the shared database beside
 * the PostgreSQL store ({@link PostgresSearchIndex}). Both rank by the same column weights, break
 * equal ranks by breach id, order filter-only answers newest first, and run the same filter
 * engine, so only the ranking formula itself (bm25 against PostgreSQL's ts_rank with IDF) differs.
 */
export interface SearchIndex {
  /** Ranked hits, best first; scores in (0, 1], the best 1. */
  search(options: SearchOptions): Promise<SearchHit[]>;
  /** What answers are valid for: equal revisions, equal answers (the answer cache's key). */
  revision(): Promise<string>;
  /**
   * Re-reads the details feed now (after a details-only change): with `ids`, only the details of
   * those breaches changed (an index may read just theirs; PostgreSQL's reads the whole feed).
   */
  rebuild(ids?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Details by breach id; may lack some breaches (then the id stands in for the title). */
export type DetailsReader = () => Record<string, BreachDetails> | Promise<Record<string, BreachDetails>>;
