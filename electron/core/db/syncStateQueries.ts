import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/** What sync remembers between runs. */
/** `newBreachIds`: JSON array of the breaches the latest sync that brought any found new (the list's "New" marks). */
export type SyncStateKey = 'etag' | 'baselineAt' | 'lastPullAt' | 'lastSyncAt' | 'newBreachIds';

export function getSyncState(db: ReadableDB, key: SyncStateKey): string | undefined {
  return statement(db, 'SELECT value FROM sync_state WHERE key = ?').pluck().get(key) as string | undefined;
}

export function setSyncState(db: WritableDB, key: SyncStateKey, value: string | undefined): void {
  if (value === undefined) statement(db, 'DELETE FROM sync_state WHERE key = ?').run(key);
  else statement(db, 'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
