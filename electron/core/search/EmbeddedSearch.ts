import Database from 'better-sqlite3';
import { answerPieces, BREACH_FILTER_FIELDS, BreachSearchIndex, DEFAULT_MAX_RESULTS, extractiveAnswer, parseMetadataFilter, toChunk, type BreachSearchDocument } from '../../../shared/search/index.ts';
import type { SearchEngine, SearchEvent, SearchOutcome, SearchRun } from './SearchEngine.ts';

/** Where the embedded engine's documents come from; `version` changes whenever the documents do. */
export interface SearchDocumentSource {
  version(): string | number;
  documents(): BreachSearchDocument[];
}

/**
 * Search over the local data, offline: the same FTS5 index and filter engine as the reference
 * instance, in an in-memory database rebuilt when the local data changes. Answers are
 * extractive, like the reference instance's.
 */
export class EmbeddedSearch implements SearchEngine {
  readonly #db = new Database(':memory:');
  readonly #index = new BreachSearchIndex(this.#db);
  readonly #source: SearchDocumentSource;
  #indexed: string | number | undefined;

  constructor(source: SearchDocumentSource) {
    this.#source = source;
  }

  /** Throws `FilterError` for a filter the engine cannot run (the caller reports where). */
  async run(request: SearchRun, onEvent: (event: SearchEvent) => void = () => {}): Promise<SearchOutcome> {
    const filter = request.filters === undefined ? undefined : parseMetadataFilter(request.filters, BREACH_FILTER_FIELDS, '/filters');
    const version = this.#source.version();
    if (version !== this.#indexed) {
      this.#index.replaceAll(this.#source.documents());
      this.#indexed = version;
    }
    const chunks = this.#index.search({ query: request.query, filter, maxResults: request.maxResults ?? DEFAULT_MAX_RESULTS }).map(toChunk);
    onEvent({ type: 'chunks', searchQuery: request.query, chunks, answerKind: request.answer ? 'extractive' : undefined });
    if (!request.answer) return { searchQuery: request.query, chunks, answer: undefined };
    const text = extractiveAnswer(request.query, chunks);
    for (const piece of answerPieces(text)) onEvent({ type: 'delta', text: piece });
    return { searchQuery: request.query, chunks, answer: { text, kind: 'extractive' } };
  }

  close(): void {
    this.#db.close();
  }
}
