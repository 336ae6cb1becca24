import { dataClassKey, type Breach } from '../../../shared/api/index.ts';
import { codeList, parseCodeList, unresolvedCodesOf, type ClassRef } from './codeLists.ts';
import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/**
 * A breach as written by a snapshot: the served fields plus what the filters read. Class sets
 * come as code-list text (see codeLists.ts), built once per breach by the caller.
 */
export interface BreachRecord {
  id: string;
  domain: string;
  breachDate: string;
  addedDate: string;
  /** `addedDate` in epoch ms, for ordering across date-time formats. */
  addedAt: number;
  modifiedDate: string;
  dataClasses: readonly string[];
  classCodes: string;
  isSensitive: boolean;
  unresolvedCodes: string;
  unresolvedCount: number;
}

export interface AccountRecord {
  breachId: string;
  email: string;
  unresolvedCodes: string;
  unresolvedCount: number;
}

export interface ResolutionRecord {
  breachId: string;
  email: string;
  classKey: string;
  dataClass: string;
  resolvedAt: string | null;
}

/** Removes all server state before a snapshot is written (the outbox stays). */
export function clearServerState(db: WritableDB): void {
  statement(db, 'DELETE FROM breaches').run();
  statement(db, 'DELETE FROM breached_accounts').run();
  statement(db, 'DELETE FROM resolutions').run();
}

export interface SnapshotWriter {
  breach(b: BreachRecord): void;
  account(a: AccountRecord): void;
  resolution(r: ResolutionRecord): void;
}

/** Inserts for writing a snapshot, with the statements looked up once for the thousands of rows. */
export function snapshotWriter(db: WritableDB): SnapshotWriter {
  const breach = statement(
    db,
    `INSERT INTO breaches (id, domain, domain_key, breach_date, added_date, added_at, modified_date, data_classes, class_codes, is_sensitive, unresolved_codes, unresolved_count)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const account = statement(db, 'INSERT INTO breached_accounts (breach_id, email, unresolved_codes, unresolved_count) VALUES (?, ?, ?, ?)');
  const resolution = statement(db, 'INSERT INTO resolutions (breach_id, email, class_key, data_class, resolved_at) VALUES (?, ?, ?, ?, ?)');
  return {
    breach(b) {
      breach.run(
        b.id,
        b.domain,
        b.domain.toLowerCase(),
        b.breachDate,
        b.addedDate,
        b.addedAt,
        b.modifiedDate,
        JSON.stringify(b.dataClasses),
        b.classCodes,
        b.isSensitive ? 1 : 0,
        b.unresolvedCodes,
        b.unresolvedCount,
      );
    },
    account(a) {
      account.run(a.breachId, a.email, a.unresolvedCodes, a.unresolvedCount);
    },
    resolution(r) {
      resolution.run(r.breachId, r.email, r.classKey, r.dataClass, r.resolvedAt);
    },
  };
}

/** What the service confirmed with a 204: resolved rows appear (without a time until the next pull), unresolved ones go. */
export function confirmResolution(db: WritableDB, r: { breachId: string; email: string; classKey: string; dataClass: string; resolved: boolean }): void {
  if (r.resolved)
    statement(db, 'INSERT INTO resolutions (breach_id, email, class_key, data_class, resolved_at) VALUES (?, ?, ?, ?, NULL) ON CONFLICT DO NOTHING').run(
      r.breachId,
      r.email,
      r.classKey,
      r.dataClass,
    );
  else statement(db, 'DELETE FROM resolutions WHERE breach_id = ? AND email = ? AND class_key = ?').run(r.breachId, r.email, r.classKey);
}

/** id → modifiedDate of every stored breach: the "before" of a snapshot diff. */
export function breachVersions(db: ReadableDB): Map<string, string> {
  return new Map(statement(db, 'SELECT id, modified_date FROM breaches').raw().all() as [string, string][]);
}

/** Records breaches that left the snapshot, so their return is not news. */
export function markGone(db: WritableDB, ids: readonly string[], now: string): void {
  if (ids.length === 0) return;
  statement(db, 'INSERT INTO gone_breaches (id, gone_at) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING').run(now, JSON.stringify(ids));
}

/** Which of `ids` were in some earlier snapshot and then left. */
export function goneAmong(db: ReadableDB, ids: readonly string[]): Set<string> {
  if (ids.length === 0) return new Set();
  return new Set(statement(db, 'SELECT id FROM gone_breaches WHERE id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids)) as string[]);
}

type BreachRow = [string, string, string, string, string, string, string, number];
const BREACH_COLUMNS = 'id, domain, breach_date, added_date, modified_date, data_classes, class_codes, is_sensitive';

/** The served fields of one breach, or undefined. */
export function getBreach(db: ReadableDB, id: string): (Breach & { classCodes: number[] }) | undefined {
  const row = statement(db, `SELECT ${BREACH_COLUMNS} FROM breaches WHERE id = ?`).raw().get(id) as BreachRow | undefined;
  return row && breachFromRow(row);
}

/** The served fields of several breaches, keyed by id. */
export function getBreaches(db: ReadableDB, ids: readonly string[]): Map<string, Breach & { classCodes: number[] }> {
  const rows = statement(db, `SELECT ${BREACH_COLUMNS} FROM breaches WHERE id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(ids)) as BreachRow[];
  return new Map(rows.map((row) => [row[0], breachFromRow(row)]));
}

function breachFromRow([id, domain, breachDate, addedDate, modifiedDate, dataClasses, classCodes, isSensitive]: BreachRow): Breach & { classCodes: number[] } {
  return {
    id,
    domain,
    breachDate,
    addedDate,
    modifiedDate,
    dataClasses: JSON.parse(dataClasses) as string[],
    isSensitive: isSensitive === 1,
    classCodes: parseCodeList(classCodes),
  };
}

export function accountEmailsOf(db: ReadableDB, breachId: string): string[] {
  return statement(db, 'SELECT email FROM breached_accounts WHERE breach_id = ? ORDER BY email').pluck().all(breachId) as string[];
}

/** Rows of the given breaches, for building views: (breach, email) pairs in email order. */
export function accountsOf(db: ReadableDB, breachIds: readonly string[]): [string, string][] {
  return statement(db, 'SELECT breach_id, email FROM breached_accounts WHERE breach_id IN (SELECT value FROM json_each(?)) ORDER BY breach_id, email')
    .raw()
    .all(JSON.stringify(breachIds)) as [string, string][];
}

/** Confirmed resolutions of the given breaches. */
export function resolutionsOf(db: ReadableDB, breachIds: readonly string[]): ResolutionRecord[] {
  const rows = statement(db, 'SELECT breach_id, email, class_key, data_class, resolved_at FROM resolutions WHERE breach_id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify(breachIds)) as [string, string, string, string, string | null][];
  return rows.map(([breachId, email, classKey, dataClass, resolvedAt]) => ({ breachId, email, classKey, dataClass, resolvedAt }));
}

/**
 * Recomputes the overlay columns of these breaches and their accounts from the confirmed state
 * and the outbox. Called in the transaction that changed either, so the columns the filters read
 * are never behind what the person did.
 */
export function recomputeOverlay(db: WritableDB, breachIds: Iterable<string>): void {
  const ids = [...new Set(breachIds)];
  if (ids.length === 0) return;
  const breaches = getBreaches(db, ids);
  const json = JSON.stringify(ids);
  const confirmed = new Map<string, Set<string>>();
  for (const [breachId, email, classKey] of statement(db, 'SELECT breach_id, email, class_key FROM resolutions WHERE breach_id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(json) as [string, string, string][]) {
    const pair = breachId + '\u0000' + email;
    let keys = confirmed.get(pair);
    if (!keys) confirmed.set(pair, (keys = new Set()));
    keys.add(classKey);
  }
  const intents = new Map<string, Map<string, boolean>>();
  for (const [breachId, email, classKey, resolved] of statement(
    db,
    'SELECT breach_id, email, class_key, resolved FROM outbox WHERE breach_id IN (SELECT value FROM json_each(?))',
  )
    .raw()
    .all(json) as [string, string, string, number][]) {
    const pair = breachId + '\u0000' + email;
    let keys = intents.get(pair);
    if (!keys) intents.set(pair, (keys = new Map()));
    keys.set(classKey, resolved === 1);
  }
  const emailsByBreach = new Map<string, string[]>();
  for (const [breachId, email] of accountsOf(db, ids)) {
    const emails = emailsByBreach.get(breachId);
    if (emails) emails.push(email);
    else emailsByBreach.set(breachId, [email]);
  }
  const updateAccount = statement(db, 'UPDATE breached_accounts SET unresolved_codes = ?, unresolved_count = ? WHERE breach_id = ? AND email = ?');
  const updateBreach = statement(db, 'UPDATE breaches SET unresolved_codes = ?, unresolved_count = ? WHERE id = ?');
  for (const id of ids) {
    const breach = breaches.get(id);
    if (!breach) continue;
    const classes: ClassRef[] = breach.dataClasses.map((name, i) => ({ key: dataClassKey(name), code: breach.classCodes[i]! }));
    const unresolvedAnywhere = new Set<number>();
    let count = 0;
    for (const email of emailsByBreach.get(id) ?? []) {
      const pair = id + '\u0000' + email;
      const codes = unresolvedCodesOf(classes, confirmed.get(pair), intents.get(pair));
      for (const code of codes) unresolvedAnywhere.add(code);
      count += codes.length;
      updateAccount.run(codeList(codes), codes.length, id, email);
    }
    updateBreach.run(codeList(breach.classCodes.filter((code) => unresolvedAnywhere.has(code))), count, id);
  }
}
