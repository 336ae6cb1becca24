import { dataClassKey, emailKey } from '../../../shared/api/index.ts';
import { LocalBreachQuery, type LocalAccountState, type LocalBreach, type LocalBreachPage, type LocalBreachQueryInput, type LocalCounts } from '../../../shared/api/localQuery.ts';
import { accountRowsOf, type AccountRow } from '../db/breachQueries.ts';
import { forEachCode, parseCodeList } from '../db/codeLists.ts';
import { dataClassNamesByCode } from '../db/dataClassCodes.ts';
import { dynamicStatement, type ReadableDB } from '../db/Interface.ts';
import { outboxRowsOfBreaches } from '../db/outboxQueries.ts';
import { buildFilter, orderBy } from './filterSql.ts';

type BreachRow = [string, string, string, string, string, string, number, string];
const BREACH_COLUMNS = 'b.id, b.domain, b.breach_date, b.added_date, b.modified_date, b.data_classes, b.is_sensitive, b.class_codes';

/**
 * One window of the breaches a local query matches, ordered as asked, each with its accounts'
 * state as the person sees it (the service's, with their pending changes applied, and markers
 * for what is pending or failed).
 */
export function queryBreaches(db: ReadableDB, input: LocalBreachQueryInput = {}): LocalBreachPage {
  const query = LocalBreachQuery.parse(input);
  const filter = buildFilter(db, query);
  if (filter.empty) return { total: 0, offset: query.offset, items: [] };
  // A separate count beats `count(*) OVER ()`, which makes SQLite carry every match through the sort.
  const total = dynamicStatement(db, `SELECT count(*) FROM ${filter.from} WHERE ${filter.where}`)
    .pluck()
    .get(...filter.params) as number;
  if (query.offset >= total) return { total, offset: query.offset, items: [] };
  const sql = `SELECT ${BREACH_COLUMNS} FROM ${filter.from} WHERE ${filter.where} ORDER BY ${orderBy(query, filter)} LIMIT ? OFFSET ?`;
  const rows = dynamicStatement(db, sql)
    .raw()
    .all(...filter.params, query.limit, query.offset) as BreachRow[];
  return { total, offset: query.offset, items: materialize(db, rows, query.email) };
}

/** One breach as the person sees it, or undefined; `email` narrows it to that email's state. */
export function getLocalBreach(db: ReadableDB, id: string, options: { email?: string } = {}): LocalBreach | undefined {
  const row = dynamicStatement(db, `SELECT ${BREACH_COLUMNS} FROM breaches AS b WHERE b.id = ?`).raw().get(id) as BreachRow | undefined;
  if (!row) return undefined;
  const [item] = materialize(db, [row], options.email);
  return item && (options.email === undefined || item.breachedAccounts.length > 0) ? item : undefined;
}

/** How many breaches match (window ignored). */
export function countMatches(db: ReadableDB, input: LocalBreachQueryInput = {}): number {
  const query = LocalBreachQuery.parse(input);
  const filter = buildFilter(db, query);
  if (filter.empty) return 0;
  return dynamicStatement(db, `SELECT count(*) FROM ${filter.from} WHERE ${filter.where}`)
    .pluck()
    .get(...filter.params) as number;
}

/**
 * Unresolved counts per email and per data class over the breaches the query matches. In the
 * per-email view every figure is about that email alone. Read from the overlay columns: two
 * statements and a pass over code lists, however many breaches match.
 */
export function countBreaches(db: ReadableDB, input: LocalBreachQueryInput = {}): LocalCounts {
  const query = LocalBreachQuery.parse(input);
  const filter = buildFilter(db, query);
  const counts: LocalCounts = { breaches: 0, unresolvedBreaches: 0, byEmail: [], byDataClass: [] };
  if (filter.empty) return counts;
  const perEmail = query.email !== undefined;
  // Per matching breach: its classes, and its classes unresolved (for the one email in the per-email view).
  const breaches = dynamicStatement(db, `SELECT b.class_codes, ${perEmail ? 'a' : 'b'}.unresolved_codes FROM ${filter.from} WHERE ${filter.where}`)
    .raw()
    .all(...filter.params) as [string, string][];
  // Per matching (breach, email): what is unresolved.
  const accounts = (
    perEmail
      ? dynamicStatement(db, `SELECT a.email, a.unresolved_codes, a.unresolved_count FROM ${filter.from} WHERE ${filter.where}`)
      : dynamicStatement(db, `SELECT x.email, x.unresolved_codes, x.unresolved_count FROM breached_accounts AS x JOIN ${filter.from} ON b.key = x.breach_key WHERE ${filter.where}`)
  )
    .raw()
    .all(...filter.params) as [string, string, number][];

  const names = dataClassNamesByCode(db);
  const size = Math.max(0, ...names.keys()) + 1;
  const classBreaches = new Int32Array(size);
  const classUnresolvedBreaches = new Int32Array(size);
  const classUnresolvedAccounts = new Int32Array(size);
  const tallyBreach = (code: number) => void classBreaches[code]!++;
  const tallyUnresolvedBreach = (code: number) => void classUnresolvedBreaches[code]!++;
  const tallyUnresolvedAccount = (code: number) => void classUnresolvedAccounts[code]!++;
  for (const [classCodes, unresolvedCodes] of breaches) {
    forEachCode(classCodes, tallyBreach);
    if (unresolvedCodes.length > 1) {
      counts.unresolvedBreaches++;
      forEachCode(unresolvedCodes, tallyUnresolvedBreach);
    }
  }
  counts.breaches = breaches.length;

  const byEmail = new Map<string, LocalCounts['byEmail'][number]>();
  for (const [email, unresolvedCodes, unresolvedCount] of accounts) {
    let entry = byEmail.get(email);
    if (!entry) byEmail.set(email, (entry = { email, breaches: 0, unresolvedBreaches: 0, unresolvedDataClasses: 0 }));
    entry.breaches++;
    if (unresolvedCount > 0) {
      entry.unresolvedBreaches++;
      entry.unresolvedDataClasses += unresolvedCount;
      forEachCode(unresolvedCodes, tallyUnresolvedAccount);
    }
  }
  counts.byEmail = [...byEmail.values()].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  for (const [code, name] of names) {
    if (classBreaches[code]! === 0) continue;
    counts.byDataClass.push({
      dataClass: name,
      breaches: classBreaches[code]!,
      unresolvedBreaches: classUnresolvedBreaches[code]!,
      unresolvedAccounts: classUnresolvedAccounts[code]!,
    });
  }
  counts.byDataClass.sort((a, b) => (dataClassKey(a.dataClass) < dataClassKey(b.dataClass) ? -1 : 1));
  return counts;
}

/** Builds the view rows of a window: one query for the accounts and their confirmed state, one for the outbox. */
function materialize(db: ReadableDB, rows: readonly [...BreachRow, ...unknown[]][], email: string | undefined): LocalBreach[] {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row[0]);
  const only = email === undefined ? undefined : emailKey(email);
  const accountsOf = new Map<string, AccountRow[]>();
  for (const account of accountRowsOf(db, ids)) {
    if (only !== undefined && account.email !== only) continue;
    const list = accountsOf.get(account.breachId);
    if (list) list.push(account);
    else accountsOf.set(account.breachId, [account]);
  }
  const intents = new Map<string, Map<string, { resolved: boolean; failed: boolean; local: boolean; reason: string | null; id: number }>>();
  for (const row of outboxRowsOfBreaches(db, ids)) {
    const pair = row.breachId + '\u0000' + row.email;
    let keys = intents.get(pair);
    if (!keys) intents.set(pair, (keys = new Map()));
    keys.set(row.classKey, { resolved: row.resolved, failed: row.state === 'failed', local: row.state === 'local', reason: row.failureReason, id: row.id });
  }
  let names: Map<number, string> | undefined;

  return rows.map(([id, domain, breachDate, addedDate, modifiedDate, dataClassesJson, isSensitive, classCodesText]) => {
    const dataClasses = JSON.parse(dataClassesJson) as string[];
    const classCodes = parseCodeList(classCodesText);
    let unresolved = 0;
    const breachedAccounts = (accountsOf.get(id) ?? []).map((account): LocalAccountState => {
      const confirmed = new Set(account.resolved);
      const wished = intents.get(id + '\u0000' + account.email);
      const state: LocalAccountState = { email: account.email, resolvedDataClasses: {}, pending: [], failed: [] };
      const shown = (code: number): { resolvedAt?: string } => (account.resolvedAt[code] !== undefined && confirmed.has(code) ? { resolvedAt: account.resolvedAt[code] } : {});
      dataClasses.forEach((name, index) => {
        const code = classCodes[index]!;
        const intent = wished?.get(dataClassKey(name));
        if (intent?.failed) state.failed.push({ dataClass: name, reason: intent.reason ?? '', outboxId: intent.id });
        else if (intent?.local) (state.localOnly ??= []).push(name);
        else if (intent) state.pending.push(name);
        if (intent ? intent.resolved : confirmed.has(code)) state.resolvedDataClasses[name] = shown(code);
        else unresolved++;
      });
      // A class the service reported resolved that the breach does not list (other servers): shown as the service said.
      for (const code of account.resolved) {
        if (classCodes.includes(code)) continue;
        names ??= dataClassNamesByCode(db);
        state.resolvedDataClasses[names.get(code) ?? String(code)] = shown(code);
      }
      return state;
    });
    return {
      breach: { id, domain, breachDate, addedDate, modifiedDate, dataClasses, isSensitive: isSensitive === 1 },
      breachedAccounts,
      unresolved,
    };
  });
}
