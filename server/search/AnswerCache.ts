/**
 * Answers of the search endpoints, remembered per (account, endpoint, request body bytes) for one
 * index revision. The same question over the same catalog gets the same chunks, so a repeated
 * request skips ranking (FTS5 or PostgreSQL), the filter engine and chunk building; when the
 * revision moves (the catalog or the details changed, on PostgreSQL through any instance, since
 * the revision is read from the database on every request) everything remembered is dropped at
 * once, so a cached answer never names a breach the catalog no longer has. Bounded: the least
 * recently used entry goes first.
 */
export class AnswerCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #capacity: number;
  #revision: string | undefined;

  constructor(capacity = 512) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(revision: string, key: string): V | undefined {
    if (revision !== this.#revision) return undefined;
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    // Re-insert so Map order stays least-recently-used first.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(revision: string, key: string, value: V): void {
    if (revision !== this.#revision) {
      this.#entries.clear();
      this.#revision = revision;
    }
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }
}

/**
 * The key of one request: the account and endpoint, then the body exactly as sent. The account
 * comes from the path and may hold any character, so its length goes first: two different
 * requests never share a key.
 */
export function answerKey(accountId: string, endpoint: string, body: string): string {
  return `${accountId.length}:${accountId}${endpoint.length}:${endpoint}${body}`;
}
