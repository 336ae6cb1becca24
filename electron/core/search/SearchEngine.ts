import type { MetadataFilter, SearchChunk } from '../../../shared/search/index.ts';

/** What the Search page asks: text, the chips compiled to a new-format filter, and whether to answer. */
export interface SearchRun {
  query: string;
  filters?: MetadataFilter | undefined;
  maxResults?: number | undefined;
  /** True: retrieval plus an answer (chat completions); false: retrieval only. */
  answer: boolean;
  /** "Now" for relative dates in the question ("last year"); the clock by default. */
  now?: number | undefined;
}

/** `extractive`: built from the chunks (the reference instance, the embedded engine); `generated`: a language model wrote it. */
export type AnswerKind = 'extractive' | 'generated';

/** As results arrive: the retrieved chunks first, then the answer in pieces. */
export type SearchEvent = { type: 'chunks'; searchQuery: string; chunks: SearchChunk[]; answerKind: AnswerKind | undefined; total?: number; sentence?: string } | { type: 'delta'; text: string };

export interface SearchOutcome {
  searchQuery: string;
  chunks: SearchChunk[];
  /** How many breaches match (the chunks may be fewer); absent when the engine cannot say. */
  total?: number;
  /** The answer sentence of an aggregate question ("12 breaches exposed your phone numbers"). */
  sentence?: string;
  answer: { text: string; kind: AnswerKind } | undefined;
}

/** The embedded engine and a remote instance answer the same runs the same way. */
export interface SearchEngine {
  run(request: SearchRun, onEvent?: (event: SearchEvent) => void): Promise<SearchOutcome>;
}
