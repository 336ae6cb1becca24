import * as search from '../../shared/search/index.ts';

/**
 * The search interface (`/client/v4`, seed 002) in the OpenAPI document: its zod schemas by name
 * and its paths. Path items carry their own `servers`, since the interface lives beside the
 * Breach Alerts API rather than under `/api/v1`.
 */
export const SEARCH_SCHEMAS = {
  SearchRequest: search.SearchRequest,
  NamespaceSearchRequest: search.NamespaceSearchRequest,
  ChatCompletionsRequest: search.ChatCompletionsRequest,
  NamespaceChatCompletionsRequest: search.NamespaceChatCompletionsRequest,
  LegacySearchRequest: search.LegacySearchRequest,
  SearchChunk: search.SearchChunk,
  NamespaceChunk: search.NamespaceChunk,
  SearchResult: search.SearchResult,
  NamespaceSearchResult: search.NamespaceSearchResult,
  ChatCompletion: search.ChatCompletion,
  NamespaceChatCompletion: search.NamespaceChatCompletion,
  ChatCompletionDelta: search.ChatCompletionDelta,
  ChunksEvent: search.ChunksEvent,
  LegacySearchResult: search.LegacySearchResult,
  LegacyAiSearchResult: search.LegacyAiSearchResult,
  LegacyStreamDelta: search.LegacyStreamDelta,
  NamespaceInfo: search.NamespaceInfo,
  InstanceInfo: search.InstanceInfo,
  InstanceStats: search.InstanceStats,
  ItemInfo: search.ItemInfo,
  ResultInfo: search.ResultInfo,
  EnvelopeError: search.EnvelopeError,
  EnvelopeMessage: search.EnvelopeMessage,
};

const SERVERS = [{ url: 'http://localhost:6060/client/v4', description: 'Local development (the search interface)' }];
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const PARAMETER = {
  account_id: { name: 'account_id', in: 'path', required: true, description: "The service's account (`--account-id`, default `local`)", schema: { type: 'string' } },
  instanceName: { name: 'name', in: 'path', required: true, description: 'The instance: `breaches`, indexing the catalog', schema: { type: 'string' } },
  namespace: { name: 'name', in: 'path', required: true, description: 'The namespace: `default`', schema: { type: 'string' } },
  instanceId: { name: 'id', in: 'path', required: true, description: 'The instance: `breaches`, indexing the catalog', schema: { type: 'string' } },
  item_id: { name: 'item_id', in: 'path', required: true, description: 'An item: the id of a breach (one item per breach, e.g. `Adobe`)', schema: { type: 'string' } },
};
const PATH_PARAMETERS = [PARAMETER.account_id, PARAMETER.instanceName];
const FILTERS_NEW =
  'New-format metadata filter in `ai_search_options.retrieval.filters`: field → value (implicit `$eq`) or `{"$eq"|"$ne"|"$gt"|"$gte"|"$lt"|"$lte"|"$in"|"$nin": …}`, fields AND together; on `dataClasses` `$eq` means contains, `$in`/`$nin` any/none of. Fields: key, timestamp, title, domain, breachDate (integer seconds, or an ISO 8601 date or date-time string such as `"2016-01-01"` or `"2016-01-01T00:00:00Z"`, as the `datetime` type of Cloudflare), dataClasses, isSensitive, isVerified, pwnCount. A bad filter is a 400 (code 7401) with one error per problem, each naming its JSON Pointer.';
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
  '405': failure('Another method (code 7001; `Allow` names the methods); a management write on this read-only instance (code 7002)'),
  '413': failure('Body larger than 64 KiB (code 6009)'),
  '415': failure('Body is not JSON (code 6008)'),
  '500': failure('The search service failed (code 5000)'),
  '503': {
    ...failure("The service's database (PostgreSQL, shared by instances) is away for now (code 5003); retry after `Retry-After` seconds"),
    headers: { 'Retry-After': { schema: { type: 'integer', minimum: 0 }, description: 'Seconds to wait before asking again' } },
  },
};

function operation(operationId: string, summary: string, scope: string, request: string, result: Record<string, unknown>, stream: string, bare = false) {
  return {
    post: {
      operationId,
      summary,
      description: `Needs an API token with the \`${scope}\` scope.${bare ? ' A successful answer is the chat completion itself, not inside the envelope (errors still are).' : ''}`,
      security: [{ apiToken: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: ref(request) } } },
      responses: {
        '200': {
          description: bare ? 'The chat completion, bare; with `stream: true`, server-sent events instead' : 'The answer in the envelope; with `stream: true`, server-sent events instead',
          content: {
            'application/json': { schema: bare ? result : envelope(result) },
            'text/event-stream': { schema: { type: 'string', description: stream } },
          },
        },
        ...ERRORS,
      },
    },
  };
}

/** A management read: the envelope (with `result_info` for lists); the writes the SDK offers on the same path answer 405. */
function read(operationId: string, summary: string, result: Record<string, unknown>, options: { list?: boolean; query?: Record<string, unknown>[]; writes?: string[] } = {}) {
  const answer = options.list
    ? {
        ...envelope({ type: 'array', items: result }),
        required: ['result', 'result_info', 'success', 'errors', 'messages'],
        properties: { ...envelope({}).properties, result: { type: 'array', items: result }, result_info: ref('ResultInfo') },
      }
    : envelope(result);
  const refused = Object.fromEntries(
    (options.writes ?? []).map((method) => [
      method,
      {
        operationId: `${operationId}${method[0]!.toUpperCase()}${method.slice(1)}Refused`,
        summary: 'Refused: this reference instance is read-only (it indexes the catalog itself)',
        security: [{ apiToken: [] }],
        responses: { '405': failure('Read-only instance (code 7002); `Allow` names the methods this path serves') },
      },
    ]),
  );
  return {
    get: {
      operationId,
      summary,
      description: 'Needs an API token with the `ai-search:read` scope.',
      security: [{ apiToken: [] }],
      ...(options.query ? { parameters: options.query } : {}),
      responses: { '200': { description: 'The answer in the envelope', content: { 'application/json': { schema: answer } } }, ...ERRORS },
    },
    ...refused,
  };
}
const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });
const PAGING = [query('page', 'Page number, from 1', { type: 'integer', minimum: 1 }), query('per_page', 'Items per page (default 20, at most 100)', { type: 'integer', minimum: 1, maximum: 100 })];
const OPTIONS_NOTE =
  ' Retrieval options (`ai_search_options`): applied: `retrieval.filters`, `max_num_results` (1–50, default 10), `match_threshold` (on the keyword score), `keyword_match_mode` (`or`, the instance default, or `and`: every word), `retrieval_type` `keyword`, `boost_by` (`timestamp`, `breachDate`, `pwnCount` asc/desc; exists/not_exists on any field); accepted and named as ignored in `messages` (code 20002): `retrieval_type` vector/hybrid, `fusion_method`, `context_expansion`, `return_on_failure`, `reranking`, `query_rewrite`, `cache`, `custom_metadata`. An unknown option is a 400 naming it. Message `content`: a string or typed parts; text parts are joined, image and file parts are a 400 (this instance indexes text only). The query is understood as the app\'s Search page understands it: data classes, flags (unverified, fabricated, malware…), negations, dates, breach names, account counts and orders ("the 5 largest breaches with passwords") filter, order and cut the answer; only the words left are ranked.';

export function searchPaths(): Record<string, unknown> {
  const item = (op: Record<string, unknown>, description: string, parameters: unknown[] = PATH_PARAMETERS) => ({ servers: SERVERS, parameters, description, ...op });
  const deprecated = (op: ReturnType<typeof operation>) => ({ post: { ...op.post, deprecated: true } });
  const inNamespace = [PARAMETER.account_id, PARAMETER.namespace];
  const ofInstance = [PARAMETER.account_id, PARAMETER.namespace, PARAMETER.instanceId];
  const NS = '/accounts/{account_id}/ai-search/namespaces';
  const INSTANCE = `${NS}/{name}/instances/{id}`;
  const searchOp = (id: string, request: string, result: string) =>
    operation(
      id,
      'Retrieve the chunks that best answer `messages` (the last user message) or `query`',
      'ai-search:read',
      request,
      ref(result),
      'An event named `chunks` (ChunksEvent) first, then one `data:` with the envelope, then `data: [DONE]`',
    );
  const chatOp = (id: string, request: string, result: string) =>
    operation(
      id,
      'Retrieval plus an answer; the reference instance answers extractively (built from the chunks, citing them) and says so in `messages` (code 20001)',
      'ai-search:run',
      request,
      ref(result),
      'An event named `chunks` (ChunksEvent) first, then ChatCompletionDelta pieces, then `data: [DONE]`',
      true,
    );
  return {
    [NS]: item(
      read('aiSearchNamespacesList', 'The namespaces of the account (`default`)', ref('NamespaceInfo'), {
        list: true,
        query: [...PAGING, query('search', 'Only namespaces whose name or description contains this')],
        writes: ['post'],
      }),
      'Namespaces',
      [PARAMETER.account_id],
    ),
    [`${NS}/{name}`]: item(read('aiSearchNamespaceRead', 'A namespace', ref('NamespaceInfo'), { writes: ['put', 'delete', 'patch'] }), 'A namespace', inNamespace),
    [`${NS}/{name}/search`]: item(
      searchOp('aiSearchNamespaceSearch', 'NamespaceSearchRequest', 'NamespaceSearchResult'),
      `Search across the namespace's instances named in \`ai_search_options.instance_ids\` (chunks merged by score, each with its \`instance_id\`; instances the namespace lacks are named in \`errors\`, a 404 when none is known). ${FILTERS_NEW}${OPTIONS_NOTE}`,
      inNamespace,
    ),
    [`${NS}/{name}/chat/completions`]: item(
      chatOp('aiSearchNamespaceChatCompletions', 'NamespaceChatCompletionsRequest', 'NamespaceChatCompletion'),
      `Chat completions across the namespace's instances named in \`ai_search_options.instance_ids\`. ${FILTERS_NEW}${OPTIONS_NOTE}`,
      inNamespace,
    ),
    [`${NS}/{name}/instances`]: item(
      read('aiSearchNamespaceInstancesList', "The namespace's instances", ref('InstanceInfo'), {
        list: true,
        query: [...PAGING, query('search', 'Only instances whose id contains this')],
        writes: ['post'],
      }),
      'Instances of a namespace',
      inNamespace,
    ),
    [INSTANCE]: item(read('aiSearchNamespaceInstanceRead', 'An instance: a keyword (BM25) index over the catalog', ref('InstanceInfo'), { writes: ['put', 'delete'] }), 'An instance', ofInstance),
    [`${INSTANCE}/stats`]: item(read('aiSearchNamespaceInstanceStats', 'Indexing counts: every item completed', ref('InstanceStats')), 'Instance stats', ofInstance),
    [`${INSTANCE}/search`]: item(searchOp('aiSearchNamespaceInstanceSearch', 'SearchRequest', 'SearchResult'), FILTERS_NEW + OPTIONS_NOTE, ofInstance),
    [`${INSTANCE}/chat/completions`]: item(chatOp('aiSearchNamespaceInstanceChatCompletions', 'ChatCompletionsRequest', 'ChatCompletion'), FILTERS_NEW + OPTIONS_NOTE, ofInstance),
    [`${INSTANCE}/items`]: item(
      read('aiSearchItemsList', 'The indexed items: one per breach, newest added first', ref('ItemInfo'), {
        list: true,
        query: [
          ...PAGING,
          query('item_id', 'Only the item with this id'),
          query('key', 'Only the item with this key (`breaches/<id>`)'),
          query('search', 'Only items whose key or title contains this'),
          query('status', 'Only items of this status (all are `completed`)'),
          query('source', 'Only items of this source (`catalog:breaches`)'),
          query('sort_by', '`status` or `modified_at` (both: newest added first)'),
          query('metadata_filter', 'A new-format metadata filter as JSON'),
        ],
        writes: ['post', 'put'],
      }),
      'Items of an instance',
      ofInstance,
    ),
    [`${INSTANCE}/items/{item_id}`]: item(read('aiSearchItemGet', 'An item', ref('ItemInfo'), { writes: ['delete', 'patch'] }), 'An item', [...ofInstance, PARAMETER.item_id]),
    '/accounts/{account_id}/ai-search/instances': item(
      read('aiSearchInstancesList', 'Deprecated by Cloudflare for the namespaced list: the instances of every namespace (or of `namespace`)', ref('InstanceInfo'), {
        list: true,
        query: [...PAGING, query('search', 'Only instances whose id contains this'), query('namespace', 'Only the instances of this namespace')],
        writes: ['post'],
      }),
      'Instances (deprecated route)',
      [PARAMETER.account_id],
    ),
    '/accounts/{account_id}/ai-search/instances/{name}': item(
      read('aiSearchInstanceRead', 'Deprecated by Cloudflare for the namespaced read', ref('InstanceInfo'), { writes: ['put', 'delete'] }),
      'An instance of the `default` namespace (deprecated route)',
    ),
    '/accounts/{account_id}/ai-search/instances/{name}/stats': item(
      read('aiSearchInstanceStats', 'Deprecated by Cloudflare for the namespaced stats', ref('InstanceStats')),
      'Instance stats (deprecated route)',
    ),
    '/accounts/{account_id}/ai-search/instances/{name}/search': item(
      deprecated(searchOp('aiSearch', 'SearchRequest', 'SearchResult')),
      `Deprecated by Cloudflare for the namespaced route; the instance of the \`default\` namespace. ${FILTERS_NEW}${OPTIONS_NOTE}`,
    ),
    '/accounts/{account_id}/ai-search/instances/{name}/chat/completions': item(
      deprecated(chatOp('aiSearchChatCompletions', 'ChatCompletionsRequest', 'ChatCompletion')),
      `Deprecated by Cloudflare for the namespaced route. ${FILTERS_NEW}${OPTIONS_NOTE}`,
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
