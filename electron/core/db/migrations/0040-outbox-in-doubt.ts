import type { Database } from 'better-sqlite3';

/**
 * Outbox rows remember that a send of theirs may have landed (`in_doubt`): the request went out
 * and no answer said whether the service applied it (a lost answer, a timeout, the app killed
 * mid-request). Such a row is never withdrawn against the confirmed state, which may not show
 * what landed; the person's last intent is sent instead. A row found on the wire here was left
 * by a process that died mid-send under the previous schema: that send may have landed too.
 */
export function updateToSchemaVersion40(db: Database): void {
  db.exec(`
    ALTER TABLE outbox ADD COLUMN in_doubt INTEGER NOT NULL DEFAULT 0 CHECK (in_doubt IN (0, 1));
    UPDATE outbox SET in_doubt = 1 WHERE sent_version IS NOT NULL;
  `);
}
