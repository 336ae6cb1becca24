/**
 * The search interface's API tokens (only the SHA-256 of each secret) and its index: one row per
 * catalog breach with a weighted `tsvector` under a GIN index, and the postings bm25 reads (released
 * as `search_schema_version` 10).
 * Released: never edited, only followed (server/storage/migrations/index.ts).
 */
export const searchApiTokensAndIndexSql = `
      CREATE TABLE search_api_tokens (
        id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
        account_id text NOT NULL,
        name text,
        secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
        scopes jsonb NOT NULL CHECK (jsonb_typeof(scopes) = 'array'),
        allow_ips jsonb NOT NULL CHECK (jsonb_typeof(allow_ips) = 'array'),
        created_at bigint NOT NULL,
        expires_at bigint,
        revoked_at bigint
      );

      -- English stemming (Snowball, as SQLite's porter tokenizer stems) without a stop-word list:
      -- the query side drops the words that say nothing (shared/search/engine.ts), as for SQLite.
      CREATE TEXT SEARCH DICTIONARY search_english_stem (TEMPLATE = snowball, LANGUAGE = english);
      CREATE TEXT SEARCH CONFIGURATION search_english (COPY = english);
      ALTER TEXT SEARCH CONFIGURATION search_english
        ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH search_english_stem;

      -- The text columns hold words already split and folded (lower case, no diacritics) as
      -- SQLite's unicode61 tokenizer splits them; weights A–D mark the column (title, domain,
      -- data classes, description), which the ranking weighs as SQLite's bm25 does (10, 6, 4, 1).
      CREATE TABLE search_documents (
        id text PRIMARY KEY,
        -- The document as answered, and the fields filters read (without the description's text).
        document jsonb NOT NULL,
        record jsonb NOT NULL,
        breach_date bigint NOT NULL,
        added_at bigint NOT NULL,
        title_words text NOT NULL,
        domain_words text NOT NULL,
        class_words text NOT NULL,
        description_words text NOT NULL,
        -- Words in all four columns: bm25's document length.
        word_count integer NOT NULL,
        words tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('search_english'::regconfig, title_words), 'A') ||
          setweight(to_tsvector('search_english'::regconfig, domain_words), 'B') ||
          setweight(to_tsvector('search_english'::regconfig, class_words), 'C') ||
          setweight(to_tsvector('search_english'::regconfig, description_words), 'D')
        ) STORED
      );
      CREATE INDEX search_documents_words ON search_documents USING gin (words);
      CREATE INDEX search_documents_newest ON search_documents (breach_date DESC, added_at DESC, id COLLATE "C");

      -- bm25 needs how often, and in which column, a document holds a word: each (lexeme,
      -- document) of the tsvectors above once, its occurrences summed by column weight. Built
      -- from the tsvectors with them; the primary key serves a query word's prefix as a range.
      CREATE TABLE search_postings (
        lexeme text COLLATE "C" NOT NULL,
        id text NOT NULL REFERENCES search_documents (id) ON DELETE CASCADE,
        weighted_count real NOT NULL,
        PRIMARY KEY (lexeme, id)
      );

      -- What the index was built from: the catalog revision, and a generation that moves with
      -- every rebuild (a details-only change too), so every instance's answer cache moves with it.
      CREATE TABLE search_index_state (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        catalog_revision bigint NOT NULL,
        generation bigint NOT NULL,
        -- bm25's corpus figures: how many documents, and their average word count.
        document_count bigint NOT NULL,
        average_word_count double precision NOT NULL,
        built_at timestamptz NOT NULL DEFAULT now()
      );
    `;
