import * as search from '../../shared/search/index.ts';

/**
 * The search interface (`/client/v4`, seed 002) in the OpenAPI document: its zod schemas by name
 * and its paths. Path items carry their own `servers`, since the interface lives beside the
 * Breach Alerts API rather than under `/api/v1`.
 */
export const SEARCH_SCHEMAS = {
  SearchRequest: search.SearchRequest,
  ChatCompletionsRequest: search.ChatCompletionsRequest,
  LegacySearchRequest: search.LegacySearchRequest,
  SearchChunk: search.SearchChunk,
  SearchResult: search.SearchResult,
  ChatCompletion: search.ChatCompletion,
  ChatCompletionDelta: search.ChatCompletionDelta,
  ChunksEvent: search.ChunksEvent,
  LegacySearchResult: search.LegacySearchResult,
  LegacyAiSearchResult: search.LegacyAiSearchResult,
  LegacyStreamDelta: search.LegacyStreamDelta,
  EnvelopeError: search.EnvelopeError,
  EnvelopeMessage: search.EnvelopeMessage,
};

const SERVERS = [{ url: 'http://localhost:6060/client/v4', description: 'Local development (the search interface)' }];
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const PATH_PARAMETERS = [
  { name: 'account_id', in: 'path', required: true, description: "The service's account (`--account-id`, default `local`)", schema: { type: 'string' } },
  { name: 'name', in: 'path', required: true, description: 'The instance: `breaches`, indexing the catalog', schema: { type: 'string' } },
];
const FILTERS_NEW =
  'New-format metadata filter in `ai_search_options.retrieval.filters`: field → value (implicit `$eq`) or `{"$eq"|"$ne"|"$gt"|"$gte"|"$lt"|"$lte"|"$in"|"$nin": …}`, fields AND together; on `dataClasses` `$eq` means contains, `$in`/`$nin` any/none of. Fields: key, timestamp, title, domain, breachDate (integer seconds), dataClasses, isSensitive, isVerified, pwnCount. A bad filter is a 400 (code 7401) with one error per problem, each naming its JSON Pointer.';
const FILTERS_LEGACY =
  'Legacy filter in `filters`: `{type: eq|ne|gt|gte|lt|lte, key, value}`, `{type: "and", filters}`, or an `or` of `eq` on one key; translated to the new format (millisecond timestamps become integer seconds). Anything untranslatable is a 400 (code 7401) saying what and where.';

/** `{result, success, errors, messages}` with `result` of the given schema (`null` on failure). */
function envelope(result: Record<string, unknown>) {
  return {
    type: 'object',
    required: ['result', 'success', 'errors', 'messages'],
    properties: { result, success: { type: 'boolean' }, errors: { type: 'array', items: ref('EnvelopeError') }, messages: { type: 'array', items: ref('EnvelopeMessage') } },
  };
}
/** Component schemas that are not zod schemas: the failure envelope every error answers with. */
export const SEARCH_EXTRA_SCHEMAS = { SearchFailure: envelope({ type: 'null' }) };
const failure = (description: string) => ({ description, content: { 'application/json': { schema: ref('SearchFailure') } } });
const ERRORS = {
  '400': failure('Invalid request, filter or headers (codes 7400, 7401, 6003, 6007); the root cause directly in `errors`, no `error_chain`'),
  '401': failure('No, invalid, expired or revoked API token, or a Service Key (codes 10000–10003; 10001: Service Key authentication reached its end of life on 2026-09-30)'),
  '403': failure('Client IP not allowed, another account, or the token lacks the scope (codes 10004–10006)'),
  '404': failure('No such endpoint or instance (code 7003)'),
  '405': failure('Only POST (code 7001)'),
  '413': failure('Body larger than 64 KiB (code 6009)'),
  '415': failure('Body is not JSON (code 6008)'),
  '500': failure('The search service failed (code 5000)'),
  '503': {
    ...failure("The service's database (PostgreSQL, shared by instances) is away for now (code 5003); retry after `Retry-After` seconds"),
    headers: { 'Retry-After': { schema: { type: 'integer', minimum: 0 }, description: 'Seconds to wait before asking again' } },
  },
};

function operation(operationId: string, summary: string, scope: string, request: string, result: Record<string, unknown>, stream: string) {
  return {
    post: {
      operationId,
      summary,
      description: `Needs an API token with the \`${scope}\` scope.`,
      security: [{ apiToken: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: ref(request) } } },
      responses: {
        '200': {
          description: 'The answer in the envelope; with `stream: true`, server-sent events instead',
          content: {
            'application/json': { schema: envelope(result) },
            'text/event-stream': { schema: { type: 'string', description: stream } },
          },
        },
        ...ERRORS,
      },
    },
  };
}

export function searchPaths(): Record<string, unknown> {
  const item = (op: ReturnType<typeof operation>, description: string) => ({ servers: SERVERS, parameters: PATH_PARAMETERS, description, ...op });
  return {
    '/accounts/{account_id}/ai-search/instances/{name}/search': item(
      operation(
        'aiSearch',
        'Retrieve the chunks that best answer `messages` (the last user message) or `query`',
        'ai-search:read',
        'SearchRequest',
        ref('SearchResult'),
        'An event named `chunks` (ChunksEvent) first, then one `data:` with the envelope, then `data: [DONE]`',
      ),
      FILTERS_NEW,
    ),
    '/accounts/{account_id}/ai-search/instances/{name}/chat/completions': item(
      operation(
        'aiSearchChatCompletions',
        'Retrieval plus an answer; the reference instance answers extractively (built from the chunks, citing them) and says so in `messages` (code 20001)',
        'ai-search:run',
        'ChatCompletionsRequest',
        ref('ChatCompletion'),
        'An event named `chunks` (ChunksEvent) first, then ChatCompletionDelta pieces, then `data: [DONE]`',
      ),
      FILTERS_NEW,
    ),
    '/accounts/{account_id}/legacy-rag/rags/{name}/search': item(
      operation(
        'legacyRagSearch',
        'Legacy search: the page of results, attributes in the legacy unit (milliseconds)',
        'ai-search:read',
        'LegacySearchRequest',
        ref('LegacySearchResult'),
        'One `data:` with the envelope of the page, then `data: [DONE]`; no chunks event',
      ),
      FILTERS_LEGACY,
    ),
    '/accounts/{account_id}/legacy-rag/rags/{name}/ai-search': item(
      operation(
        'legacyRagAiSearch',
        'Legacy search plus an extractive `response`',
        'ai-search:run',
        'LegacySearchRequest',
        ref('LegacyAiSearchResult'),
        'Only the response: `data:` LegacyStreamDelta pieces, then `data: [DONE]`; no chunks event',
      ),
      FILTERS_LEGACY,
    ),
  };
}
