import {
  BREACH_FILTER_FIELDS,
  DEFAULT_MAX_RESULTS,
  FilterError,
  finishAsk,
  parseMetadataFilter,
  planAsk,
  SearchCodes,
  searchTerms,
  toChunk,
  type AiSearchOptions,
  type BoostBy,
  type MetadataFilter,
  type SearchChunk,
} from '../../shared/search/index.ts';
import { SearchError } from './envelope.ts';
import type { SearchIndex } from './SearchIndex.ts';

/** A note in `messages`: something the request asked for that this instance did not do, and why. */
export interface Note {
  code: number;
  message: string;
}

/** The data types of the instance's metadata, as `custom_metadata` declares them (and `boost_by` checks). */
export type MetadataType = 'text' | 'number' | 'boolean' | 'datetime';
const TYPE_OF_FIELD_KIND = { string: 'text', 'string[]': 'text', seconds: 'datetime', number: 'number', boolean: 'boolean' } as const satisfies Record<string, MetadataType>;
/** `custom_metadata` of the instance: every filterable field but the item's own `key` and `timestamp`. */
export const CUSTOM_METADATA: { field_name: string; data_type: MetadataType }[] = Object.entries(BREACH_FILTER_FIELDS)
  .filter(([name]) => name !== 'key' && name !== 'timestamp')
  .map(([name, kind]) => ({ field_name: name, data_type: TYPE_OF_FIELD_KIND[kind] }));
/** What `boost_by` may name: the built-in `timestamp` or a custom metadata field (Cloudflare's rule). */
const BOOSTABLE: Record<string, MetadataType> = { timestamp: 'datetime', ...Object.fromEntries(CUSTOM_METADATA.map((field) => [field.field_name, field.data_type])) };

/** Boosting re-scores at most this many candidates (Cloudflare: "retrieves up to 50 candidate chunks"). */
export const BOOST_CANDIDATES = 50;
/** What one `boost_by` entry adds at most to a score in (0, 1]; the additive weight is not documented, this is ours. */
export const BOOST_WEIGHT = 0.5;
/** "Every document": enough for any catalog this service serves. */
export const ALL_DOCUMENTS = 1_000_000;

/** How one request retrieves: the options that mean something for a keyword index, checked. */
export interface RetrievalPlan {
  filter: MetadataFilter | undefined;
  maxResults: number;
  matchThreshold: number | undefined;
  keywordMatchMode: 'and' | 'or';
  boostBy: { field: string; direction: NonNullable<BoostBy['direction']>; type: MetadataType }[];
  /** The documented options accepted but ignored here, each saying why. */
  notes: Note[];
}

/**
 * The instance's own default for `keyword_match_mode` (its `retrieval_options`): `or`, any word
 * of the query, ranked by bm25, as this instance has always answered. A request may ask for `and`.
 */
export const INSTANCE_KEYWORD_MATCH_MODE = 'or';

const ignored = (option: string, why: string): Note => ({ code: SearchCodes.optionIgnored, message: `${option} was ignored: ${why}` });

/** The plan of `ai_search_options` (already shape-checked); bad filters and boosts are 400s naming where. */
export function planRetrieval(options: AiSearchOptions | undefined): RetrievalPlan {
  const retrieval = options?.retrieval;
  const notes: Note[] = [];
  if (retrieval?.retrieval_type !== undefined && retrieval.retrieval_type !== 'keyword') {
    notes.push(ignored(`retrieval_type "${retrieval.retrieval_type}"`, 'this instance has a keyword (BM25) index and no vector index; it answered with keyword retrieval'));
  }
  if (retrieval?.fusion_method !== undefined) notes.push(ignored('fusion_method', 'it merges vector and keyword results, and this instance has keyword results only'));
  if (retrieval?.context_expansion !== undefined && retrieval.context_expansion > 0) {
    notes.push(ignored('context_expansion', 'every item of this instance is one chunk, so there are no neighbouring chunks to add'));
  }
  if (retrieval?.return_on_failure !== undefined) {
    notes.push(ignored('return_on_failure', 'answers always carry what the instances that answered found; an instance that could not be searched is named in errors'));
  }
  if (options?.reranking?.enabled === true) notes.push(ignored('reranking', 'this instance runs no reranking model; results are in keyword (bm25) order'));
  if (options?.query_rewrite?.enabled === true) notes.push(ignored('query_rewrite', 'this instance runs no language model to rewrite queries; the query was searched as written'));
  if (options?.cache !== undefined) notes.push(ignored('cache', 'this instance has no similarity cache (an identical request is answered again from the same catalog revision)'));
  if (options?.custom_metadata !== undefined) notes.push(ignored('custom_metadata', 'it labels AI Gateway logs, and this instance uses no AI Gateway'));
  const boostBy = (retrieval?.boost_by ?? []).map((boost, i) => checkBoost(boost, `/ai_search_options/retrieval/boost_by/${i}`));
  for (const boost of boostBy) {
    if (boost.direction === 'exists' || boost.direction === 'not_exists') {
      notes.push({ code: SearchCodes.optionIgnored, message: `boost_by ${boost.field} ${boost.direction} changes no order: every item of this instance has every metadata field` });
    }
  }
  return {
    filter: newFilter(retrieval?.filters),
    maxResults: retrieval?.max_num_results ?? DEFAULT_MAX_RESULTS,
    matchThreshold: retrieval?.match_threshold,
    keywordMatchMode: retrieval?.keyword_match_mode ?? INSTANCE_KEYWORD_MATCH_MODE,
    boostBy,
    notes,
  };
}

function checkBoost(boost: BoostBy, at: string): RetrievalPlan['boostBy'][number] {
  const type = BOOSTABLE[boost.field];
  if (type === undefined) {
    throw new SearchError(400, SearchCodes.invalidRequest, `${at}/field: "${boost.field}" is neither timestamp nor a metadata field of this instance (${Object.keys(BOOSTABLE).join(', ')})`);
  }
  const ordered = type === 'number' || type === 'datetime';
  const direction = boost.direction ?? (ordered ? 'asc' : 'exists');
  if (!ordered && (direction === 'asc' || direction === 'desc')) {
    throw new SearchError(400, SearchCodes.invalidRequest, `${at}/direction: ${boost.field} is a ${type} field, which can be boosted only by exists or not_exists`);
  }
  return { field: boost.field, direction, type };
}

function newFilter(raw: unknown): MetadataFilter | undefined {
  if (raw === undefined) return undefined;
  try {
    return parseMetadataFilter(raw, BREACH_FILTER_FIELDS, '/ai_search_options/retrieval/filters');
  } catch (error) {
    throw filterProblem(error);
  }
}

/** One envelope error per filter issue, each naming its place in the body. */
export function filterProblem(error: unknown): unknown {
  if (!(error instanceof FilterError)) return error;
  const [first, ...rest] = error.issues.map((issue) => ({ code: SearchCodes.invalidFilter, message: `${issue.pointer}: ${issue.message}` }));
  return new SearchError(400, SearchCodes.invalidFilter, first!.message, { more: rest });
}

/**
 * The chunks of one instance for a query under a plan:
 * 1. keyword retrieval with the filter (every word of the query in `and` mode: the documents
 *    that the index finds for each word alone, intersected, keep the ranking of the whole query);
 * 2. `match_threshold` on the keyword score (in (0, 1], relative to the best match);
 * 3. `boost_by` over the best 50 candidates: each entry adds up to 0.5 (`desc`: the highest value
 *    of the field among the candidates gets 0.5, the lowest 0; `asc` the other way round), as
 *    Cloudflare's additive boost, then the best `max_num_results`.
 */
export async function retrieve(index: SearchIndex, query: string, plan: RetrievalPlan): Promise<SearchChunk[]> {
  // The question understood as the app's embedded engine understands it (shared/search/ask.ts):
  // "unverified breaches since 2019 with passwords" is a filter, "the 5 largest" an order and a
  // cut; only what is left is ranked. The person's own state ("breaches I haven't fixed") is not
  // known here: the app sends it as item keys in the filter.
  const asked = planAsk(query, await vocabularyOf(index));
  const text = asked.ranked;
  const terms = searchTerms(text);
  const everyWord = plan.keywordMatchMode === 'and' && terms.length > 1;
  const pool = plan.boostBy.length > 0 ? Math.max(BOOST_CANDIDATES, plan.maxResults) : plan.maxResults;
  let hits = await index.search({ query: text, filter: plan.filter, maxResults: everyWord || asked.needsAll ? ALL_DOCUMENTS : pool });
  if (everyWord) {
    const withWord = await Promise.all(terms.map(async (term) => new Set((await index.search({ query: term, maxResults: ALL_DOCUMENTS })).map((hit) => hit.doc.id))));
    hits = hits.filter((hit) => withWord.every((ids) => ids.has(hit.doc.id)));
  }
  if (asked.needsAll) hits = finishAsk(asked, hits, ALL_DOCUMENTS).hits;
  if (plan.matchThreshold !== undefined) hits = hits.filter((hit) => hit.score >= plan.matchThreshold!);
  const chunks = hits.slice(0, pool).map(toChunk);
  return (plan.boostBy.length > 0 ? boost(chunks, plan.boostBy) : chunks).slice(0, plan.maxResults);
}

const vocabularies = new WeakMap<SearchIndex, { revision: string; names: { id: string; title: string }[]; dataClasses: string[] }>();

/** The titles and data class names a question may name, read once per index revision. */
async function vocabularyOf(index: SearchIndex): Promise<{ names: { id: string; title: string }[]; dataClasses: string[] }> {
  const revision = await index.revision();
  const cached = vocabularies.get(index);
  if (cached?.revision === revision) return cached;
  const docs = (await index.search({ query: '', maxResults: ALL_DOCUMENTS })).map((hit) => hit.doc);
  const read = { revision, names: docs.map((doc) => ({ id: doc.id, title: doc.title })), dataClasses: [...new Set(docs.flatMap((doc) => doc.dataClasses))] };
  vocabularies.set(index, read);
  return read;
}

function fieldValue(chunk: SearchChunk, field: string): number | undefined {
  if (field === 'timestamp') return chunk.item.timestamp;
  const value = (chunk.item.metadata as Record<string, unknown>)[field];
  return typeof value === 'number' ? value : undefined;
}

function boost(chunks: SearchChunk[], boosts: RetrievalPlan['boostBy']): SearchChunk[] {
  const added = chunks.map(() => 0);
  for (const { field, direction } of boosts) {
    if (direction === 'exists' || direction === 'not_exists') {
      const has = (chunk: SearchChunk) => field === 'timestamp' || field in chunk.item.metadata;
      chunks.forEach((chunk, i) => (added[i]! += has(chunk) === (direction === 'exists') ? BOOST_WEIGHT : 0));
      continue;
    }
    const values = chunks.map((chunk) => fieldValue(chunk, field));
    const present = values.filter((value): value is number => value !== undefined);
    const low = Math.min(...present);
    const high = Math.max(...present);
    if (!(high > low)) continue;
    values.forEach((value, i) => {
      if (value === undefined) return;
      const position = (value - low) / (high - low);
      added[i]! += BOOST_WEIGHT * (direction === 'desc' ? position : 1 - position);
    });
  }
  return chunks
    .map((chunk, i) => ({ chunk: { ...chunk, score: Math.round((chunk.score + added[i]!) * 10_000) / 10_000 }, i }))
    .sort((a, b) => b.chunk.score - a.chunk.score || a.i - b.i)
    .map(({ chunk }) => chunk);
}
