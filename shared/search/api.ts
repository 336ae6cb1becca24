import { z } from 'zod';

/**
 * Wire shapes of the search interface (seed 002, CONTRACT.md "Search and filters"): the new
 * `ai-search/instances/{name}` endpoints and the legacy `legacy-rag/rags/{name}` ones, inside
 * the platform's envelope `{result, success, errors, messages}`.
 */

export const MAX_RESULTS_LIMIT = 50;
export const DEFAULT_MAX_RESULTS = 10;
export const MAX_QUERY_LENGTH = 2000;

export const ChatMessage = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string().max(MAX_QUERY_LENGTH * 4) });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const RetrievalOptions = z.object({
  /** New-format metadata filter; checked by `parseMetadataFilter` for messages that say where. */
  filters: z.unknown().optional(),
  max_num_results: z.int().min(1).max(MAX_RESULTS_LIMIT).optional(),
});
export const AiSearchOptions = z.object({ retrieval: RetrievalOptions.optional() });

export const SearchRequest = z
  .object({
    messages: z.array(ChatMessage).min(1).max(100).optional(),
    query: z.string().max(MAX_QUERY_LENGTH).optional(),
    stream: z.boolean().optional(),
    ai_search_options: AiSearchOptions.optional(),
  })
  .refine((body) => (body.messages === undefined) !== (body.query === undefined), { message: 'send either "messages" or "query", not both and not neither', path: ['messages'] });
export type SearchRequest = z.infer<typeof SearchRequest>;

export const ChatCompletionsRequest = z.object({
  messages: z.array(ChatMessage).min(1).max(100),
  stream: z.boolean().optional(),
  model: z.string().optional(),
  ai_search_options: AiSearchOptions.optional(),
});
export type ChatCompletionsRequest = z.infer<typeof ChatCompletionsRequest>;

export const LegacySearchRequest = z.object({
  query: z.string().max(MAX_QUERY_LENGTH),
  /** Legacy-format filter; translated by `translateLegacyFilter`. */
  filters: z.unknown().optional(),
  stream: z.boolean().optional(),
  max_num_results: z.int().min(1).max(MAX_RESULTS_LIMIT).optional(),
});
export type LegacySearchRequest = z.infer<typeof LegacySearchRequest>;

/** The search text of a conversation: the last user message. */
export function queryOfMessages(messages: readonly ChatMessage[]): string | undefined {
  return messages.findLast((message) => message.role === 'user')?.content;
}

export const ChunkMetadata = z.object({
  title: z.string(),
  domain: z.string(),
  breachDate: z.int(),
  dataClasses: z.array(z.string()),
  isSensitive: z.boolean(),
  isVerified: z.boolean(),
  pwnCount: z.int(),
});
export const SearchChunk = z.object({
  id: z.string(),
  type: z.literal('text'),
  score: z.number(),
  text: z.string(),
  item: z.object({ key: z.string(), timestamp: z.int(), metadata: ChunkMetadata }),
});
export type SearchChunk = z.infer<typeof SearchChunk>;

export const SearchResult = z.object({ search_query: z.string(), chunks: z.array(SearchChunk) });
export type SearchResult = z.infer<typeof SearchResult>;

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.int(),
  model: z.string(),
  choices: z.array(z.object({ index: z.int(), message: z.object({ role: z.literal('assistant'), content: z.string() }), finish_reason: z.string() })).min(1),
  search_query: z.string(),
  chunks: z.array(SearchChunk),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

/** One streamed piece of an answer (`data:` of the SSE stream after the `chunks` event). */
export const ChatCompletionDelta = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.int(),
  model: z.string(),
  choices: z.array(z.object({ index: z.int(), delta: z.object({ content: z.string().optional() }), finish_reason: z.string().nullable() })),
});
export type ChatCompletionDelta = z.infer<typeof ChatCompletionDelta>;

/** Payload of the `chunks` event that opens a stream of the new endpoints. */
export const ChunksEvent = z.object({ search_query: z.string(), chunks: z.array(SearchChunk), messages: z.array(z.object({ code: z.int(), message: z.string() })) });
export type ChunksEvent = z.infer<typeof ChunksEvent>;

export const LegacySearchData = z.object({
  file_id: z.string(),
  filename: z.string(),
  score: z.number(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
});
export type LegacySearchData = z.infer<typeof LegacySearchData>;
export const LegacySearchResult = z.object({
  object: z.literal('vector_store.search_results.page'),
  search_query: z.string(),
  data: z.array(LegacySearchData),
  has_more: z.boolean(),
  next_page: z.string().nullable(),
});
export type LegacySearchResult = z.infer<typeof LegacySearchResult>;
export const LegacyAiSearchResult = LegacySearchResult.extend({ response: z.string() });
export type LegacyAiSearchResult = z.infer<typeof LegacyAiSearchResult>;
/** `data:` of a legacy stream: only the generated response, in pieces. */
export const LegacyStreamDelta = z.object({ response: z.string() });

/** An error of the envelope; `error_chain` only from servers older than 2024-10-01. */
export interface EnvelopeError {
  code: number;
  message: string;
  error_chain?: EnvelopeError[] | undefined;
}
export const EnvelopeError: z.ZodType<EnvelopeError> = z.lazy(() => z.object({ code: z.int(), message: z.string(), error_chain: z.array(EnvelopeError).optional() }));
export const EnvelopeMessage = z.object({ code: z.int().optional(), message: z.string() });
export const Envelope = z.object({ result: z.unknown(), success: z.boolean(), errors: z.array(EnvelopeError), messages: z.array(EnvelopeMessage) });
export type Envelope = z.infer<typeof Envelope>;

/**
 * The root causes of an envelope's errors: the errors themselves on current servers, the
 * innermost `error_chain` entries on servers that still nest them (before 2024-10-01).
 */
export function rootCauses(errors: readonly EnvelopeError[]): { code: number; message: string }[] {
  return errors.flatMap((error) => (error.error_chain && error.error_chain.length > 0 ? rootCauses(error.error_chain) : [{ code: error.code, message: error.message }]));
}

/** Codes of this interface's errors and notes (the reference service; real instances have their own). */
export const SearchCodes = {
  authentication: 10000,
  serviceKeyEndOfLife: 10001,
  tokenExpired: 10002,
  tokenRevoked: 10003,
  ipNotAllowed: 10004,
  missingScope: 10005,
  wrongAccount: 10006,
  invalidHeaders: 6003,
  malformedBody: 6007,
  unsupportedMediaType: 6008,
  bodyTooLarge: 6009,
  invalidRequest: 7400,
  invalidFilter: 7401,
  notFound: 7003,
  methodNotAllowed: 7001,
  internal: 5000,
  /** 503: the service's database is away for now; retry after `Retry-After` seconds. */
  unavailable: 5003,
  /** In `messages`: the answer was built from the retrieved chunks, no language model ran. */
  extractiveAnswer: 20001,
} as const;

export const SERVICE_KEY_END_OF_LIFE = '2026-09-30';

/** A remote instance as the app keeps it in settings (the API token is kept in the keychain). */
export const SearchRemoteInstance = z.strictObject({
  baseUrl: z.url().refine((value) => /^https?:\/\//.test(value), 'must be an http(s) address such as https://api.example.com/client/v4'),
  accountId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "-" or "_"'),
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, ".", "-" or "_"'),
  /** A `legacy-rag/rags` instance. */
  legacy: z.boolean(),
});
export type SearchRemoteInstance = z.infer<typeof SearchRemoteInstance>;
