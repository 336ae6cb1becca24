import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { Breach } from '../../shared/api/index.ts';
import { BreachDetails } from '../../shared/catalog/index.ts';
import { BreachSearchIndex, toSearchDocument, type SearchHit, type SearchOptions } from '../../shared/search/index.ts';
import type { SearchIndex } from './SearchIndex.ts';

/** Where the SQLite index reads from: the SQLite store's catalog (synchronously) and the details feed. */
export interface CatalogReader {
  /** Changes whenever the catalog does. */
  catalogRevision(): number;
  listBreaches(): readonly Breach[];
  /** Details by breach id; may lack some breaches (then the id stands in for the title). */
  readDetails(): Record<string, BreachDetails>;
  /** Incremental updates (all three or none): the ids written since a revision, or undefined when not known. */
  catalogChangesSince?(revision: number): readonly string[] | undefined;
  getBreach?(id: string): Breach | undefined;
  /** One breach's details, as {@link readDetails} would give them. */
  readDetailsOf?(id: string): BreachDetails | undefined;
}

/** More changed breaches than this (a bulk load) are cheaper read all at once than one by one. */
const FULL_READ_ABOVE = 256;

/**
 * The `breaches` instance beside the SQLite store: an FTS5 index in an in-memory SQLite
 * database, brought up to date when the catalog changes (its revision moves), so it never serves
 * a breach the catalog no longer has. When the store can say which breaches were written since
 * the indexed revision, only theirs are indexed again; otherwise (a whole-catalog replacement,
 * another process's write) everything is read again.
 */
export class CatalogSearchIndex implements SearchIndex {
  readonly #db: SqliteDatabase = new Database(':memory:');
  readonly #index = new BreachSearchIndex(this.#db);
  readonly #reader: CatalogReader;
  #indexedRevision: number | undefined;
  /** Counts `rebuild()` calls: a details-only change moves what is indexed without moving the catalog revision. */
  #rebuilds = 0;

  constructor(reader: CatalogReader) {
    this.#reader = reader;
  }

  async search(options: SearchOptions): Promise<SearchHit[]> {
    this.#refresh();
    return this.#index.search(options);
  }

  async revision(): Promise<string> {
    return `${this.#reader.catalogRevision()}.${this.#rebuilds}`;
  }

  /** With `ids`, only those breaches' details are read again; without, the whole feed. */
  async rebuild(ids?: readonly string[]): Promise<void> {
    this.#rebuilds++;
    if (ids === undefined || ids.length > FULL_READ_ABOVE || !this.#canUpdate()) {
      this.#indexedRevision = undefined;
      this.#refresh();
      return;
    }
    this.#refresh();
    for (const id of new Set(ids)) this.#reindex(id);
  }

  #refresh(): void {
    const revision = this.#reader.catalogRevision();
    if (revision === this.#indexedRevision) return;
    const changed = this.#indexedRevision !== undefined && this.#canUpdate() ? this.#reader.catalogChangesSince!(this.#indexedRevision) : undefined;
    if (changed && changed.length <= FULL_READ_ABOVE) {
      for (const id of new Set(changed)) this.#reindex(id);
    } else {
      const details = this.#reader.readDetails();
      this.#index.replaceAll(this.#reader.listBreaches().map((breach) => toSearchDocument(breach, details[breach.id])));
    }
    this.#indexedRevision = revision;
  }

  #canUpdate(): boolean {
    return this.#reader.catalogChangesSince !== undefined && this.#reader.getBreach !== undefined && this.#reader.readDetailsOf !== undefined;
  }

  /** Indexes one breach as the catalog and the feed have it now (or drops it, when the catalog has not). */
  #reindex(id: string): void {
    const breach = this.#reader.getBreach!(id);
    if (breach) this.#index.put(toSearchDocument(breach, this.#reader.readDetailsOf!(id)));
    else this.#index.remove(id);
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}

/** Details from the feed's JSON, keeping every record that parses (a bad one loses only its own text). */
export function parseDetailsRecord(value: unknown): Record<string, BreachDetails> {
  if (typeof value !== 'object' || value === null) return {};
  // Keyed by ids from the database: no prototype, so an id such as `__proto__` is only an id.
  const details = Object.create(null) as Record<string, BreachDetails>;
  for (const [id, raw] of Object.entries(value)) {
    const parsed = BreachDetails.safeParse(raw);
    if (parsed.success) details[id] = parsed.data;
  }
  return details;
}
