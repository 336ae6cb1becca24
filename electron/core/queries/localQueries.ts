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
 * per-email view every figure is about that email alone. Read from the overlay columns with two
 * aggregate statements: SQLite concatenates the matching rows' code lists into one string per
 * statement (per email for accounts), so a count over thousands of breaches hands a few dozen
 * values to JavaScript instead of a row per breach and per account, and one pass over those
 * strings tallies the classes.
 */
export function countBreaches(db: ReadableDB, input: LocalBreachQueryInput = {}): LocalCounts {
  const query = LocalBreachQuery.parse(input);
  const filter = buildFilter(db, query);
  const counts: LocalCounts = { breaches: 0, unresolvedBreaches: 0, byEmail: [], byDataClass: [] };
  if (filter.empty) return counts;
  const perEmail = query.email !== undefined;
  // Over the matching breaches: how many, how many with something unresolved (for the one email
  // in the per-email view), and their class lists and unresolved lists end to end (`,3,17,,5,`).
  const unresolved = `${perEmail ? 'a' : 'b'}.unresolved_codes`;
  const [breaches, unresolvedBreaches, classCodes, unresolvedCodes] = dynamicStatement(
    db,
    `SELECT count(*), coalesce(sum(length(${unresolved}) > 1), 0), coalesce(group_concat(b.class_codes, ''), ''), coalesce(group_concat(${unresolved}, ''), '') FROM ${filter.from} WHERE ${filter.where}`,
  )
    .raw()
    .get(...filter.params) as [number, number, string, string];
  // Per email over the matching (breach, email) pairs: the same, plus the unresolved (email, class) pairs.
  const accounts = (
    perEmail
      ? dynamicStatement(
          db,
          `SELECT a.email, count(*), sum(a.unresolved_count > 0), sum(a.unresolved_count), group_concat(a.unresolved_codes, '') FROM ${filter.from} WHERE ${filter.where} GROUP BY a.email`,
        )
      : dynamicStatement(
          db,
          `SELECT x.email, count(*), sum(x.unresolved_count > 0), sum(x.unresolved_count), group_concat(x.unresolved_codes, '') FROM breached_accounts AS x JOIN ${filter.from} ON b.key = x.breach_key WHERE ${filter.where} GROUP BY x.email`,
        )
  )
    .raw()
    .all(...filter.params) as [string, number, number, number, string][];

  const names = dataClassNamesByCode(db);
  const size = Math.max(0, ...names.keys()) + 1;
  const classBreaches = new Int32Array(size);
  const classUnresolvedBreaches = new Int32Array(size);
  const classUnresolvedAccounts = new Int32Array(size);
  forEachCode(classCodes, (code) => void classBreaches[code]!++);
  forEachCode(unresolvedCodes, (code) => void classUnresolvedBreaches[code]!++);
  counts.breaches = breaches;
  counts.unresolvedBreaches = unresolvedBreaches;

  const tallyUnresolvedAccount = (code: number) => void classUnresolvedAccounts[code]!++;
  for (const [email, total, unresolvedPairs, unresolvedClasses, codes] of accounts) {
    counts.byEmail.push({ email, breaches: total, unresolvedBreaches: unresolvedPairs, unresolvedDataClasses: unresolvedClasses });
    forEachCode(codes, tallyUnresolvedAccount);
  }
  counts.byEmail.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
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
      // No prototype: a class named `__proto__` or `constructor` is a key like any other.
      const state: LocalAccountState = { email: account.email, resolvedDataClasses: Object.create(null) as LocalAccountState['resolvedDataClasses'], pending: [], failed: [] };
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
