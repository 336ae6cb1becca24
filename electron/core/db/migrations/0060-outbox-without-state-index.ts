import type { Database } from 'better-sqlite3';

/**
 * The outbox loses its `(state, id)` index. Every row of the outbox is a change still waiting
 * (pending, failed or kept local): a filter on state keeps most of the table, so no read chose
 * the index over a scan worth the name (the claim reads through the `(breach_id, email,
 * class_key)` key, in the order it packs in; the counts scan the table), while every toggle
 * recorded, every send settled and every row discarded kept it up to date: ~30 % of the CPU of
 * deleting a flush's 10,000 delivered rows, and ~15 % of recording them (docs/decisions/0234-outbox-keeps-no-state-id-index.md).
 */
export function updateToSchemaVersion60(db: Database): void {
  db.exec('DROP INDEX outbox_by_state');
}
