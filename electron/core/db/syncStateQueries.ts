import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/** What sync remembers between runs. */
/**
 * `newBreachIds`: JSON array of the breaches the latest sync that brought any found new (the list's "New" marks).
 * `removedFromCatalog`: JSON object, breach id → when it left the service's catalog (the snapshot's marks).
 * `catalogChanges`: JSON array of the service's catalog changes for this account not yet dismissed;
 * `catalogChangesSeen`: the id of the last one the person dismissed (or that predates the first sync).
 * `listPending`: how many addresses the local list leaves out, as its last answer's `breach-checks-pending` said.
 * `checksVersion` / `catalogChangesVersion`: the version (`breach-checks-version`, `breach-catalog-changes-version`)
 * of the checks and catalog changes recorded last; a list whose headers name the same needs neither asked again.
 */
export type SyncStateKey =
  'etag' | 'baselineAt' | 'lastPullAt' | 'lastSyncAt' | 'newBreachIds' | 'removedFromCatalog' | 'catalogChanges' | 'catalogChangesSeen' | 'listPending' | 'checksVersion' | 'catalogChangesVersion';

export function getSyncState(db: ReadableDB, key: SyncStateKey): string | undefined {
  return statement(db, 'SELECT value FROM sync_state WHERE key = ?').pluck().get(key) as string | undefined;
}

export function setSyncState(db: WritableDB, key: SyncStateKey, value: string | undefined): void {
  if (value === undefined) statement(db, 'DELETE FROM sync_state WHERE key = ?').run(key);
  else statement(db, 'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
