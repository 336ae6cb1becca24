/**
 * Serialized answers of `GET /user/breaches`, valid while the store's revision is unchanged.
 * The revision moves on every write, so an entry can never outlive the data it was built from;
 * the cache only saves rebuilding identical bytes (and their ETag) for repeated polls.
 * Bounded by total bytes, least recently used out first.
 */
export class ResponseCache {
  readonly #entries = new Map<string, { revision: number; body: string; etag: string }>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  get(key: string, revision: number): { body: string; etag: string } | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#delete(key);
    if (entry.revision !== revision) return undefined;
    this.#entries.set(key, entry);
    this.#bytes += entry.body.length;
    return entry;
  }

  set(key: string, revision: number, body: string, etag: string): void {
    this.#delete(key);
    if (body.length > this.#maxBytes / 4) return;
    this.#entries.set(key, { revision, body, etag });
    this.#bytes += body.length;
    for (const [oldest] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#delete(oldest);
    }
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.body.length;
  }
}
