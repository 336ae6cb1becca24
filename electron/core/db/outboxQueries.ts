import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/** One outbox row as stored. */
export interface OutboxRow {
  id: number;
  email: string;
  breachId: string;
  classKey: string;
  dataClass: string;
  resolved: boolean;
  version: number;
  sentVersion: number | null;
  /**
   * A send of this row may have landed and no answer said whether (lost answer, timeout, the app
   * killed mid-request): the service may hold what the confirmed state does not show.
   */
  inDoubt: boolean;
  /** `local`: kept on this machine, never sent (the service's contract cannot carry it). */
  state: 'pending' | 'failed' | 'local';
  attempts: number;
  failureStatus: number | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

type RawRow = [number, string, string, string, string, number, number, number | null, number, string, number, number | null, string | null, string, string];
const COLUMNS = 'id, email, breach_id, class_key, data_class, resolved, version, sent_version, in_doubt, state, attempts, failure_status, failure_reason, created_at, updated_at';

function fromRaw([id, email, breachId, classKey, dataClass, resolved, version, sentVersion, inDoubt, state, attempts, failureStatus, failureReason, createdAt, updatedAt]: RawRow): OutboxRow {
  return {
    id,
    email,
    breachId,
    classKey,
    dataClass,
    resolved: resolved === 1,
    version,
    sentVersion,
    inDoubt: inDoubt === 1,
    state: state as OutboxRow['state'],
    attempts,
    failureStatus,
    failureReason,
    createdAt,
    updatedAt,
  };
}

/**
 * Records the person's intent for one (email, data class, breach): a new row, or the existing
 * row coalesced to this last intent (a new version, pending again, any failure cleared).
 */
export function upsertIntent(
  db: WritableDB,
  intent: { email: string; breachId: string; classKey: string; dataClass: string; resolved: boolean },
  now: string,
  state: 'pending' | 'local' = 'pending',
): void {
  statement(
    db,
    `INSERT INTO outbox (email, breach_id, class_key, data_class, resolved, version, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)
     ON CONFLICT (breach_id, email, class_key) DO UPDATE SET
       data_class = excluded.data_class, resolved = excluded.resolved, version = version + 1, state = excluded.state,
       failure_status = NULL, failure_reason = NULL, updated_at = excluded.updated_at`,
  ).run(intent.email, intent.breachId, intent.classKey, intent.dataClass, intent.resolved ? 1 : 0, state, now, now);
}

/**
 * The person asked for what the service already confirmed: a queued intent for the cell is
 * withdrawn instead of sent. A row on the wire, or one a send of which may have landed, stays:
 * the confirmed state may not show what the service holds, so the way back must be sent too.
 * True when no row for the cell is left.
 */
export function withdrawIntent(db: WritableDB, cell: { email: string; breachId: string; classKey: string }): boolean {
  statement(db, 'DELETE FROM outbox WHERE breach_id = ? AND email = ? AND class_key = ? AND sent_version IS NULL AND in_doubt = 0').run(cell.breachId, cell.email, cell.classKey);
  return statement(db, 'SELECT 1 FROM outbox WHERE breach_id = ? AND email = ? AND class_key = ?').get(cell.breachId, cell.email, cell.classKey) === undefined;
}

/** Rows waiting to be sent, including any left marked in flight by a crash (sending again is safe). */
export function pendingRows(db: ReadableDB): OutboxRow[] {
  return (statement(db, `SELECT ${COLUMNS} FROM outbox WHERE state = 'pending' ORDER BY id`).raw().all() as RawRow[]).map(fromRaw);
}

export function outboxRows(db: ReadableDB, state?: OutboxRow['state']): OutboxRow[] {
  const rows = state
    ? (statement(db, `SELECT ${COLUMNS} FROM outbox WHERE state = ? ORDER BY id`).raw().all(state) as RawRow[])
    : (statement(db, `SELECT ${COLUMNS} FROM outbox ORDER BY id`).raw().all() as RawRow[]);
  return rows.map(fromRaw);
}

export function outboxRowsOfBreaches(db: ReadableDB, breachIds: readonly string[]): OutboxRow[] {
  return (statement(db, `SELECT ${COLUMNS} FROM outbox WHERE breach_id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(breachIds)) as RawRow[]).map(fromRaw);
}

/** Every intent, breach → email → class key → resolved: the overlay a snapshot is written under. */
export function allIntents(db: ReadableDB): Map<string, Map<string, Map<string, boolean>>> {
  const result = new Map<string, Map<string, Map<string, boolean>>>();
  for (const [breachId, email, classKey, resolved] of statement(db, 'SELECT breach_id, email, class_key, resolved FROM outbox').raw().all() as [string, string, string, number][]) {
    let byEmail = result.get(breachId);
    if (!byEmail) result.set(breachId, (byEmail = new Map()));
    let byClass = byEmail.get(email);
    if (!byClass) byEmail.set(email, (byClass = new Map()));
    byClass.set(classKey, resolved === 1);
  }
  return result;
}

/** What a send needs of a row: its current intent, and whether an earlier send of it may have landed. */
export type ClaimedRow = Pick<OutboxRow, 'id' | 'email' | 'breachId' | 'classKey' | 'dataClass' | 'resolved' | 'version' | 'inDoubt'>;

/**
 * Claims every row waiting to be sent: puts the current intent of each on the wire and marks it
 * in doubt (as {@link markInFlight}), and returns them as they were read. Call in a transaction,
 * so no row becomes pending between the read and the update. One read of the columns a send
 * needs, one update through the state index: thousands of rows, two statements. Rows come by
 * (breach, email, class), the order the packer groups them in, so it has nothing left to sort.
 */
export function claimPending(db: WritableDB, now: string): ClaimedRow[] {
  const rows = statement(db, `SELECT id, email, breach_id, class_key, data_class, resolved, version, in_doubt FROM outbox WHERE state = 'pending' ORDER BY breach_id, email, class_key`)
    .raw()
    .all() as [number, string, string, string, string, number, number, number][];
  if (rows.length === 0) return [];
  // OR FAIL: a statement that may stop half-way would otherwise keep a copy of every page it
  // changes in a temporary file (SQLite's statement journal), thousands of writes for nothing:
  // the claim is its own transaction, and a failure of this statement rolls all of it back.
  statement(db, `UPDATE OR FAIL outbox SET sent_version = version, in_doubt = 1, attempts = attempts + 1, updated_at = ? WHERE state = 'pending'`).run(now);
  const claimed: ClaimedRow[] = [];
  for (const [id, email, breachId, classKey, dataClass, resolved, version, inDoubt] of rows) {
    claimed.push({ id, email, breachId, classKey, dataClass, resolved: resolved === 1, version, inDoubt: inDoubt === 1 });
  }
  return claimed;
}

/**
 * Puts the current intent of each row on the wire, and marks it in doubt in the same commit:
 * from here until an answer says otherwise, the send may land, and a crash must not forget that.
 */
export function markInFlight(db: WritableDB, ids: readonly number[], now: string): void {
  statement(db, `UPDATE outbox SET sent_version = version, in_doubt = 1, attempts = attempts + 1, updated_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND state = 'pending'`).run(
    now,
    JSON.stringify(ids),
  );
}

/**
 * The service accepted the intents on the wire for these rows. A row goes unless the person made a
 * newer intent meanwhile (its `version` moved past `sent_version`, the intent this flush claimed
 * and sent); that one stays pending and is sent next, no longer in doubt: the service now holds
 * exactly what the confirmed state says (a row is in one request of a flush, so no other send of
 * it is out). One statement for thousands of rows, by id alone: the row itself says what was sent.
 */
export function settleDeliveredMany(db: WritableDB, ids: readonly number[]): void {
  const json = JSON.stringify(ids);
  const deleted = statement(db, 'DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?)) AND version = sent_version').run(json).changes;
  // Every row sent was deleted (nobody toggled meanwhile, the usual case): none is left to update.
  if (deleted === ids.length) return;
  statement(db, 'UPDATE outbox SET sent_version = NULL, in_doubt = 0 WHERE id IN (SELECT value FROM json_each(?)) AND sent_version IS NOT NULL').run(json);
}

/**
 * The service refused `sentVersion` for a reason of its own, having applied nothing; a newer
 * intent, if any, stays pending instead. `inDoubt` is what the row was before this send went out
 * (an earlier send of it may still have landed; a row refused at its first send was not).
 */
export function settleFailed(db: WritableDB, id: number, sentVersion: number, status: number | null, reason: string, now: string, inDoubt = false): 'failed' | 'superseded' {
  const failed = statement(db, `UPDATE outbox SET state = 'failed', sent_version = NULL, in_doubt = ?, failure_status = ?, failure_reason = ?, updated_at = ? WHERE id = ? AND version = ?`).run(
    inDoubt ? 1 : 0,
    status,
    reason,
    now,
    id,
    sentVersion,
  ).changes;
  if (failed === 1) return 'failed';
  releaseInFlight(db, id, sentVersion, inDoubt);
  return 'superseded';
}

/**
 * No 2xx came for `sentVersion`: the row is pending again. `inDoubt`: whether the service may have
 * applied it — true when the outcome is unknown; otherwise what the row was before this send.
 */
export function releaseInFlight(db: WritableDB, id: number, sentVersion: number, inDoubt: boolean): void {
  statement(db, 'UPDATE outbox SET sent_version = NULL, in_doubt = ? WHERE id = ? AND sent_version = ?').run(inDoubt ? 1 : 0, id, sentVersion);
}

/**
 * At start nothing can be on the wire: marks left by a process that died mid-send are cleared so
 * the rows count as pending again (the send is repeated; the operation is idempotent). They stay
 * in doubt: the dead process's send may have landed.
 */
export function releaseAllInFlight(db: WritableDB): number {
  return statement(db, `UPDATE outbox SET sent_version = NULL WHERE sent_version IS NOT NULL AND state = 'pending'`).run().changes;
}

/**
 * Re-decides which waiting rows this contract can carry: a row another contract kept on this
 * machine becomes pending when this one can send it, and a pending row this one cannot carry is
 * kept on this machine instead of being sent and refused. Failed rows keep their reason.
 */
export function reclassifyForContract(db: WritableDB, canSend: (intent: { resolved: boolean; classKey: string }) => boolean, now: string): number {
  const rows = statement(db, `SELECT id, class_key AS classKey, resolved, state FROM outbox WHERE state IN ('pending', 'local')`).all() as {
    id: number;
    classKey: string;
    resolved: number;
    state: 'pending' | 'local';
  }[];
  const update = statement(db, `UPDATE outbox SET state = ?, updated_at = ? WHERE id = ? AND state = ?`);
  let changed = 0;
  for (const row of rows) {
    const wanted = canSend({ resolved: row.resolved === 1, classKey: row.classKey }) ? 'pending' : 'local';
    if (wanted !== row.state) changed += update.run(wanted, now, row.id, row.state).changes;
  }
  return changed;
}

export function retryFailed(db: WritableDB, ids: readonly number[], now: string): number {
  return statement(
    db,
    `UPDATE outbox SET state = 'pending', failure_status = NULL, failure_reason = NULL, attempts = 0, updated_at = ?
     WHERE id IN (SELECT value FROM json_each(?)) AND state = 'failed'`,
  ).run(now, JSON.stringify(ids)).changes;
}

/** Deletes failed rows; returns the breaches whose overlay must be recomputed. */
export function discardFailed(db: WritableDB, ids: readonly number[]): string[] {
  const json = JSON.stringify(ids);
  const breaches = statement(db, `SELECT DISTINCT breach_id FROM outbox WHERE id IN (SELECT value FROM json_each(?)) AND state = 'failed'`).pluck().all(json) as string[];
  statement(db, `DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?)) AND state = 'failed'`).run(json);
  return breaches;
}

export interface OutboxCounts {
  pending: number;
  sending: number;
  failed: number;
}

/** How many intents are kept on this machine only (never sent). */
export function localOnlyCount(db: ReadableDB): number {
  return statement(db, `SELECT count(*) FROM outbox WHERE state = 'local'`).pluck().get() as number;
}

export function outboxCounts(db: ReadableDB): OutboxCounts {
  const [pending, sending, failed] = statement(
    db,
    `SELECT
       count(*) FILTER (WHERE state = 'pending' AND sent_version IS NULL),
       count(*) FILTER (WHERE state = 'pending' AND sent_version IS NOT NULL),
       count(*) FILTER (WHERE state = 'failed')
     FROM outbox`,
  )
    .raw()
    .get() as [number, number, number];
  return { pending, sending, failed };
}
