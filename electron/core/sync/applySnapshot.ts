import { dataClassKey, emailKey, type Breach } from '../../../shared/api/index.ts';
import type { ServerUserBreach } from '../api/BreachAlertClient.ts';
import { breachVersions, clearServerState, goneAmong, markGone, snapshotWriter } from '../db/breachQueries.ts';
import { codeList, unresolvedCodesOf, type ClassRef } from '../db/codeLists.ts';
import { ensureDataClassCode, loadDataClassCodes } from '../db/dataClassCodes.ts';
import type { WritableDB } from '../db/Interface.ts';
import { allIntents } from '../db/outboxQueries.ts';
import { getSyncState, setSyncState } from '../db/syncStateQueries.ts';
import { diffSnapshot, instant, type SnapshotDiff } from './diff.ts';

export interface Snapshot {
  items: readonly ServerUserBreach[];
  etag: string | undefined;
}

/**
 * Replaces the account's server state with a snapshot of `GET /user/breaches`, in one
 * transaction: the breaches, who they affect, what the service says is resolved, the ETag and
 * the overlay columns (computed here against the outbox, which the snapshot never touches).
 * Returns what changed since the previous snapshot.
 *
 * Tolerant of servers that differ from ours (CONTRACT.md): emails and data class names in any
 * case, duplicates, resolved names the breach does not list (kept, but they resolve nothing).
 */
export function applySnapshot(db: WritableDB, snapshot: Snapshot, now: Date = new Date()): SnapshotDiff {
  return db.transaction(() => write(db, snapshot, now.toISOString())).immediate();
}

function write(db: WritableDB, snapshot: Snapshot, now: string): SnapshotDiff {
  const previous = breachVersions(db);
  const baseline = getSyncState(db, 'baselineAt') === undefined;
  const codes = loadDataClassCodes(db);
  const intents = allIntents(db);
  clearServerState(db);
  const insert = snapshotWriter(db);

  // Names and emails repeat across thousands of rows: normalize each distinct one once.
  const classKeys = new Map<string, string>();
  const keyOf = (name: string): string => {
    let key = classKeys.get(name);
    if (key === undefined) classKeys.set(name, (key = dataClassKey(name)));
    return key;
  };
  const emailKeys = new Map<string, string>();
  const emailOf = (email: string): string => {
    let key = emailKeys.get(email);
    if (key === undefined) emailKeys.set(email, (key = emailKey(email)));
    return key;
  };

  const breaches: Breach[] = [];
  const ids = new Set<string>();
  for (const item of snapshot.items) {
    const served = item.breach;
    if (ids.has(served.id)) continue;
    ids.add(served.id);

    const classes: ClassRef[] = [];
    const spelling = new Map<string, string>();
    for (const name of served.dataClasses) {
      const key = keyOf(name);
      if (key === '' || spelling.has(key)) continue;
      spelling.set(key, name);
      classes.push({ key, code: ensureDataClassCode(db, codes, key, name) });
    }
    const dataClasses = classes.length === served.dataClasses.length ? served.dataClasses : [...spelling.values()];
    const classCodes = codeList(classes.map((c) => c.code));

    const byEmail = intents.get(served.id);
    let unresolvedAnywhere: Set<number> | undefined;
    let allUnresolvedSomewhere = false;
    let unresolvedCount = 0;
    const emails = new Set<string>();
    for (const account of item.breachedAccounts) {
      const email = emailOf(account.email);
      if (email === '' || emails.has(email)) continue;
      emails.add(email);
      let confirmed: Set<string> | undefined;
      for (const name in account.resolvedDataClasses) {
        const key = keyOf(name);
        if (key === '' || confirmed?.has(key)) continue;
        (confirmed ??= new Set()).add(key);
        insert.resolution({ breachId: served.id, email, classKey: key, dataClass: spelling.get(key) ?? name, resolvedAt: account.resolvedDataClasses[name]!.resolvedAt ?? null });
      }
      const wished = byEmail?.get(email);
      // The common case, nothing resolved and nothing pending for this account, needs no per-class work.
      if (confirmed === undefined && wished === undefined) {
        allUnresolvedSomewhere = true;
        unresolvedCount += classes.length;
        insert.account({ breachId: served.id, email, unresolvedCodes: classCodes, unresolvedCount: classes.length });
        continue;
      }
      const unresolved = unresolvedCodesOf(classes, confirmed, wished);
      if (unresolved.length === classes.length) allUnresolvedSomewhere = true;
      else for (const code of unresolved) (unresolvedAnywhere ??= new Set()).add(code);
      unresolvedCount += unresolved.length;
      insert.account({ breachId: served.id, email, unresolvedCodes: codeList(unresolved), unresolvedCount: unresolved.length });
    }

    const breach: Breach = dataClasses === served.dataClasses ? served : { ...served, dataClasses };
    breaches.push(breach);
    insert.breach({
      id: served.id,
      domain: served.domain,
      breachDate: served.breachDate,
      addedDate: served.addedDate,
      addedAt: instant(served.addedDate),
      modifiedDate: served.modifiedDate,
      dataClasses,
      classCodes,
      isSensitive: served.isSensitive,
      unresolvedCodes: allUnresolvedSomewhere ? classCodes : codeList(classes.filter((c) => unresolvedAnywhere?.has(c.code)).map((c) => c.code)),
      unresolvedCount,
    });
  }

  const arrived = baseline ? [] : [...ids].filter((id) => !previous.has(id));
  const diff = diffSnapshot(previous, breaches, goneAmong(db, arrived), baseline);
  markGone(db, diff.goneBreaches, now);
  setSyncState(db, 'etag', snapshot.etag);
  setSyncState(db, 'lastPullAt', now);
  if (baseline) setSyncState(db, 'baselineAt', now);
  return diff;
}
