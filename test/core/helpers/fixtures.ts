import { afterEach } from 'vitest';
import type { ServerUserBreach } from '../../../electron/core/api/BreachAlertClient.ts';
import type { WritableDB } from '../../../electron/core/db/Interface.ts';
import { openAccountDatabase, type AccountDatabase } from '../../../electron/core/db/openAccountDatabase.ts';
import { applySnapshot } from '../../../electron/core/sync/applySnapshot.ts';
import type { SnapshotDiff } from '../../../electron/core/sync/diff.ts';

const opened: AccountDatabase[] = [];
afterEach(() => {
  for (const database of opened.splice(0)) database.close();
});

/** A fresh in-memory account database, closed after the test. */
export function memoryDatabase(): WritableDB {
  const database = openAccountDatabase(':memory:');
  opened.push(database);
  return database.db;
}

/** Clock frozen for every test that writes timestamps. */
export const FROZEN_NOW = new Date('2026-02-14T09:30:00Z');

export interface ItemSpec {
  id: string;
  domain?: string;
  breachDate?: string;
  addedDate?: string;
  modifiedDate?: string;
  dataClasses?: string[];
  isSensitive?: boolean;
  /** email → resolved class names */
  accounts: Record<string, string[]>;
}

/** A `GET /user/breaches` item as the client hands it over. */
export function item(spec: ItemSpec): ServerUserBreach {
  return {
    breach: {
      id: spec.id,
      domain: spec.domain ?? `${spec.id.toLowerCase()}.example`,
      breachDate: spec.breachDate ?? '2020-01-01',
      addedDate: spec.addedDate ?? '2020-02-01T10:00:00Z',
      modifiedDate: spec.modifiedDate ?? spec.addedDate ?? '2020-02-01T10:00:00Z',
      dataClasses: spec.dataClasses ?? ['Email addresses', 'Passwords'],
      isSensitive: spec.isSensitive ?? false,
    },
    breachedAccounts: Object.entries(spec.accounts).map(([email, resolved]) => ({
      email,
      resolvedDataClasses: Object.fromEntries(resolved.map((name) => [name, { resolvedAt: '2025-01-01T00:00:00Z' }])),
    })),
  };
}

export function snapshot(db: WritableDB, items: ServerUserBreach[], etag = '"v1"', now = FROZEN_NOW): SnapshotDiff {
  return applySnapshot(db, { items, etag }, now);
}
