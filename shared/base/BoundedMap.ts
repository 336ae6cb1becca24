/**
 * A map bounded by its number of entries and by their weight in bytes, as the one who adds an
 * entry counts it: past either bound the oldest entry goes first (the order entries were set, or
 * last touched); an entry weighing more than the whole budget is not kept. The caches that must
 * not grow with what callers send are built on it.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, { value: V; bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxEntries: number, maxBytes: number) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** What the kept entries weigh, as counted against the budget. */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** The value of `key`, now the newest entry (so the map drops the least recently used first). */
  touch(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` as the newest entry, weighing `bytes`; the oldest go until both bounds hold. */
  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.#maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) this.delete(this.#entries.keys().next().value!);
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
