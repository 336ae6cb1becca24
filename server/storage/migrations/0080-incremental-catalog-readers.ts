/**
 * Incremental catalog readers on PostgreSQL. `catalog_log`: which breaches each catalog revision wrote, so the search index and the graph of every instance
 * update those breaches alone instead of reading the whole catalog again (SQLite's store keeps the
 * same log in memory: it is the catalog's only writer). `breach_ids` is NULL where a revision may
 * have changed anything (a whole-catalog replacement). Rows older than the last 1,000 revisions go.
 * `search_documents.details_hash`: a hash of the details each document was built from, so a
 * change of the details feed re-indexes the documents whose details differ, not all of them
 * (NULL on documents built before: they are indexed again at the first details change).
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const incrementalCatalogReadersSql = `
      CREATE TABLE catalog_log (
        revision bigint PRIMARY KEY,
        breach_ids text[] CHECK (breach_ids IS NULL OR array_position(breach_ids, NULL) IS NULL)
      );
      ALTER TABLE search_documents ADD COLUMN details_hash text;
    `;
