import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  DEFAULT_MAX_RESULTS,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  SearchCodes,
  toChunk,
  type InstanceInfo,
  type ItemInfo,
  type NamespaceInfo,
  type SearchChunk,
  type SearchHit,
} from '../../shared/search/index.ts';
import { SearchError } from './envelope.ts';
import { CUSTOM_METADATA, INSTANCE_KEYWORD_MATCH_MODE } from './retrieval.ts';

/**
 * How the read-only reference instance describes itself through the management reads
 * (`namespaces`, `instances`, `stats`, `items`), in the shapes of the SDK's types.
 */

/** Where the items come from: the service indexes its own catalog ("{type}:{source}", as the SDK describes `source_id`). */
export const ITEM_SOURCE_ID = 'catalog:breaches';
const MODEL = 'breach-monitor/extractive';
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function describeNamespace(name: string, createdAt: string): NamespaceInfo {
  return {
    name,
    description: name === 'default' ? "The account's default namespace: the breach catalog's search instance" : null,
    created_at: createdAt,
    public_endpoint_id: null,
    public_endpoint_params: null,
  };
}

export function describeInstance(id: string, namespace: string, startedAt: string): InstanceInfo {
  return {
    id,
    namespace,
    created_at: startedAt,
    modified_at: startedAt,
    created_by: null,
    modified_by: null,
    last_activity: null,
    status: 'ready',
    enable: true,
    paused: false,
    engine_version: 1,
    type: null,
    source: ITEM_SOURCE_ID,
    source_params: null,
    token_id: null,
    ai_gateway_id: null,
    ai_search_model: MODEL,
    embedding_model: null,
    index_method: { keyword: true, vector: false },
    hybrid_search_enabled: false,
    indexing_options: { keyword_tokenizer: 'porter' },
    retrieval_options: { keyword_match_mode: INSTANCE_KEYWORD_MATCH_MODE },
    fusion_method: 'rrf',
    max_num_results: DEFAULT_MAX_RESULTS,
    score_threshold: 0,
    chunk: true,
    chunk_size: null,
    chunk_overlap: null,
    custom_metadata: CUSTOM_METADATA,
    reranking: false,
    reranking_model: null,
    rewrite_query: false,
    rewrite_model: null,
    cache: false,
    cache_threshold: null,
    cache_ttl: 600,
    summarization: false,
    summarization_model: null,
    system_prompt_ai_search: null,
    system_prompt_index_summarization: null,
    system_prompt_rewrite_query: null,
    sync_interval: 86400,
    metadata: null,
    public_endpoint_id: null,
    public_endpoint_params: null,
  };
}

/** One item per indexed breach: its one chunk's text is the item's content. */
export function toItem(hit: SearchHit, namespace: string): ItemInfo {
  const chunk = toChunk(hit);
  const { metadata } = chunk.item;
  return {
    id: hit.doc.id,
    key: chunk.item.key,
    namespace,
    source_id: ITEM_SOURCE_ID,
    status: 'completed',
    next_action: null,
    checksum: createHash('sha256').update(chunk.text).digest('hex'),
    chunks_count: 1,
    file_size: Buffer.byteLength(chunk.text),
    created_at: iso(chunk.item.timestamp),
    // The catalog records when a breach was added, not when it was last seen: the same date.
    last_seen_at: iso(chunk.item.timestamp),
    metadata: { ...metadata, dataClasses: metadata.dataClasses.join(', '), timestamp: chunk.item.timestamp },
  };
}

/** `items/{item_id}/chunks`: the item's one chunk, with its byte range. */
export function itemChunks(hit: SearchHit): { id: string; text: string; item: SearchChunk['item']; start_byte: number; end_byte: number }[] {
  const chunk = toChunk(hit);
  return [{ id: chunk.id, text: chunk.text, item: chunk.item, start_byte: 0, end_byte: Buffer.byteLength(chunk.text) }];
}

const pageNumber = z.coerce.number().int().min(1).max(1_000_000);
/** The query parameters of a list endpoint: paging plus its own (an unknown one is a 400 naming it). */
export function listQuery<T extends z.ZodRawShape>(url: URL, shape: T) {
  const schema = z.strictObject({ page: pageNumber.optional(), per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).optional(), ...shape });
  const parsed = schema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const [first, ...rest] = parsed.error.issues.map((issue) => ({
      code: SearchCodes.invalidRequest,
      message:
        issue.code === 'unrecognized_keys'
          ? `?${issue.keys.join(', ?')}: not a query parameter of this list (it takes ${Object.keys(schema.shape).join(', ')})`
          : `?${issue.path.join('.')}: ${issue.message}`,
    }));
    throw new SearchError(400, SearchCodes.invalidRequest, first!.message, { more: rest });
  }
  return parsed.data;
}

/** One page of a list, and its `result_info`. */
export function paginate<T>(all: readonly T[], query: { page?: number | undefined; per_page?: number | undefined }) {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const result = all.slice((page - 1) * perPage, page * perPage);
  return { result, result_info: { page, per_page: perPage, count: result.length, total_count: all.length } };
}
