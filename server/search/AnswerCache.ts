import { BoundedMap } from '../../shared/base/BoundedMap.ts';

/**
 * Answers of the search endpoints, remembered per (account, endpoint, request body bytes) for one
 * index revision. The same question over the same catalog gets the same chunks, so a repeated
 * request skips ranking (FTS5 or PostgreSQL), the filter engine and chunk building; when the
 * revision moves (the catalog or the details changed, on PostgreSQL through any instance, since
 * the revision is read from the database on every request) everything remembered is dropped at
 * once, so a cached answer never names a breach the catalog no longer has. Bounded by count and
 * by size (its keys, request bodies of up to 64 KB, and its answers, as told by `sizeOf`): the
 * least recently used entry goes first, and an answer larger than the whole budget is not kept.
 */
export class AnswerCache<V> {
  readonly #entries: BoundedMap<string, V>;
  readonly #sizeOf: (value: V) => number;
  #revision: string | undefined;

  constructor(options: { capacity?: number; maxBytes?: number; sizeOf?: (value: V) => number } = {}) {
    this.#entries = new BoundedMap(options.capacity ?? 512, options.maxBytes ?? ANSWER_CACHE_MAX_BYTES);
    this.#sizeOf = options.sizeOf ?? (() => 0);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** What the kept keys and answers weigh, as counted against the budget. */
  get bytes(): number {
    return this.#entries.bytes;
  }

  get(revision: string, key: string): V | undefined {
    if (revision !== this.#revision) return undefined;
    // Touched, so the least recently used answer goes first.
    return this.#entries.touch(key);
  }

  set(revision: string, key: string, value: V): void {
    if (revision !== this.#revision) {
      this.#entries.clear();
      this.#revision = revision;
    }
    // Strings are UTF-16 in memory: two bytes a character.
    this.#entries.set(key, value, key.length * 2 + this.#sizeOf(value));
  }
}

/** What the search answers kept for repeated questions may weigh in all (keys and answers). */
export const ANSWER_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The key of one request: the account and endpoint, then the body exactly as sent. The account
 * comes from the path and may hold any character, so its length goes first: two different
 * requests never share a key.
 */
export function answerKey(accountId: string, endpoint: string, body: string): string {
  return `${accountId.length}:${accountId}${endpoint.length}:${endpoint}${body}`;
}
