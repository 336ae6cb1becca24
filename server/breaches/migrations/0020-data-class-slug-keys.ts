import type { Database } from 'better-sqlite3';
import { dataClassKey } from '../../../shared/api/primitives.ts';

/**
 * Resolutions were keyed by the lower-cased data class name; the key is now the data class
 * identity of `shared/` (its slug), so `Email addresses`, `email addresses` and
 * `email-addresses` are one class. Rows whose key changes are rekeyed; rows that now name the
 * same class for the same (email, breach) merge into one, keeping the earliest `resolvedAt`
 * (when the person first resolved it) and the spelling of that row.
 */
export function updateToSchemaVersion20(db: Database): void {
  const rows = db.prepare('SELECT email, breach_id, data_class_key, data_class, resolved_at FROM resolutions').raw().all() as [string, string, string, string, string][];
  const remove = db.prepare('DELETE FROM resolutions WHERE email = ? AND breach_id = ? AND data_class_key = ?');
  const merge = db.prepare(`
    INSERT INTO resolutions (email, breach_id, data_class_key, data_class, resolved_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (email, breach_id, data_class_key) DO UPDATE SET
      data_class = CASE WHEN excluded.resolved_at < resolved_at THEN excluded.data_class ELSE data_class END,
      resolved_at = min(resolved_at, excluded.resolved_at)`);
  const moved = rows.filter(([, , key]) => dataClassKey(key) !== key);
  // Out of the way first, so a rekeyed row never meets a row that is itself about to move.
  for (const [email, breachId, key] of moved) remove.run(email, breachId, key);
  for (const [email, breachId, key, dataClass, resolvedAt] of moved) merge.run(email, breachId, dataClassKey(key), dataClass, resolvedAt);
  if (moved.length > 0) db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'revision'").run();
}
