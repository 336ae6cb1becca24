import { dataClassKey, type Breach } from '../../../shared/api/index.ts';
import { codeList, parseCodeList, unresolvedCodesOf, type ClassRef } from './codeLists.ts';
import { loadDataClassCodes } from './dataClassCodes.ts';
import type { Statement } from 'better-sqlite3';
import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/**
 * A breach as written by a snapshot: the served fields plus what the filters read. Class sets
 * come as code-list text (see codeLists.ts), built once per breach by the caller.
 */
export interface BreachRecord {
  /** The row key, chosen by the writer (1, 2, … after `clearServerState`) so accounts can be written first. */
  key: number;
  id: string;
  domain: string;
  breachDate: string;
  addedDate: string;
  /** `addedDate` in epoch ms, for ordering across date-time formats. */
  addedAt: number;
  modifiedDate: string;
  /** The data class names, as a JSON array. */
  dataClassesJson: string;
  classCodes: string;
  isSensitive: boolean;
  unresolvedCodes: string;
  unresolvedCount: number;
}

export interface AccountRecord {
  /** The key of its breach's row. */
  breachKey: number;
  email: string;
  /** Code list of the classes the service says are resolved. */
  resolvedCodes: string;
  /** JSON `{"code": "date-time"}`, or null when the service gave no times. */
  resolvedAt: string | null;
  unresolvedCodes: string;
  unresolvedCount: number;
}

/** Removes all server state before a snapshot is written (the outbox stays). */
export function clearServerState(db: WritableDB): void {
  statement(db, 'DELETE FROM breaches').run();
  statement(db, 'DELETE FROM breached_accounts').run();
}

export interface SnapshotWriter {
  breach(b: BreachRecord): void;
  account(a: AccountRecord): void;
  /** An account with nothing resolved: its unresolved classes are all of the breach's. */
  plainAccount(breachKey: number, email: string, classCodes: string, classCount: number): void;
  /** Writes the rows still buffered; call once after the last row, before reading the tables. */
  flush(): void;
}

/** Rows per multi-row INSERT: one statement step for many rows (13 × 64 values, far below SQLite's limit). */
const ROWS_PER_INSERT = 64;
const BREACH_COLUMNS_WRITTEN = 'key, id, domain, domain_key, breach_date, added_date, added_at, modified_date, data_classes, class_codes, is_sensitive, unresolved_codes, unresolved_count';
const ACCOUNT_COLUMNS_WRITTEN = 'breach_key, email, resolved_codes, resolved_at, unresolved_codes, unresolved_count';

function insertSql(table: string, columns: string, rows: number): string {
  const row = `(${columns
    .split(',')
    .map(() => '?')
    .join(', ')})`;
  return `INSERT INTO ${table} (${columns}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
}

/**
 * Inserts for writing a snapshot. A snapshot is thousands of rows, and a statement step per row
 * costs more than the row itself: rows are buffered and written {@link ROWS_PER_INSERT} at a
 * time by one multi-row INSERT (statements compiled once per connection), the rest by `flush`.
 */
export function snapshotWriter(db: WritableDB): SnapshotWriter {
  const breaches = batchedInsert(db, 'breaches', BREACH_COLUMNS_WRITTEN);
  const accounts = batchedInsert(db, 'breached_accounts', ACCOUNT_COLUMNS_WRITTEN);
  return {
    plainAccount(breachKey, email, classCodes, classCount) {
      accounts.add(breachKey, email, ',', null, classCodes, classCount);
    },
    breach(b) {
      breaches.add(
        b.key,
        b.id,
        b.domain,
        b.domain.toLowerCase(),
        b.breachDate,
        b.addedDate,
        b.addedAt,
        b.modifiedDate,
        b.dataClassesJson,
        b.classCodes,
        b.isSensitive ? 1 : 0,
        b.unresolvedCodes,
        b.unresolvedCount,
      );
    },
    account(a) {
      accounts.add(a.breachKey, a.email, a.resolvedCodes, a.resolvedAt, a.unresolvedCodes, a.unresolvedCount);
    },
    flush() {
      breaches.flush();
      accounts.flush();
    },
  };
}

function batchedInsert(db: WritableDB, table: string, columns: string): { add(...values: unknown[]): void; flush(): void } {
  // Compiled when first needed: a small user's first sync on a new connection never fills a batch,
  // and compiling a statement of hundreds of parameters costs more than writing its rows one by one.
  let many: Statement | undefined;
  let one: Statement | undefined;
  const width = columns.split(',').length;
  const values = new Array<unknown>(width * ROWS_PER_INSERT);
  let filled = 0;
  return {
    add(...row) {
      for (let i = 0; i < width; i++) values[filled++] = row[i];
      if (filled === values.length) {
        (many ??= statement(db, insertSql(table, columns, ROWS_PER_INSERT))).run(values);
        filled = 0;
      }
    },
    flush() {
      if (filled > 0) one ??= statement(db, insertSql(table, columns, 1));
      for (let at = 0; at < filled; at += width) one!.run(values.slice(at, at + width));
      filled = 0;
    },
  };
}

/** One (breach, email) of the snapshot with what the service last confirmed. */
export interface AccountRow {
  breachId: string;
  email: string;
  /** Codes of the classes the service says are resolved. */
  resolved: number[];
  /** code → resolvedAt, where the service gave one. */
  resolvedAt: Record<string, string>;
}

type RawAccount = [string, string, string, string | null];

function accountFromRaw([breachId, email, resolvedCodes, resolvedAt]: RawAccount): AccountRow {
  return { breachId, email, resolved: parseCodeList(resolvedCodes), resolvedAt: resolvedAt ? (JSON.parse(resolvedAt) as Record<string, string>) : {} };
}

/** The accounts of these breaches, by breach then email. */
export function accountRowsOf(db: ReadableDB, breachIds: readonly string[]): AccountRow[] {
  const rows = statement(
    db,
    `SELECT b.id, a.email, a.resolved_codes, a.resolved_at FROM breaches AS b JOIN breached_accounts AS a ON a.breach_key = b.key
     WHERE b.id IN (SELECT value FROM json_each(?)) ORDER BY b.id, a.email`,
  )
    .raw()
    .all(JSON.stringify(breachIds)) as RawAccount[];
  return rows.map(accountFromRaw);
}

export function accountEmailsOf(db: ReadableDB, breachId: string): string[] {
  return statement(db, 'SELECT a.email FROM breaches AS b JOIN breached_accounts AS a ON a.breach_key = b.key WHERE b.id = ? ORDER BY a.email').pluck().all(breachId) as string[];
}

/**
 * What the service confirmed with a 2xx: classes sent as resolved join the account's confirmed
 * set (without a time until the next pull tells it; an earlier time stays, as the service keeps
 * it), classes sent as unresolved leave it. The overlay does not move: what the person sees was
 * already these intents.
 */
export function confirmResolutions(db: WritableDB, intents: readonly { breachId: string; email: string; classKey: string; resolved: boolean }[]): void {
  if (intents.length === 0) return;
  const byPair = new Map<string, { classKey: string; resolved: boolean }[]>();
  for (const intent of intents) {
    const pair = intent.breachId + '\u0000' + intent.email;
    const list = byPair.get(pair);
    if (list) list.push(intent);
    else byPair.set(pair, [intent]);
  }
  const codes = loadDataClassCodes(db);
  const update = statement(db, 'UPDATE breached_accounts SET resolved_codes = ?, resolved_at = ? WHERE breach_key = ? AND email = ?');
  // Thousands of accounts per request: read as stored (no ordering, no parse of the times unless a class leaves).
  const rows = statement(
    db,
    'SELECT b.id, b.key, a.email, a.resolved_codes, a.resolved_at FROM breaches AS b JOIN breached_accounts AS a ON a.breach_key = b.key WHERE b.id IN (SELECT value FROM json_each(?))',
  )
    .raw()
    .all(JSON.stringify([...new Set(intents.map((i) => i.breachId))])) as [string, number, string, string, string | null][];
  for (const [breachId, breachKey, email, resolvedCodes, resolvedAt] of rows) {
    const changes = byPair.get(breachId + '\u0000' + email);
    if (!changes) continue;
    const resolved = new Set(parseCodeList(resolvedCodes));
    let times: Record<string, string> | undefined;
    for (const { classKey, resolved: wanted } of changes) {
      const code = codes.get(classKey);
      if (code === undefined) continue;
      if (wanted) resolved.add(code);
      else {
        resolved.delete(code);
        times ??= resolvedAt ? (JSON.parse(resolvedAt) as Record<string, string>) : {};
        delete times[code];
      }
    }
    const nextCodes = codeList(resolved);
    const nextAt = times === undefined ? resolvedAt : Object.keys(times).length > 0 ? JSON.stringify(times) : null;
    // Already what the service confirmed (a toggle sent again): the row stays as it is.
    if (nextCodes === resolvedCodes && nextAt === resolvedAt) continue;
    update.run(nextCodes, nextAt, breachKey, email);
  }
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

export type StoredBreach = Breach & { classCodes: number[] };

/** The served fields of one breach, or undefined. */
export function getBreach(db: ReadableDB, id: string): StoredBreach | undefined {
  const row = statement(db, `SELECT ${BREACH_COLUMNS} FROM breaches WHERE id = ?`).raw().get(id) as BreachRow | undefined;
  return row && breachFromRow(row);
}

/** Every breach of the local store, by id (the graph is built from these). */
export function listBreaches(db: ReadableDB): StoredBreach[] {
  return (statement(db, `SELECT ${BREACH_COLUMNS} FROM breaches ORDER BY id`).raw().all() as BreachRow[]).map(breachFromRow);
}

/** The served fields of several breaches, keyed by id. */
export function getBreaches(db: ReadableDB, ids: readonly string[]): Map<string, StoredBreach> {
  const rows = statement(db, `SELECT ${BREACH_COLUMNS} FROM breaches WHERE id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(ids)) as BreachRow[];
  return new Map(rows.map((row) => [row[0], breachFromRow(row)]));
}

function breachFromRow([id, domain, breachDate, addedDate, modifiedDate, dataClasses, classCodes, isSensitive]: BreachRow): StoredBreach {
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

/**
 * Recomputes the overlay columns of these breaches and their accounts from the confirmed state
 * and the outbox. Called in the transaction that changed the outbox, so the columns the filters
 * read are never behind what the person did.
 */
export function recomputeOverlay(db: WritableDB, breachIds: Iterable<string>): void {
  const ids = [...new Set(breachIds)];
  if (ids.length === 0) return;
  const breaches = getBreaches(db, ids);
  const intents = new Map<string, Map<string, boolean>>();
  for (const [breachId, email, classKey, resolved] of statement(db, 'SELECT breach_id, email, class_key, resolved FROM outbox WHERE breach_id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify(ids)) as [string, string, string, number][]) {
    const pair = breachId + '\u0000' + email;
    let keys = intents.get(pair);
    if (!keys) intents.set(pair, (keys = new Map()));
    keys.set(classKey, resolved === 1);
  }
  const accountsByBreach = new Map<string, AccountRow[]>();
  for (const account of accountRowsOf(db, ids)) {
    const list = accountsByBreach.get(account.breachId);
    if (list) list.push(account);
    else accountsByBreach.set(account.breachId, [account]);
  }
  const updateAccount = statement(db, 'UPDATE breached_accounts SET unresolved_codes = ?, unresolved_count = ? WHERE breach_key = (SELECT key FROM breaches WHERE id = ?) AND email = ?');
  const updateBreach = statement(db, 'UPDATE breaches SET unresolved_codes = ?, unresolved_count = ? WHERE id = ?');
  for (const id of ids) {
    const breach = breaches.get(id);
    if (!breach) continue;
    const classes: ClassRef[] = breach.dataClasses.map((name, i) => ({ key: dataClassKey(name), code: breach.classCodes[i]! }));
    const unresolvedAnywhere = new Set<number>();
    let count = 0;
    for (const account of accountsByBreach.get(id) ?? []) {
      const codes = unresolvedCodesOf(classes, new Set(account.resolved), intents.get(id + '\u0000' + account.email));
      for (const code of codes) unresolvedAnywhere.add(code);
      count += codes.length;
      updateAccount.run(codeList(codes), codes.length, id, account.email);
    }
    updateBreach.run(codeList(breach.classCodes.filter((code) => unresolvedAnywhere.has(code))), count, id);
  }
}
