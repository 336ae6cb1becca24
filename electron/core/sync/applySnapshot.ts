import { dataClassKey, emailKey, type Breach } from '../../../shared/api/index.ts';
import type { ServerUserBreach } from '../api/BreachAlertClient.ts';
import { breachVersions, clearServerState, goneAmong, markGone, snapshotWriter } from '../db/breachQueries.ts';
import { codeList, unresolvedCodesOf, type ClassRef } from '../db/codeLists.ts';
import { ensureDataClassCode, loadDataClassCodes } from '../db/dataClassCodes.ts';
import { relaxedDurability, type WritableDB } from '../db/Interface.ts';
import { allIntents } from '../db/outboxQueries.ts';
import { addressesCheckedBefore, recordListHeaders, type BreachDataHeaderValues } from '../db/breachDataQueries.ts';
import { getSyncState, setSyncState } from '../db/syncStateQueries.ts';
import { diffSnapshot, instant, type SnapshotDiff } from './diff.ts';

/** A class as the snapshot writes it, with its name's JSON. */
interface NamedClassRef extends ClassRef {
  json: string;
}

export interface Snapshot {
  items: readonly ServerUserBreach[];
  etag: string | undefined;
  /** The answer's `breach-data` / `breach-checks-pending` headers, recorded in the same transaction. */
  breachData?: BreachDataHeaderValues;
}

/**
 * Replaces the account's server state with a snapshot of `GET /user/breaches`, in one
 * transaction: the breaches, who they affect and what the service says is resolved, the ETag,
 * and the overlay columns (computed here against the outbox, which the snapshot never touches).
 * Returns what changed since the previous snapshot. `andThen` writes what goes with the snapshot
 * (the answers that followed it) in the same transaction, after it.
 *
 * Tolerant of servers that differ from ours (CONTRACT.md): emails and data class names in any
 * case, duplicates, resolved names the breach does not list (kept, but they resolve nothing),
 * no `resolvedAt`.
 */
export function applySnapshot(db: WritableDB, snapshot: Snapshot, now: Date = new Date(), andThen?: (written: SnapshotWritten) => void): SnapshotDiff {
  // A snapshot lost to a power cut is simply pulled again (its ETag rolls back with it).
  return relaxedDurability(db, () =>
    db
      .transaction(() => {
        const written = write(db, snapshot, now.toISOString());
        andThen?.(written);
        return written.diff;
      })
      .immediate(),
  );
}

/** What a snapshot wrote: the diff, and how many of its breaches name each (email-keyed) address. */
export interface SnapshotWritten {
  diff: SnapshotDiff;
  accountsPerEmail: ReadonlyMap<string, number>;
}

function write(db: WritableDB, snapshot: Snapshot, now: string): SnapshotWritten {
  // First: a move from demo to real data removes the invented breaches, so this snapshot is a new baseline.
  const { demoCleared } = snapshot.breachData ? recordListHeaders(db, snapshot.breachData, now) : { demoCleared: 0 };
  const baseline = getSyncState(db, 'baselineAt') === undefined;
  // The first snapshot is compared with nothing (it announces nothing), so it reads nothing to compare with.
  const previous = baseline ? new Map<string, string>() : breachVersions(db);
  // What the service had checked before this answer: a breach found by an address's first check is not news.
  const checkedBefore = baseline ? undefined : addressesCheckedBefore(db);
  const firstChecks = new Set<string>();
  const codes = loadDataClassCodes(db);
  const intents = allIntents(db);
  clearServerState(db);
  const insert = snapshotWriter(db);

  // Names and emails repeat across thousands of rows: work each distinct one out once (a
  // name's JSON too, from which each breach's list of names is joined).
  const classRefs = new Map<string, NamedClassRef | null>();
  const classRefOf = (name: string): NamedClassRef | null => {
    let ref = classRefs.get(name);
    if (ref === undefined) {
      const key = dataClassKey(name);
      ref = key === '' ? null : { key, code: ensureDataClassCode(db, codes, key, name), json: JSON.stringify(name) };
      classRefs.set(name, ref);
    }
    return ref;
  };
  const emailKeys = new Map<string, string>();
  const emailOf = (email: string): string => {
    let key = emailKeys.get(email);
    if (key === undefined) emailKeys.set(email, (key = emailKey(email)));
    return key;
  };
  const accountsPerEmail = new Map<string, number>();

  const breaches: Breach[] = [];
  const ids = new Set<string>();
  const removedFromCatalog = new Map<string, string>();
  for (const item of snapshot.items) {
    const served = item.breach;
    if (ids.has(served.id)) continue;
    ids.add(served.id);
    if (item.removedFromCatalogAt !== undefined) removedFromCatalog.set(served.id, item.removedFromCatalogAt);
    const classes: ClassRef[] = [];
    const names: string[] = [];
    let classCodes = ',';
    let dataClassesJson = '';
    for (const name of served.dataClasses) {
      const ref = classRefOf(name);
      if (ref === null || classes.some((c) => c.code === ref.code)) continue;
      classes.push(ref);
      names.push(name);
      classCodes += `${ref.code},`;
      dataClassesJson += dataClassesJson === '' ? ref.json : `,${ref.json}`;
    }
    const dataClasses = names.length === served.dataClasses.length ? served.dataClasses : names;

    const breachKey = ids.size;
    if (checkedBefore && !item.breachedAccounts.some((account) => checkedBefore.has(account.email))) firstChecks.add(served.id);
    const byEmail = intents.get(served.id);
    let unresolvedAnywhere: Set<number> | undefined;
    let allUnresolvedSomewhere = false;
    let unresolvedCount = 0;
    const emails: string[] = [];
    for (const account of item.breachedAccounts) {
      const email = emailOf(account.email);
      if (email === '' || emails.includes(email)) continue;
      emails.push(email);
      accountsPerEmail.set(email, (accountsPerEmail.get(email) ?? 0) + 1);
      let confirmed: Set<number> | undefined;
      let times: Record<number, string> | undefined;
      for (const name in account.resolvedDataClasses) {
        const ref = classRefOf(name);
        if (ref === null) continue;
        (confirmed ??= new Set()).add(ref.code);
        const at = account.resolvedDataClasses[name]!.resolvedAt;
        if (at !== undefined) (times ??= {})[ref.code] = at;
      }
      const resolvedCodes = confirmed ? codeList(confirmed) : ',';
      const resolvedAt = times ? JSON.stringify(times) : null;
      const wished = byEmail?.get(email);
      // The common case, nothing resolved and nothing pending for this account, needs no per-class work.
      if (confirmed === undefined && wished === undefined) {
        allUnresolvedSomewhere = true;
        unresolvedCount += classes.length;
        insert.plainAccount(breachKey, email, classCodes, classes.length);
        continue;
      }
      const unresolved = unresolvedCodesOf(classes, confirmed, wished);
      if (unresolved.length === classes.length) allUnresolvedSomewhere = true;
      else for (const code of unresolved) (unresolvedAnywhere ??= new Set()).add(code);
      unresolvedCount += unresolved.length;
      insert.account({ breachKey, email, resolvedCodes, resolvedAt, unresolvedCodes: codeList(unresolved), unresolvedCount: unresolved.length });
    }

    // The first snapshot announces nothing, so it keeps no list for the diff.
    if (!baseline) breaches.push(dataClasses === served.dataClasses ? served : { ...served, dataClasses });
    insert.breach({
      key: breachKey,
      id: served.id,
      domain: served.domain,
      breachDate: served.breachDate,
      addedDate: served.addedDate,
      addedAt: instant(served.addedDate),
      modifiedDate: served.modifiedDate,
      // JSON.stringify(dataClasses), joined from the names' own JSON.
      dataClassesJson: `[${dataClassesJson}]`,
      classCodes,
      isSensitive: served.isSensitive,
      unresolvedCodes: allUnresolvedSomewhere ? classCodes : codeList(classes.filter((c) => unresolvedAnywhere?.has(c.code)).map((c) => c.code)),
      unresolvedCount,
    });
  }

  insert.flush();
  const arrived = baseline ? [] : [...ids].filter((id) => !previous.has(id));
  const seenBefore = goneAmong(db, arrived);
  // Found by a first check: treated as seen before, so neither marked new nor announced.
  for (const id of firstChecks) seenBefore.add(id);
  const diff = diffSnapshot(previous, breaches, seenBefore, baseline);
  markGone(db, diff.goneBreaches, now);
  setSyncState(db, 'etag', snapshot.etag);
  setSyncState(db, 'removedFromCatalog', removedFromCatalog.size > 0 ? JSON.stringify([...removedFromCatalog]) : undefined);
  setSyncState(db, 'lastPullAt', now);
  // The pull is the last step of a sync: recording it here saves a commit.
  setSyncState(db, 'lastSyncAt', now);
  if (baseline) setSyncState(db, 'baselineAt', now);
  return { diff: demoCleared ? { ...diff, demoCleared } : diff, accountsPerEmail };
}
