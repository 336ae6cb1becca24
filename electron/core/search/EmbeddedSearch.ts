import Database from 'better-sqlite3';
import {
  answerPieces,
  BREACH_FILTER_FIELDS,
  BreachSearchIndex,
  DEFAULT_MAX_RESULTS,
  extractiveAnswer,
  finishAsk,
  parseMetadataFilter,
  planAsk,
  toChunk,
  type AccountStates,
  type BreachSearchDocument,
} from '../../../shared/search/index.ts';
import type { SearchEngine, SearchEvent, SearchOutcome, SearchRun } from './SearchEngine.ts';

/** Where the embedded engine's documents come from; `version` changes whenever the documents do. */
export interface SearchDocumentSource {
  version(): string | number;
  documents(): BreachSearchDocument[];
  /** The person's state of each breach ("breaches I haven't fixed"); read at each question. */
  account?(): AccountStates;
}

/** Every document: a question that filters, orders or counts after ranking reads all matches. */
const ALL = 1_000_000;

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
    // The question understood here as on the reference service (shared/search/ask.ts): the same
    // question gives the same breaches offline and online.
    const account = this.#source.account?.();
    const plan = planAsk(request.query, { now: request.now, dataClasses: this.#index.dataClasses(), names: this.#index.names(), account });
    const maxResults = request.maxResults ?? DEFAULT_MAX_RESULTS;
    const hits = this.#index.search({ query: plan.ranked, filter, maxResults: plan.needsAll ? ALL : maxResults });
    const { hits: kept, total, sentence } = finishAsk(plan, hits, maxResults, account);
    const chunks = kept.map(toChunk);
    const found = { searchQuery: request.query, chunks, total, ...(sentence !== undefined ? { sentence } : {}) };
    onEvent({ type: 'chunks', ...found, answerKind: request.answer ? 'extractive' : undefined });
    if (!request.answer) return { ...found, answer: undefined };
    const text = extractiveAnswer(request.query, chunks);
    for (const piece of answerPieces(text)) onEvent({ type: 'delta', text: piece });
    return { ...found, answer: { text, kind: 'extractive' } };
  }

  close(): void {
    this.#db.close();
  }
}
