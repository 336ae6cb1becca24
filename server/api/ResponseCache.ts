/**
 * Serialized answers of `GET /user/breaches`, valid while their stamp is unchanged. The stamp
 * moves whenever the data an answer was built from changes (the catalog, or the exposures and
 * resolutions of the user's own emails), so an entry never outlives its data, and one user's
 * write leaves every other user's entries in place. Answers are kept as bytes: encoding a
 * cached string again on every request cost a quarter of the service's time.
 * Bounded by total bytes, least recently used out first.
 */
export class ResponseCache {
  readonly #entries = new Map<string, { stamp: string; body: Buffer; etag: string }>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  get(key: string, stamp: string): { body: Buffer; etag: string } | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#delete(key);
    if (entry.stamp !== stamp) return undefined;
    this.#entries.set(key, entry);
    this.#bytes += entry.body.length;
    return entry;
  }

  set(key: string, stamp: string, body: Buffer, etag: string): void {
    this.#delete(key);
    if (body.length > this.#maxBytes / 4) return;
    this.#entries.set(key, { stamp, body, etag });
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
