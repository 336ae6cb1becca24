import { parseBreachQuery, type BreachQuery, type QueryParseResult } from '../../shared/api/index.ts';

/** A valid query of `GET /user/breaches` as parsed once, with the form an answer's cache key takes of it. */
export interface ParsedBreachQuery {
  readonly query: Readonly<BreachQuery>;
  /** `JSON.stringify` of the parsed query: what the response cache keys answers by. */
  readonly key: string;
}

/**
 * `parseBreachQuery` remembered by query string: an app asks with the same few query strings on
 * every sync, and parsing one (URLSearchParams, the zod schema) cost more than the rest of a
 * cached answer's routing. Parsing is a function of the string alone, so a remembered result is
 * the one parsing would give again; only valid queries are kept (a bad one is parsed again, so
 * its errors are built fresh), frozen so no request can change another's. Bounded: when full,
 * it starts again empty.
 */
export class BreachQueries {
  readonly #parsed = new Map<string, ParsedBreachQuery>();
  readonly #maxEntries: number;

  constructor(maxEntries = 256) {
    this.#maxEntries = maxEntries;
  }

  /** The query of `url` (its `search`, `?` included), or the errors of an invalid one. */
  parse(url: URL): { ok: true; parsed: ParsedBreachQuery } | Extract<QueryParseResult, { ok: false }> {
    const known = this.#parsed.get(url.search);
    if (known) return { ok: true, parsed: known };
    const result = parseBreachQuery(url.searchParams);
    if (!result.ok) return result;
    const query = deepFreeze(result.query);
    const parsed = Object.freeze({ query, key: JSON.stringify(query) });
    if (this.#parsed.size >= this.#maxEntries) this.#parsed.clear();
    this.#parsed.set(url.search, parsed);
    return { ok: true, parsed };
  }
}

function deepFreeze(query: BreachQuery): Readonly<BreachQuery> {
  for (const value of Object.values(query)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(query);
}
