import type pg from 'pg';
import { catalogSnapshot, removedBreachOf, type CatalogSnapshot, fromBreachColumns, type BreachColumns } from '../breachRows.ts';
import { guarded, transaction } from '../../storage/pool.ts';

/**
 * The catalog as last read, kept across requests: it changes rarely and is read on every one.
 * Each use reads the catalog's revision (one indexed row, a statement prepared once per
 * connection), so a write by any instance is seen at once; the catalog itself is re-read only
 * when the revision moved.
 */
export class PostgresSnapshotCache {
  readonly #pool: pg.Pool;
  readonly #where: string;
  readonly #attempts: number;
  #snapshot: CatalogSnapshot<string> | undefined;

  /** `attempts`: how often a read that lost a race to a catalog write is tried (as the store's transactions). */
  constructor(pool: pg.Pool, where: string, attempts: number) {
    this.#pool = pool;
    this.#where = where;
    this.#attempts = attempts;
  }

  async current(): Promise<CatalogSnapshot<string>> {
    const { rows } = await guarded(this.#where, () => this.#pool.query<{ value: string }>({ name: 'breach-catalog-revision', text: "SELECT value FROM meta WHERE key = 'catalog_revision'" }));
    const revision = rows[0]?.value ?? '0';
    if (this.#snapshot?.revision === revision) return this.#snapshot;
    // Read in one snapshot with its revision, so a catalog replaced meanwhile is not half seen.
    const snapshot = await transaction(this.#pool, this.#where, { isolation: 'REPEATABLE READ', attempts: this.#attempts }, async (client) => {
      const current = await client.query<{ value: string }>("SELECT value FROM meta WHERE key = 'catalog_revision'");
      const list = await client.query<BreachColumns>('SELECT * FROM breaches ORDER BY id COLLATE "C"');
      const gone = await client.query<{ id: string; breach: unknown; removed_at: string }>('SELECT id, breach, removed_at FROM removed_breaches ORDER BY id COLLATE "C"');
      return catalogSnapshot(
        current.rows[0]?.value ?? '0',
        list.rows.map(fromBreachColumns),
        gone.rows.map((row) => removedBreachOf(row.id, row.breach, row.removed_at)),
      );
    });
    this.#snapshot = snapshot;
    return snapshot;
  }
}
