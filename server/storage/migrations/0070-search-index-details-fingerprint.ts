/**
 * Which details feed the search index was built from (released as `search_schema_version` 20).
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const searchIndexDetailsFingerprintSql = `
      -- Which details feed the index was built from (a hash, order-independent), so a details-only
      -- change is rebuilt once by whichever instance notices first, not once per instance.
      ALTER TABLE search_index_state ADD COLUMN details_fingerprint text;
    `;
