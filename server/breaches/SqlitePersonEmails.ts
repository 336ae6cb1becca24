import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { AddedEmailProof, CodeSend, CodeSendResult, PersonEmailRow } from './BreachStore.ts';
import { fromPersonEmailRow, personEmailKey, validCodeSend, validProof, type StoredPersonEmail } from './personEmailRules.ts';

const COLUMNS = 'email, added_at, verified_at, verified_by, code_hash, code_expires_at, code_attempts';

/**
 * A person's added addresses on SQLite (the part of `SqliteBreachStore` behind `/user/emails`).
 * Every write is one transaction. `onDataRemoved` is told of an address whose data went, so the
 * store's answer caches forget it.
 */
export class SqlitePersonEmails {
  readonly #list;
  readonly #add;
  readonly #send;
  readonly #attempt;
  readonly #verify;
  readonly #remove;

  constructor(db: SqliteDatabase, onDataRemoved: (email: string) => void) {
    const sql = {
      list: db.prepare(`SELECT ${COLUMNS} FROM person_emails WHERE sub = ? ORDER BY added_at, email`),
      one: db.prepare(`SELECT ${COLUMNS} FROM person_emails WHERE sub = ? AND email = ?`),
      count: db.prepare('SELECT count(*) FROM person_emails WHERE sub = ?').pluck(),
      insert: db.prepare('INSERT INTO person_emails (sub, email, added_at, verified_at, verified_by) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING'),
      prune: db.prepare('DELETE FROM verification_sends WHERE sent_at < ?'),
      sendsToAddress: db.prepare('SELECT count(*) FROM verification_sends WHERE email = ? AND sent_at >= ?').pluck(),
      sendsForPerson: db.prepare('SELECT count(*) FROM verification_sends WHERE sub = ? AND sent_at >= ?').pluck(),
      recordSend: db.prepare('INSERT INTO verification_sends (sub, email, sent_at) VALUES (?, ?, ?)'),
      setCode: db.prepare('UPDATE person_emails SET code_hash = ?, code_expires_at = ?, code_attempts = 0 WHERE sub = ? AND email = ?'),
      countAttempt: db.prepare('UPDATE person_emails SET code_attempts = code_attempts + 1 WHERE sub = ? AND email = ?'),
      verify: db.prepare("UPDATE person_emails SET verified_at = ?, verified_by = 'code', code_hash = NULL, code_expires_at = NULL WHERE sub = ? AND email = ?"),
      delete: db.prepare('DELETE FROM person_emails WHERE sub = ? AND email = ? RETURNING verified_at'),
      listedByOthers: db.prepare('SELECT 1 FROM person_emails WHERE email = ? AND verified_at IS NOT NULL LIMIT 1').pluck(),
      dropData: [
        db.prepare('DELETE FROM resolutions WHERE email = ?'),
        db.prepare('DELETE FROM exposures WHERE email = ?'),
        db.prepare('DELETE FROM exposure_records WHERE email = ?'),
        db.prepare('DELETE FROM catalog_changes WHERE email = ?'),
        db.prepare('DELETE FROM address_checks WHERE email = ?'),
      ],
      bump: db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'revision'"),
    };
    const row = (sub: string, email: string) => sql.one.get(sub, email) as StoredPersonEmail | undefined;
    this.#list = (sub: string) => (sql.list.all(sub) as StoredPersonEmail[]).map(fromPersonEmailRow);
    this.#add = db.transaction((sub: string, email: string, at: number, verifiedBy: AddedEmailProof | null, maxRows: number) => {
      if (row(sub, email)) return 'exists' as const;
      if ((sql.count.get(sub) as number) >= maxRows) return 'full' as const;
      sql.insert.run(sub, email, at, verifiedBy ? at : null, verifiedBy);
      sql.bump.run();
      return 'added' as const;
    });
    this.#send = db.transaction((sub: string, email: string, send: CodeSend): CodeSendResult => {
      const current = row(sub, email);
      if (!current) return 'missing';
      if (current.verified_at !== null) return 'verified';
      sql.prune.run(send.since);
      if ((sql.sendsToAddress.get(email, send.since) as number) >= send.perAddress) return 'address-limit';
      if ((sql.sendsForPerson.get(sub, send.since) as number) >= send.perPerson) return 'person-limit';
      sql.recordSend.run(sub, email, send.at);
      sql.setCode.run(send.codeHash, send.expiresAt, sub, email);
      return 'recorded';
    });
    this.#attempt = db.transaction((sub: string, email: string) => {
      if (sql.countAttempt.run(sub, email).changes === 0) return undefined;
      return fromPersonEmailRow(row(sub, email)!);
    });
    this.#verify = db.transaction((sub: string, email: string, at: number) => {
      const changed = sql.verify.run(at, sub, email).changes === 1;
      if (changed) sql.bump.run();
      return changed;
    });
    this.#remove = db.transaction((sub: string, email: string) => {
      const removed = sql.delete.get(sub, email) as { verified_at: number | null } | undefined;
      if (!removed) return { removed: false, dataRemoved: false };
      // An address nobody else has proven theirs takes what is known about it along; one still
      // listed by another person keeps it (resolutions are per address, so theirs too).
      const dataRemoved = removed.verified_at !== null && sql.listedByOthers.get(email) === undefined;
      if (dataRemoved) for (const statement of sql.dropData) statement.run(email);
      sql.bump.run();
      return { removed: true, dataRemoved };
    });
    this.#onDataRemoved = onDataRemoved;
  }

  readonly #onDataRemoved: (email: string) => void;

  personEmails(sub: string): PersonEmailRow[] {
    return this.#list(sub);
  }

  addPersonEmail(sub: string, email: string, at: number, verifiedBy: AddedEmailProof | null, maxRows: number): 'added' | 'exists' | 'full' {
    const key = personEmailKey(sub, email);
    return this.#add.immediate(key.sub, key.email, at, validProof(verifiedBy), maxRows);
  }

  recordCodeSend(sub: string, email: string, send: CodeSend): CodeSendResult {
    const key = personEmailKey(sub, email);
    return this.#send.immediate(key.sub, key.email, validCodeSend(send));
  }

  countCodeAttempt(sub: string, email: string): PersonEmailRow | undefined {
    const key = personEmailKey(sub, email);
    return this.#attempt.immediate(key.sub, key.email);
  }

  markEmailVerified(sub: string, email: string, at: number): boolean {
    const key = personEmailKey(sub, email);
    return this.#verify.immediate(key.sub, key.email, at);
  }

  removePersonEmail(sub: string, email: string): boolean {
    const key = personEmailKey(sub, email);
    const { removed, dataRemoved } = this.#remove.immediate(key.sub, key.email);
    if (dataRemoved) this.#onDataRemoved(key.email);
    return removed;
  }
}
