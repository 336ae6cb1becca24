import { z } from 'zod';

/**
 * Wire shapes of the search interface (seed 002, CONTRACT.md "Search and filters"), as the
 * official SDK's types (`cloudflare` 7.x, `resources/aisearch`) say: the namespaced
 * `ai-search/namespaces/{name}/…` endpoints, the deprecated `ai-search/instances/{id}/…` ones and
 * the legacy `legacy-rag/rags/{name}` ones, inside the platform's envelope `{result, success,
 * errors, messages}` — except chat completions, which answer bare.
 */

export const MAX_RESULTS_LIMIT = 50;
export const DEFAULT_MAX_RESULTS = 10;
export const MAX_QUERY_LENGTH = 2000;

/**
 * A part of a message's content, as the SDK's types allow (`{type: "text", text}`, `image_url`,
 * `file`). This instance indexes text only: the service refuses image and file parts by name.
 */
export const TextPart = z.object({ type: z.literal('text'), text: z.string().max(MAX_QUERY_LENGTH * 4) });
export const ImageUrlPart = z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string() }) });
export const FilePart = z.object({ type: z.literal('file'), file: z.object({ filename: z.string(), file_data: z.string().optional(), file_id: z.string().optional() }) });
export const ContentPart = z.discriminatedUnion('type', [TextPart, ImageUrlPart, FilePart]);
export type ContentPart = z.infer<typeof ContentPart>;

/** An OpenAI-style message: `content` a string, an array of typed parts, or null (extra keys kept, as the SDK allows). */
export const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string().max(MAX_QUERY_LENGTH * 4), z.array(ContentPart).min(1).max(64), z.null()]),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/**
 * Per-request retrieval options (`ai_search_options.retrieval`), named as Cloudflare documents
 * them; an unknown name is refused (a misspelt option must not silently do nothing).
 */
export const BoostBy = z.strictObject({ field: z.string().min(1).max(64), direction: z.enum(['asc', 'desc', 'exists', 'not_exists']).optional() });
export type BoostBy = z.infer<typeof BoostBy>;
export const RetrievalOptions = z.strictObject({
  /** New-format metadata filter; checked by `parseMetadataFilter` for messages that say where. */
  filters: z.unknown().optional(),
  max_num_results: z.int().min(1).max(MAX_RESULTS_LIMIT).optional(),
  match_threshold: z.number().min(0).max(1).optional(),
  keyword_match_mode: z.enum(['and', 'or']).optional(),
  retrieval_type: z.enum(['vector', 'keyword', 'hybrid']).optional(),
  fusion_method: z.enum(['max', 'rrf']).optional(),
  context_expansion: z.int().min(0).max(MAX_RESULTS_LIMIT).optional(),
  boost_by: z.array(BoostBy).min(1).max(8).optional(),
  return_on_failure: z.boolean().optional(),
});
export type RetrievalOptions = z.infer<typeof RetrievalOptions>;
export const RerankingOptions = z.strictObject({ enabled: z.boolean().optional(), model: z.string().max(256).optional(), match_threshold: z.number().min(0).max(1).optional() });
export const QueryRewriteOptions = z.strictObject({
  enabled: z.boolean().optional(),
  model: z.string().max(256).optional(),
  rewrite_prompt: z
    .string()
    .max(MAX_QUERY_LENGTH * 4)
    .optional(),
});
export const CacheOptions = z.strictObject({ enabled: z.boolean().optional(), cache_threshold: z.enum(['super_strict_match', 'close_enough', 'flexible_friend', 'anything_goes']).optional() });
const aiSearchOptionsShape = {
  retrieval: RetrievalOptions.optional(),
  reranking: RerankingOptions.optional(),
  query_rewrite: QueryRewriteOptions.optional(),
  cache: CacheOptions.optional(),
  /** Labels for AI Gateway logs: at most two entries. */
  custom_metadata: z
    .record(z.string().max(64), z.union([z.string().max(256), z.number(), z.boolean()]))
    .refine((value) => Object.keys(value).length <= 2, 'takes at most 2 entries')
    .optional(),
};
export const AiSearchOptions = z.strictObject(aiSearchOptionsShape);
export type AiSearchOptions = z.infer<typeof AiSearchOptions>;
/** Namespace-level requests name the instances to search across. */
export const NamespaceAiSearchOptions = z.strictObject({ ...aiSearchOptionsShape, instance_ids: z.array(z.string().min(1).max(64)).min(1).max(10) });
export type NamespaceAiSearchOptions = z.infer<typeof NamespaceAiSearchOptions>;

const eitherMessagesOrQuery: [(body: { messages?: unknown; query?: unknown }) => boolean, { message: string; path: string[] }] = [
  (body) => (body.messages === undefined) !== (body.query === undefined),
  { message: 'send either "messages" or "query", not both and not neither', path: ['messages'] },
];
const searchShape = {
  messages: z.array(ChatMessage).min(1).max(100).optional(),
  query: z.string().max(MAX_QUERY_LENGTH).optional(),
  stream: z.boolean().optional(),
};
export const SearchRequest = z.strictObject({ ...searchShape, ai_search_options: AiSearchOptions.optional() }).refine(...eitherMessagesOrQuery);
export type SearchRequest = z.infer<typeof SearchRequest>;
export const NamespaceSearchRequest = z.strictObject({ ...searchShape, ai_search_options: NamespaceAiSearchOptions }).refine(...eitherMessagesOrQuery);
export type NamespaceSearchRequest = z.infer<typeof NamespaceSearchRequest>;

/** Chat completions take the OpenAI request's other parameters (`temperature`, …): accepted, and named as ignored in the answer. */
const chatShape = { messages: z.array(ChatMessage).min(1).max(100), stream: z.boolean().optional(), model: z.string().max(256).optional() };
export const ChatCompletionsRequest = z.looseObject({ ...chatShape, ai_search_options: AiSearchOptions.optional() });
export type ChatCompletionsRequest = z.infer<typeof ChatCompletionsRequest>;
export const NamespaceChatCompletionsRequest = z.looseObject({ ...chatShape, ai_search_options: NamespaceAiSearchOptions });
export type NamespaceChatCompletionsRequest = z.infer<typeof NamespaceChatCompletionsRequest>;

export const LegacySearchRequest = z.object({
  query: z.string().max(MAX_QUERY_LENGTH),
  /** Legacy-format filter; translated by `translateLegacyFilter`. */
  filters: z.unknown().optional(),
  stream: z.boolean().optional(),
  max_num_results: z.int().min(1).max(MAX_RESULTS_LIMIT).optional(),
});
export type LegacySearchRequest = z.infer<typeof LegacySearchRequest>;

/** The text of a message's content: a string as it is, text parts joined by a space (other parts carry no text). */
export function textOfContent(content: ChatMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join(' ');
}

/** The search text of a conversation: the last user message's text. */
export function queryOfMessages(messages: readonly ChatMessage[]): string | undefined {
  const last = messages.findLast((message) => message.role === 'user');
  return last === undefined ? undefined : textOfContent(last.content);
}

/** Where a conversation has parts that are not text (`/messages/0/content/1`), and their type. */
export function nonTextParts(messages: readonly ChatMessage[]): { pointer: string; type: ContentPart['type'] }[] {
  return messages.flatMap((message, i) =>
    Array.isArray(message.content) ? message.content.flatMap((part, j) => (part.type === 'text' ? [] : [{ pointer: `/messages/${i}/content/${j}`, type: part.type }])) : [],
  );
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

/** A chunk of a namespace-level answer: which instance it came from. */
export const NamespaceChunk = SearchChunk.extend({ instance_id: z.string() });
export type NamespaceChunk = z.infer<typeof NamespaceChunk>;
/** What the query was: this instance indexes text, so always `text` here (other instances may say `image` or `multimodal`). */
export const QueryKind = z.enum(['text', 'image', 'multimodal']);

export const EnvelopeMessage = z.object({ code: z.int().optional(), message: z.string() });
/** An instance a namespace-level request could not search (unknown, or failed), beside the others' answers. */
export const InstanceFailure = z.object({ instance_id: z.string(), message: z.string() });

/** `result` of a search: `{search_query, query_kind, chunks}`, as the SDK's `InstanceSearchResponse`. */
export const SearchResult = z.object({ search_query: z.string(), query_kind: QueryKind, chunks: z.array(SearchChunk) });
export type SearchResult = z.infer<typeof SearchResult>;
export const NamespaceSearchResult = z.object({ search_query: z.string(), query_kind: QueryKind, chunks: z.array(NamespaceChunk), errors: z.array(InstanceFailure).optional() });
export type NamespaceSearchResult = z.infer<typeof NamespaceSearchResult>;

/**
 * A chat completion, sent bare (no envelope; errors still come as the envelope), as the SDK's
 * `InstanceChatCompletionsResponse`: OpenAI's fields plus the retrieved `chunks`. The reference
 * instance adds `search_query` and `messages` (notes such as code 20001, extractive), which the
 * SDK's types allow as extra keys and other instances may leave out.
 */
export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.int().optional(),
  model: z.string(),
  choices: z.array(z.object({ index: z.int(), message: z.object({ role: z.literal('assistant'), content: z.string() }), finish_reason: z.string().nullable().optional() })).min(1),
  chunks: z.array(SearchChunk),
  search_query: z.string().optional(),
  messages: z.array(EnvelopeMessage).optional(),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;
export const NamespaceChatCompletion = ChatCompletion.extend({ chunks: z.array(NamespaceChunk), errors: z.array(InstanceFailure).optional() });
export type NamespaceChatCompletion = z.infer<typeof NamespaceChatCompletion>;

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
  /** 405: a management write (create, update, delete, upload, job) on this read-only instance. */
  readOnly: 7002,
  internal: 5000,
  /** 503: the service's database is away for now; retry after `Retry-After` seconds. */
  unavailable: 5003,
  /** In `messages`: the answer was built from the retrieved chunks, no language model ran. */
  extractiveAnswer: 20001,
  /** In `messages`: a documented option was accepted but means nothing for this instance (which, and why). */
  optionIgnored: 20002,
} as const;

export const SERVICE_KEY_END_OF_LIFE = '2026-09-30';

/** A namespace (`ai-search/namespaces/{name}`); every account has `default`. */
export const NamespaceInfo = z.object({
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string().nullable(),
  public_endpoint_id: z.string().nullable(),
  public_endpoint_params: z.null(),
});
export type NamespaceInfo = z.infer<typeof NamespaceInfo>;

/**
 * An instance as `instances.read` and `instances.list` describe it (every field the SDK's
 * `InstanceListResponse` requires): the reference instance is a keyword (BM25) index over the
 * catalog, filled by the service itself, with no embedding, generation, reranking, rewriting,
 * similarity cache or public endpoint.
 */
export const InstanceInfo = z.object({
  id: z.string(),
  namespace: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
  created_by: z.string().nullable(),
  modified_by: z.string().nullable(),
  last_activity: z.string().nullable(),
  status: z.string(),
  enable: z.boolean(),
  paused: z.boolean(),
  engine_version: z.int(),
  type: z.null(),
  source: z.string().nullable(),
  source_params: z.null(),
  token_id: z.null(),
  ai_gateway_id: z.null(),
  ai_search_model: z.string().nullable(),
  embedding_model: z.null(),
  index_method: z.object({ keyword: z.boolean(), vector: z.boolean() }),
  hybrid_search_enabled: z.boolean(),
  indexing_options: z.object({ keyword_tokenizer: z.enum(['porter', 'trigram']) }),
  retrieval_options: z.object({ keyword_match_mode: z.enum(['and', 'or']) }),
  fusion_method: z.enum(['max', 'rrf']),
  max_num_results: z.int(),
  score_threshold: z.number(),
  chunk: z.boolean(),
  chunk_size: z.null(),
  chunk_overlap: z.null(),
  custom_metadata: z.array(z.object({ field_name: z.string(), data_type: z.enum(['text', 'number', 'boolean', 'datetime']) })),
  reranking: z.boolean(),
  reranking_model: z.null(),
  rewrite_query: z.boolean(),
  rewrite_model: z.null(),
  cache: z.boolean(),
  cache_threshold: z.null(),
  cache_ttl: z.literal(600),
  summarization: z.boolean(),
  summarization_model: z.null(),
  system_prompt_ai_search: z.null(),
  system_prompt_index_summarization: z.null(),
  system_prompt_rewrite_query: z.null(),
  sync_interval: z.literal(86400),
  metadata: z.null(),
  public_endpoint_id: z.null(),
  public_endpoint_params: z.null(),
});
export type InstanceInfo = z.infer<typeof InstanceInfo>;

/** `instances.stats`: every indexed item is `completed` (the service indexes the catalog itself, at once). */
export const InstanceStats = z.object({
  completed: z.int(),
  queued: z.int(),
  running: z.int(),
  error: z.int(),
  skipped: z.int(),
  outdated: z.int(),
  last_activity: z.string().nullable(),
});
export type InstanceStats = z.infer<typeof InstanceStats>;

/** One indexed item (`…/items`, `…/items/{item_id}`): here one per breach, in one chunk. */
export const ItemInfo = z.object({
  id: z.string(),
  key: z.string(),
  namespace: z.string(),
  source_id: z.string().nullable(),
  status: z.enum(['queued', 'running', 'completed', 'error', 'skipped', 'outdated']),
  next_action: z.null(),
  checksum: z.string(),
  chunks_count: z.int().nullable(),
  file_size: z.int().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /**
   * Values are strings, numbers or booleans only (as the SDK's type says): data classes are joined
   * with ", ". Typed loosely here because the OpenAPI validator refuses a union of primitive types.
   */
  metadata: z.record(z.string(), z.unknown()).nullable(),
});
export type ItemInfo = z.infer<typeof ItemInfo>;

/** Paging of list answers (`result_info`), as the platform's V4 page pagination. */
export const ResultInfo = z.object({ page: z.int(), per_page: z.int(), count: z.int(), total_count: z.int() });
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/** A remote instance as the app keeps it in settings (the API token is kept in the keychain). */
export const SearchRemoteInstance = z.strictObject({
  baseUrl: z.url().refine((value) => /^https?:\/\//.test(value), 'must be an http(s) address such as https://api.example.com/client/v4'),
  accountId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "-" or "_"'),
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, ".", "-" or "_"'),
  /**
   * The instance's namespace (`ai-search/namespaces/{namespace}/instances/{name}`); settings saved
   * before namespaces existed have none, which means `default`, where Cloudflare keeps the
   * instances of the deprecated un-namespaced routes. Not used for legacy instances.
   */
  namespace: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "-" or "_"')
    .optional(),
  /** A `legacy-rag/rags` instance. */
  legacy: z.boolean(),
});
export const DEFAULT_NAMESPACE = 'default';
export type SearchRemoteInstance = z.infer<typeof SearchRemoteInstance>;
