import type { MetadataFilter, SearchChunk } from '../../../shared/search/index.ts';

/** What the Search page asks: text, the chips compiled to a new-format filter, and whether to answer. */
export interface SearchRun {
  query: string;
  filters?: MetadataFilter | undefined;
  maxResults?: number | undefined;
  /** True: retrieval plus an answer (chat completions); false: retrieval only. */
  answer: boolean;
}

/** `extractive`: built from the chunks (the reference instance, the embedded engine); `generated`: a language model wrote it. */
export type AnswerKind = 'extractive' | 'generated';

/** As results arrive: the retrieved chunks first, then the answer in pieces. */
export type SearchEvent = { type: 'chunks'; searchQuery: string; chunks: SearchChunk[]; answerKind: AnswerKind | undefined } | { type: 'delta'; text: string };

export interface SearchOutcome {
  searchQuery: string;
  chunks: SearchChunk[];
  answer: { text: string; kind: AnswerKind } | undefined;
}

/** The embedded engine and a remote instance answer the same runs the same way. */
export interface SearchEngine {
  run(request: SearchRun, onEvent?: (event: SearchEvent) => void): Promise<SearchOutcome>;
}
