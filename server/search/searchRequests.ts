import type { z } from 'zod';
import {
  AiSearchOptions,
  BoostBy,
  BREACH_FILTER_FIELDS,
  CacheOptions,
  NamespaceAiSearchOptions,
  nonTextParts,
  parseMetadataFilter,
  queryOfMessages,
  QueryRewriteOptions,
  RerankingOptions,
  RetrievalOptions,
  SearchCodes,
  SearchRequest,
  translateLegacyFilter,
  type ChatMessage,
  type MetadataFilter,
} from '../../shared/search/index.ts';
import { SearchError } from './envelope.ts';
import { filterProblem, type Note } from './retrieval.ts';

// What the search interface reads of a request: its body checked against the schema, its query,
// its filters, and the options a language model would use (noted as ignored).

/** `metadata_filter` of the items list: the new filter format, as JSON. */
export function itemsFilter(json: string): MetadataFilter {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new SearchError(400, SearchCodes.invalidFilter, '?metadata_filter: is not JSON (send the new filter format, such as {"isVerified":true})');
  }
  try {
    return parseMetadataFilter(raw, BREACH_FILTER_FIELDS, '?metadata_filter');
  } catch (error) {
    throw filterProblem(error);
  }
}

/** Extra notes of a chat completion: the OpenAI parameters a language model would use. */
export function chatNotes(body: Record<string, unknown>): Note[] {
  const notes: Note[] = [];
  if (typeof body.model === 'string' && body.model !== '') {
    notes.push({ code: SearchCodes.optionIgnored, message: `model was ignored: answers are extractive, built from the chunks without a language model` });
  }
  for (const key of Object.keys(body)) {
    if (!CHAT_KEYS.has(key)) notes.push({ code: SearchCodes.optionIgnored, message: `${key} was ignored: it tunes a language model, and this instance runs none` });
  }
  return notes;
}
const CHAT_KEYS = new Set(['messages', 'stream', 'model', 'ai_search_options']);

/** The query of a conversation: the last user message's text. Image and file parts are refused: this instance indexes text. */
export function userQuery(messages: readonly ChatMessage[]): string {
  const refused = nonTextParts(messages);
  if (refused.length > 0) {
    const [first, ...rest] = refused.map(({ pointer, type }) => ({
      code: SearchCodes.invalidRequest,
      message: `${pointer}: this instance indexes text only, so a "${type}" part cannot be searched; send the question as text (a string, or {"type": "text", "text": …} parts)`,
    }));
    throw new SearchError(400, SearchCodes.invalidRequest, first!.message, { more: rest });
  }
  const query = queryOfMessages(messages);
  if (query === undefined) throw new SearchError(400, SearchCodes.invalidRequest, '/messages: needs a message with role "user" (its content is the search query)');
  return query;
}

/** `filters` of a legacy request: the legacy filter format, translated to the new one. */
export function translate(raw: unknown): MetadataFilter {
  try {
    return translateLegacyFilter(raw, BREACH_FILTER_FIELDS, '/filters');
  } catch (error) {
    throw filterProblem(error);
  }
}

/** Every option and body field this interface knows, to suggest the one a misspelt name meant. */
const KNOWN_NAMES = [
  ...Object.keys(SearchRequest.shape),
  ...Object.keys(AiSearchOptions.shape),
  ...Object.keys(NamespaceAiSearchOptions.shape),
  ...Object.keys(RetrievalOptions.shape),
  ...Object.keys(RerankingOptions.shape),
  ...Object.keys(QueryRewriteOptions.shape),
  ...Object.keys(CacheOptions.shape),
  ...Object.keys(BoostBy.shape),
];

/** `body` checked against `schema`; every issue named by its JSON pointer, a misspelt option with the name it likely meant. */
export function parseBody<T extends z.ZodType>(body: unknown, schema: T): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const [first, ...rest] = parsed.error.issues.map((issue) => {
    const at = issue.path.length > 0 ? '/' + issue.path.join('/') : '/';
    if (issue.code !== 'unrecognized_keys') return { code: SearchCodes.invalidRequest, message: `${at}: ${issue.message}` };
    const named = issue.keys.map((key) => {
      const meant = closest(key, KNOWN_NAMES);
      return `"${key}"${meant ? ` (did you mean "${meant}"?)` : ''}`;
    });
    return { code: SearchCodes.invalidRequest, message: `${at}: unknown option ${named.join(', ')}` };
  });
  throw new SearchError(400, SearchCodes.invalidRequest, first!.message, { more: rest });
}

/** The known name within two edits of `name`, if one is. */
function closest(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
