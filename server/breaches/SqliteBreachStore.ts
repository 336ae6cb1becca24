import type { Database as SqliteDatabase, Transaction } from 'better-sqlite3';
import { CatalogOrigin, emailKey, type Breach, type CatalogChange } from '../../shared/api/index.ts';
import { compareIds } from '../catalog/dataClasses.ts';
import {
  stampsOf,
  type Account,
  type AccountRead,
  type AddedEmailProof,
  type CodeSend,
  type CodeSendResult,
  type PersonEmailRow,
  type CatalogReplacement,
  type LoadedCatalog,
  type RemovedBreach,
  type ResolutionChange,
  type ResolutionRow,
  type SyncBreachStore,
} from './BreachStore.ts';
import {
  checkResolutionChange,
  dataClassSpellings,
  distinctValidBreaches,
  exposureEmailKey,
  validAccount,
  validBreach,
  validCatalogReplacement,
  validInventedRemoval,
  validResolvedAt,
  validUserSub,
} from './breachRules.ts';
import {
  catalogSnapshot,
  copyAccount,
  copyBreach,
  copyRemovedBreaches,
  fromBreachRow,
  fromCatalogChangeColumns,
  removedBreachOf,
  toBreachRow,
  type BreachRow,
  type CatalogChangeColumns,
  type CatalogSnapshot,
} from './breachRows.ts';
import { migrate, schemaVersion } from '../storage/sqliteMigrate.ts';
import { prepareStatements, SELECT_EXPOSURES, SELECT_RESOLUTIONS, type BreachStatements } from './sqliteBreachStatements.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations/index.ts';
import { openPrivateDatabase } from '../../engine/db/openPrivateDatabase.ts';
import { SqlitePersonEmails } from './SqlitePersonEmails.ts';

/** Remembered account lookups before the memory is cleared and filled again. */
const MAX_REMEMBERED_SUBJECTS = 10_000;

/** The catalog as last read, with what `applyResolutionChanges` needs to check a change quickly. */
interface SqliteCatalogSnapshot extends CatalogSnapshot<number> {
  /** Per breach, removed ones included: data class key → the breach's own spelling. */
  classesById: Map<string, Map<string, string>>;
}

export type ExplainableQuery = 'resolutions' | 'exposures';

/**
 * {@link SyncBreachStore} on SQLite. Emails are keyed by {@link emailKey}: results (map keys,
 * `ResolutionRow.email`, account emails) carry the lower-case form. Email lists go to SQLite
 * as one JSON array bound to a statement prepared once, so a lookup costs one index search per
 * email however many emails a request names. Revisions live in the database, so they keep
 * rising across restarts and other connections' writes are seen.
 */
export class SqliteBreachStore implements SyncBreachStore {
  readonly #db: SqliteDatabase;
  readonly #sql: BreachStatements;
  #catalog: SqliteCatalogSnapshot | undefined;

  // In-memory change tracking for answer caches, kept per email so one user's write leaves
  // every other user's cached answers valid. Another connection's commit (seen through
  // `PRAGMA data_version`) starts a new epoch and forgets everything remembered.
  #dataVersion: number | undefined;
  /** Set while the current synchronous run has already looked (one look per request suffices). */
  #lookedThisTurn = false;
  #epoch = 0;
  #counter = 0;
  #catalogChange = 0;
  readonly #emailChanges = new Map<string, number>();
  readonly #accounts = new Map<string, Account | null>();
  readonly #users = new Set<string>();
  /**
   * Each person's added addresses as last read: every request's account read needs them, and
   * reading them was a third of a cached answer's time. Forgotten on this process's own write
   * of that person's addresses and, like everything here, on another connection's commit.
   */
  readonly #addedEmails = new Map<string, readonly PersonEmailRow[]>();

  /**
   * This process's own catalog writes, one breach id per revision from `from` on: lets the search
   * index update only what changed. A write by another process leaves a gap (then unknown).
   */
  #catalogLog: { from: number; ids: string[] } | undefined;
  readonly #replaceCatalog: Transaction<(breaches: readonly Breach[], replacement: CatalogReplacement | undefined) => number>;
  readonly #removeInvented: Transaction<(at: string, to: CatalogOrigin) => string[]>;
  readonly #putBreach: Transaction<(breach: Breach) => number>;
  readonly #putBreaches: Transaction<(breaches: readonly Breach[]) => number>;
  readonly #putAccount: Transaction<(sub: string, emails: string[], deleted: boolean) => void>;
  readonly #createUser: Transaction<(sub: string, now: string) => boolean>;
  readonly #setExposures: Transaction<(email: string, breachIds: readonly string[], invented: boolean) => void>;
  readonly #applyResolutionChanges: Transaction<(changes: readonly ResolutionChange[], now: string) => Set<string>>;
  readonly #personEmails: SqlitePersonEmails;

  /** Takes over a database already migrated to the latest schema; see {@link openSqliteBreachStore}. */
  constructor(db: SqliteDatabase) {
    const version = schemaVersion(db);
    if (version !== LATEST_SCHEMA_VERSION) throw new Error(`database schema version is ${version}, expected ${LATEST_SCHEMA_VERSION}; migrate it first`);
    this.#db = db;
    const sql = prepareStatements(db);
    this.#sql = sql;

    const bump = (): void => void sql.bumpRevision.run();
    const bumpCatalog = (): void => void sql.bumpCatalogRevision.run();

    this.#replaceCatalog = db.transaction((breaches: readonly Breach[], replacement: CatalogReplacement | undefined) => {
      const at = replacement?.at ?? new Date().toISOString();
      const before = this.loadedCatalog();
      const next = new Set(breaches.map((breach) => breach.id));
      const leaving = (sql.listBreaches.all() as BreachRow[]).filter((row) => !next.has(row.id));
      for (const row of leaving) sql.putRemovedBreach.run(row.id, JSON.stringify(fromBreachRow(row)), at);
      sql.deleteAllBreaches.run();
      for (const breach of breaches) {
        sql.upsertBreach.run(toBreachRow(breach));
        sql.deleteRemovedBreach.run(breach.id);
      }
      if (replacement) sql.setLoadedCatalog.run(replacement.origin, replacement.file);
      const to = replacement?.origin ?? before?.origin;
      if (leaving.length > 0 && to) {
        const ids = JSON.stringify(leaving.map((row) => row.id));
        for (const [email, removed, kept] of sql.exposedTo.all(ids, ids) as [string, string, number][]) {
          sql.insertChange.run(at, email, before?.origin ?? null, to, JSON.stringify(JSON.parse(removed).sort(compareIds)), '[]', kept, 0);
        }
      }
      bumpCatalog();
      return sql.readCatalogRevision.get() as number;
    });
    this.#putBreaches = db.transaction((breaches: readonly Breach[]) => {
      for (const breach of breaches) {
        sql.upsertBreach.run(toBreachRow(breach));
        sql.deleteRemovedBreach.run(breach.id);
      }
      bumpCatalog();
      return sql.readCatalogRevision.get() as number;
    });
    this.#removeInvented = db.transaction((at: string, to: CatalogOrigin) => {
      const before = this.loadedCatalog();
      const emails: string[] = [];
      for (const [email, json] of sql.inventedRecords.all() as [string, string][]) {
        const ids = (JSON.parse(json) as string[]).sort(compareIds);
        const removed = sql.deleteResolutionsOf.run(email, JSON.stringify(ids)).changes;
        sql.deleteExposureRecord.run(email);
        // A lookup answer the invented record replaced is gone with it: unknown (due now), never clean.
        sql.forgetCheck.run(Date.parse(at), email);
        sql.insertChange.run(at, email, before?.origin ?? null, to, '[]', JSON.stringify(ids), 0, removed);
        emails.push(email);
      }
      if (emails.length > 0) bump();
      return emails;
    });
    this.#putBreach = db.transaction((breach: Breach) => {
      sql.upsertBreach.run(toBreachRow(breach));
      // A breach back in the catalog is no longer "removed" (as in a whole replacement).
      sql.deleteRemovedBreach.run(breach.id);
      bumpCatalog();
      return sql.readCatalogRevision.get() as number;
    });
    this.#putAccount = db.transaction((sub: string, emails: string[], deleted: boolean) => {
      sql.upsertAccount.run(sub, JSON.stringify(emails), deleted ? 1 : 0);
      bump();
    });
    this.#createUser = db.transaction((sub: string, now: string) => {
      const created = sql.insertUser.run(sub, now).changes === 1;
      if (created) bump();
      return created;
    });
    this.#setExposures = db.transaction((email: string, breachIds: readonly string[], invented: boolean) => {
      const wasInvented = sql.isInvented.get(email) === 1;
      sql.insertExposureRecord.run(email, invented ? 1 : 0);
      // A real answer no longer naming a breach that left the catalog keeps it: the person's history
      // (HIBP stops listing a retired breach). Invented records, written or replaced, go exactly.
      if (invented || wasInvented) sql.deleteExposures.run(email);
      else sql.deleteExposuresKeepingRemoved.run(email);
      for (const id of breachIds) sql.insertExposure.run(email, id);
      bump();
    });
    this.#personEmails = new SqlitePersonEmails(db, (email) => this.#emailChanges.set(email, ++this.#counter));
    this.#applyResolutionChanges = db.transaction((changes: readonly ResolutionChange[], now: string) => {
      const catalog = this.#snapshot();
      const changedEmails = new Set<string>();
      changes.forEach((change, index) => {
        const { email, breachId, key, spelling, resolved } = checkResolutionChange(change, index, catalog.classesById);
        const changed = resolved ? sql.resolve.run(email, breachId, key, spelling, now).changes : sql.unresolve.run(email, breachId, key).changes;
        if (changed > 0) changedEmails.add(email);
      });
      // Only a real change moves the revision: repeating a request leaves caches (and ETags) valid.
      if (changedEmails.size > 0) bump();
      return changedEmails;
    });
  }

  listBreaches(): Breach[] {
    return this.#snapshot().breaches.map(copyBreach);
  }

  getBreach(id: string): Breach | undefined {
    const breach = this.#snapshot().byId.get(id);
    return breach && copyBreach(breach);
  }

  putBreach(breach: Breach): void {
    const valid = validBreach(breach);
    const revision = this.#putBreach.immediate(valid);
    this.#catalogChange = ++this.#counter;
    const log = this.#catalogLog;
    if (log && log.from + log.ids.length === revision - 1) {
      log.ids.push(valid.id);
      if (log.ids.length > MAX_LOGGED_CATALOG_CHANGES) log.from += log.ids.splice(0, log.ids.length - MAX_LOGGED_CATALOG_CHANGES).length;
    } else this.#catalogLog = { from: revision - 1, ids: [valid.id] };
    // The snapshot just before this write takes the one breach, as a fresh read would give it.
    const snapshot = this.#catalog;
    if (snapshot?.revision === revision - 1) {
      patchSnapshot(snapshot, fromBreachRow(toBreachRow(valid)));
      snapshot.revision = revision;
    }
  }

  /**
   * Ids of the breaches written since catalog revision `revision`, oldest first (repeats kept),
   * or undefined when that is not known (a whole-catalog replacement, another process's write,
   * or too long ago): then read everything.
   */
  catalogChangesSince(revision: number): readonly string[] | undefined {
    const current = this.catalogRevision();
    if (revision === current) return [];
    const log = this.#catalogLog;
    if (!log || revision < log.from || log.from + log.ids.length !== current) return undefined;
    return log.ids.slice(revision - log.from);
  }

  putBreaches(breaches: readonly Breach[]): void {
    // Readers catch up with a bulk load by reading everything once (the log names single writes).
    this.#catalogLog = { from: this.#putBreaches.immediate(distinctValidBreaches(breaches)), ids: [] };
    this.#catalogChange = ++this.#counter;
  }

  replaceCatalog(breaches: readonly Breach[], replacement?: CatalogReplacement): void {
    validCatalogReplacement(replacement);
    const valid = distinctValidBreaches(breaches);
    this.#catalogLog = { from: this.#replaceCatalog.immediate(valid, replacement), ids: [] };
    this.#catalogChange = ++this.#counter;
  }

  loadedCatalog(): LoadedCatalog | undefined {
    const row = this.#sql.loadedCatalog.get() as { origin: string | null; file: string | null } | undefined;
    return row?.origin ? { origin: CatalogOrigin.parse(row.origin), file: row.file } : undefined;
  }

  removedBreaches(): Map<string, RemovedBreach> {
    return copyRemovedBreaches(this.#snapshot().removed);
  }

  removeInventedExposures(change: { at: string; to: CatalogOrigin }): string[] {
    const { at, to } = validInventedRemoval(change);
    const emails = this.#removeInvented.immediate(at, to);
    for (const email of emails) this.#emailChanges.set(email, ++this.#counter);
    return emails;
  }

  catalogChanges(emails: readonly string[]): CatalogChange[] {
    return (this.#sql.selectChanges.all(emailList(emails)) as ChangeRow[]).map((row) =>
      fromCatalogChangeColumns({ ...row, removed: JSON.parse(row.removed) as string[], invented_removed: JSON.parse(row.invented_removed) as string[] }),
    );
  }

  catalogSize(): number {
    return this.#sql.countBreaches.get() as number;
  }

  getAccount(sub: string): Account | undefined {
    this.#noticeForeignWrites();
    let account = this.#accounts.get(sub);
    if (account === undefined) {
      const row = this.#sql.getAccount.get(sub) as { emails: string; deleted: number } | undefined;
      account = row ? { sub, emails: JSON.parse(row.emails) as string[], deleted: row.deleted === 1 } : null;
      this.#remember(this.#accounts, sub, account);
    }
    return account ? copyAccount(account) : undefined;
  }

  putAccount(account: Account): void {
    const { emails } = validAccount(account);
    this.#putAccount.immediate(account.sub, emails, account.deleted);
    this.#accounts.delete(account.sub);
  }

  hasUser(sub: string): boolean {
    // Users are never deleted, so a remembered one stays true whatever another connection does.
    if (this.#users.has(sub)) return true;
    const exists = this.#sql.hasUser.get(sub) !== undefined;
    if (exists) {
      if (this.#users.size >= MAX_REMEMBERED_SUBJECTS) this.#users.clear();
      this.#users.add(sub);
    }
    return exists;
  }

  createUser(sub: string): boolean {
    validUserSub(sub);
    return this.#createUser.immediate(sub, new Date().toISOString());
  }

  getExposures(emails: readonly string[]): Map<string, string[]> {
    const result = new Map<string, string[]>();
    for (const [email, json] of this.#sql.selectExposures.all(emailList(emails)) as [string, string][]) {
      const ids = JSON.parse(json) as string[];
      result.set(email, isSortedById(ids) ? ids : ids.sort(compareIds));
    }
    return result;
  }

  setExposures(email: string, breachIds: readonly string[], invented = false): void {
    const key = exposureEmailKey(email);
    this.#setExposures.immediate(key, [...new Set(breachIds)], invented);
    this.#emailChanges.set(key, ++this.#counter);
  }

  getResolutions(emails: readonly string[]): ResolutionRow[] {
    return (this.#sql.selectResolutions.all(emailList(emails)) as [string, string, string, string][]).map(([email, breachId, dataClass, resolvedAt]) => ({ email, breachId, dataClass, resolvedAt }));
  }

  applyResolutionChanges(changes: readonly ResolutionChange[], now: string): void {
    validResolvedAt(now);
    if (changes.length === 0) return;
    for (const email of this.#applyResolutionChanges.immediate(changes, now)) this.#emailChanges.set(email, ++this.#counter);
  }

  personEmails(sub: string): PersonEmailRow[] {
    this.#noticeForeignWrites();
    return this.#addedEmailsOf(sub).map((row) => ({ ...row }));
  }

  #addedEmailsOf(sub: string): readonly PersonEmailRow[] {
    let rows = this.#addedEmails.get(sub);
    if (rows === undefined) {
      rows = this.#personEmails.personEmails(sub);
      this.#remember(this.#addedEmails, sub, rows);
    }
    return rows;
  }

  addPersonEmail(sub: string, email: string, at: number, verifiedBy: AddedEmailProof | null, maxRows: number): 'added' | 'exists' | 'full' {
    return this.#writingAddedEmails(sub, () => this.#personEmails.addPersonEmail(sub, email, at, verifiedBy, maxRows));
  }

  recordCodeSend(sub: string, email: string, send: CodeSend): CodeSendResult {
    return this.#writingAddedEmails(sub, () => this.#personEmails.recordCodeSend(sub, email, send));
  }

  countCodeAttempt(sub: string, email: string): PersonEmailRow | undefined {
    return this.#writingAddedEmails(sub, () => this.#personEmails.countCodeAttempt(sub, email));
  }

  markEmailVerified(sub: string, email: string, at: number): boolean {
    return this.#writingAddedEmails(sub, () => this.#personEmails.markEmailVerified(sub, email, at));
  }

  removePersonEmail(sub: string, email: string): boolean {
    return this.#writingAddedEmails(sub, () => this.#personEmails.removePersonEmail(sub, email));
  }

  /** A write of `sub`'s added addresses: what was remembered of them goes, whether the write committed or threw. */
  #writingAddedEmails<T>(sub: string, write: () => T): T {
    try {
      return write();
    } finally {
      this.#addedEmails.delete(sub);
    }
  }

  revision(): number {
    return this.#sql.readRevision.get() as number;
  }

  readAccount(sub: string, fallbackEmails: readonly string[]): AccountRead {
    const account = this.getAccount(sub);
    this.#noticeForeignWrites();
    const added = this.#addedEmailsOf(sub);
    const revisions = new Map<string, number>();
    const cover = (email: string) => revisions.set(emailKey(email), this.#emailChanges.get(emailKey(email)) ?? 0);
    for (const email of account?.emails ?? fallbackEmails) cover(email);
    for (const row of added) if (row.verifiedAt !== null) cover(row.email);
    return { account, added: added.map((row) => ({ ...row })), changeStamp: stampsOf(`${this.#epoch}.${this.#catalogChange}`, revisions) };
  }

  changeStamp(emails: readonly string[]): string {
    this.#noticeForeignWrites();
    let stamp = `${this.#epoch}.${this.#catalogChange}`;
    for (const email of emails) stamp += '.' + (this.#emailChanges.get(emailKey(email)) ?? 0);
    return stamp;
  }

  /**
   * Another connection committed since the last look: nothing remembered can be trusted.
   * Looked at once per synchronous run (a request's account lookup and its cache stamp share
   * one look): the pragma costs a read transaction.
   */
  #noticeForeignWrites(): void {
    if (this.#lookedThisTurn) return;
    this.#lookedThisTurn = true;
    queueMicrotask(() => (this.#lookedThisTurn = false));
    const version = this.#sql.dataVersion.get() as number;
    if (version === this.#dataVersion) return;
    if (this.#dataVersion !== undefined) {
      this.#epoch += 1;
      this.#emailChanges.clear();
      this.#accounts.clear();
      this.#users.clear();
      this.#addedEmails.clear();
    }
    this.#dataVersion = version;
  }

  #remember<V>(map: Map<string, V>, key: string, value: V): void {
    if (map.size >= MAX_REMEMBERED_SUBJECTS) map.clear();
    map.set(key, value);
  }

  catalogRevision(): number {
    return this.#sql.readCatalogRevision.get() as number;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  /** Test hook: a setting of this connection, e.g. `synchronous` (2 is FULL). */
  _pragma(name: 'synchronous' | 'journal_mode'): unknown {
    return this.#db.pragma(name, { simple: true });
  }

  /** Test hook: SQLite's plan for a per-request lookup, one line per step. */
  _explainQueryPlan(query: ExplainableQuery): string[] {
    const sql = query === 'resolutions' ? SELECT_RESOLUTIONS : SELECT_EXPOSURES;
    return (this.#db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('["a@example.com","b@example.com"]') as { detail: string }[]).map((row) => row.detail);
  }

  /**
   * The catalog changes rarely and is read on every request, so it is parsed once per catalog
   * revision rather than per call.
   */
  #snapshot(): SqliteCatalogSnapshot {
    const revision = this.#sql.readCatalogRevision.get() as number;
    if (this.#catalog?.revision === revision) return this.#catalog;
    const breaches = (this.#sql.listBreaches.all() as BreachRow[]).map(fromBreachRow);
    const gone = (this.#sql.listRemovedBreaches.all() as [string, string, string][]).map(([id, json, removedAt]) => removedBreachOf(id, JSON.parse(json), removedAt));
    const snapshot = catalogSnapshot(revision, breaches, gone);
    const { removed } = snapshot;
    const classesById = new Map<string, Map<string, string>>();
    for (const breach of [...[...removed.values()].map((r) => r.breach), ...breaches]) classesById.set(breach.id, dataClassSpellings(breach.dataClasses));
    this.#catalog = { ...snapshot, classesById };
    return this.#catalog;
  }
}

/** Past this many, the oldest logged catalog changes are forgotten (a reader that far behind reads everything). */
const MAX_LOGGED_CATALOG_CHANGES = 10_000;

/** SQLite's `ORDER BY id` (BINARY collation: UTF-8 bytes), which UTF-16 string order is not. */
function compareSqliteIds(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Puts one breach into a snapshot in place, keeping `breaches` in the order SQLite lists them. */
function patchSnapshot(snapshot: SqliteCatalogSnapshot, breach: Breach): void {
  const { breaches } = snapshot;
  let low = 0;
  let high = breaches.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareSqliteIds(breaches[middle]!.id, breach.id) < 0) low = middle + 1;
    else high = middle;
  }
  if (breaches[low]?.id === breach.id) breaches[low] = breach;
  else breaches.splice(low, 0, breach);
  snapshot.byId.set(breach.id, breach);
  snapshot.removed.delete(breach.id);
  snapshot.classesById.set(breach.id, dataClassSpellings(breach.dataClasses));
}

/**
 * Opens (creating if needed) the service database at `path`, or an in-memory one for
 * `:memory:`, and brings its schema up to date.
 */
export function openSqliteBreachStore(path: string): SqliteBreachStore {
  // WAL lets readers go on while a write commits. FULL syncs the WAL at every commit: a write
  // answered 204 has been removed from the client's outbox, so it must survive a power cut
  // (NORMAL may lose the last commits then).
  const file = path === '' ? ':memory:' : path;
  const db = openPrivateDatabase(file, { synchronous: 'FULL', foreignKeys: true, tightenExisting: true }, (opened) => migrate(opened, MIGRATIONS));
  return new SqliteBreachStore(db);
}

/** A `catalog_changes` row as SQLite returns it (the lists as JSON text). */
interface ChangeRow extends Omit<CatalogChangeColumns, 'removed' | 'invented_removed'> {
  removed: string;
  invented_removed: string;
}

function isSortedById(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (compareIds(ids[i - 1] as string, ids[i] as string) > 0) return false;
  return true;
}

function emailList(emails: readonly string[]): string {
  return JSON.stringify([...new Set(emails.map(emailKey))]);
}
