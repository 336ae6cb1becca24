import type { Database } from 'better-sqlite3';
import { dataClassKey } from '../../../../shared/api/primitives.ts';

/**
 * Data class keys were lower-cased names; they are now the data class identity of `shared/`
 * (its slug), so `Email addresses` and `email-addresses` are one class. The dictionary and the
 * outbox are rekeyed. Where two entries now name one class they merge: the dictionary keeps the
 * lowest code and every stored code list is rewritten to it (duplicates dropped, counts
 * recounted); the outbox keeps the newest intent. After a merge the next pull is a full one
 * (the ETag is forgotten), which rebuilds the snapshot under the new keys.
 */
export function updateToSchemaVersion20(db: Database): void {
  const merged = rekeyDictionary(db);
  rekeyOutbox(db);
  if (merged.size > 0) {
    rewriteCodeLists(db, merged);
    db.prepare("DELETE FROM sync_state WHERE key = 'etag'").run();
  }
}

/** Returns merged code → surviving code. */
function rekeyDictionary(db: Database): Map<number, number> {
  const rows = db.prepare('SELECT code, key FROM data_class_codes ORDER BY code').raw().all() as [number, string][];
  const survivors = new Map<string, number>();
  const merged = new Map<number, number>();
  const rekeyed: [number, string][] = [];
  for (const [code, key] of rows) {
    const slug = dataClassKey(key);
    const survivor = survivors.get(slug);
    if (survivor !== undefined) merged.set(code, survivor);
    else {
      survivors.set(slug, code);
      if (slug !== key) rekeyed.push([code, slug]);
    }
  }
  // Merged entries go first: a survivor's new key may be a merged entry's old one.
  const remove = db.prepare('DELETE FROM data_class_codes WHERE code = ?');
  for (const code of merged.keys()) remove.run(code);
  const update = db.prepare('UPDATE data_class_codes SET key = ? WHERE code = ?');
  for (const [code, slug] of rekeyed) update.run(slug, code);
  return merged;
}

function rekeyOutbox(db: Database): void {
  // Newest intent first within each (breach, email): it is the one kept.
  const rows = db.prepare('SELECT id, breach_id, email, class_key FROM outbox ORDER BY updated_at DESC, id DESC').raw().all() as [number, string, string, string][];
  const kept = new Set<string>();
  const remove = db.prepare('DELETE FROM outbox WHERE id = ?');
  const rekeyed: [number, string][] = [];
  for (const [id, breachId, email, key] of rows) {
    const slug = dataClassKey(key);
    const target = `${breachId}\u0000${email}\u0000${slug}`;
    if (kept.has(target)) remove.run(id);
    else {
      kept.add(target);
      if (slug !== key) rekeyed.push([id, slug]);
    }
  }
  // No kept row's new key can be another kept row's old key: the slug of a slug is itself, so
  // both would be one class, and one of them was removed above.
  const update = db.prepare('UPDATE outbox SET class_key = ? WHERE id = ?');
  for (const [id, slug] of rekeyed) update.run(slug, id);
}

function rewriteCodeLists(db: Database, merged: ReadonlyMap<number, number>): void {
  const map = (code: number): number => merged.get(code) ?? code;
  const parse = (text: string): number[] =>
    text
      .split(',')
      .filter((part) => part !== '')
      .map(Number);
  const list = (codes: readonly number[]): string => (codes.length === 0 ? ',' : `,${codes.join(',')},`);
  const remap = (text: string): number[] => [...new Set(parse(text).map(map))];

  const accounts = db.prepare('SELECT breach_key, email, resolved_codes, resolved_at, unresolved_codes FROM breached_accounts').raw().all() as [number, string, string, string | null, string][];
  const updateAccount = db.prepare('UPDATE breached_accounts SET resolved_codes = ?, resolved_at = ?, unresolved_codes = ?, unresolved_count = ? WHERE breach_key = ? AND email = ?');
  for (const [breachKey, email, resolvedCodes, resolvedAt, unresolvedCodes] of accounts) {
    const unresolved = remap(unresolvedCodes);
    let times: string | null = null;
    if (resolvedAt !== null) {
      const remapped: Record<string, string> = {};
      for (const [code, at] of Object.entries(JSON.parse(resolvedAt) as Record<string, string>)) {
        const to = String(map(Number(code)));
        if (remapped[to] === undefined || at < remapped[to]) remapped[to] = at;
      }
      times = JSON.stringify(remapped);
    }
    updateAccount.run(list(remap(resolvedCodes)), times, list(unresolved), unresolved.length, breachKey, email);
  }

  const breaches = db.prepare('SELECT key, data_classes, class_codes, unresolved_codes FROM breaches').raw().all() as [number, string, string, string][];
  const updateBreach = db.prepare(`
    UPDATE breaches SET data_classes = ?, class_codes = ?, unresolved_codes = ?,
      unresolved_count = (SELECT coalesce(sum(unresolved_count), 0) FROM breached_accounts WHERE breach_key = ?)
    WHERE key = ?`);
  for (const [key, dataClassesJson, classCodes, unresolvedCodes] of breaches) {
    // Names and codes are parallel lists; a name whose code merged into an earlier one goes.
    const names = JSON.parse(dataClassesJson) as string[];
    const codes = parse(classCodes);
    const keptNames: string[] = [];
    const keptCodes: number[] = [];
    codes.forEach((code, index) => {
      const to = map(code);
      if (keptCodes.includes(to)) return;
      keptCodes.push(to);
      if (names[index] !== undefined) keptNames.push(names[index]);
    });
    updateBreach.run(JSON.stringify(keptNames), list(keptCodes), list(remap(unresolvedCodes)), key, key);
  }
}
