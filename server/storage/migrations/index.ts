import { initialSchemaSql } from './0010-initial-schema.ts';
import { sharedInstancesSql } from './0020-shared-instances.ts';
import { lookupQueueSql } from './0030-lookup-queue.ts';
import { catalogHistorySql } from './0040-catalog-history.ts';
import { rtdbInitialSql } from './0050-rtdb-initial.ts';
import { searchApiTokensAndIndexSql } from './0060-search-api-tokens-and-index.ts';
import { searchIndexDetailsFingerprintSql } from './0070-search-index-details-fingerprint.ts';
import { incrementalCatalogReadersSql } from './0080-incremental-catalog-readers.ts';
import { identityHashedIdsSql } from './0090-identity-hashed-ids.ts';
import { personEmailsSql } from './0100-person-emails.ts';
import { identityInteractionClientsSql } from './0110-identity-interaction-clients.ts';
import { lookupQueueOrderIndexesSql } from './0120-lookup-queue-order-indexes.ts';
import { exposuresByBreachSql } from './0130-exposures-by-breach.ts';

/**
 * The version tables of the layout released before this list: each component (breach store,
 * realtime database, search interface) had a list of its own and kept its version in its own
 * table. `schema_version` stays (it is this list's table, and the breach store's versions 10–40
 * are this list's 10–40); the other two are read once, on the upgrade, and dropped.
 */
export const LEGACY_VERSION_TABLES = ['rtdb_schema_version', 'search_schema_version'] as const;
export type LegacyVersionTable = (typeof LEGACY_VERSION_TABLES)[number];

export interface PostgresMigration {
  /** The schema version after this migration; numbers step by 10 so later fixes can slot in. */
  version: number;
  name: string;
  sql: string;
  /**
   * The migration of the previous layout this one is (same SQL): on the upgrade from that layout
   * it counts as applied when that table says its version was reached. Only released migrations
   * of the old layout have one; a migration written after it has none.
   */
  replaces?: { table: 'schema_version' | LegacyVersionTable; version: number };
}

/**
 * The one migration list of the PostgreSQL database, for every store in it, run once per start by
 * `openStorage` (server/openStorage.ts) before any store opens. Forward-only and
 * append-only: a released migration is never edited, only followed (a new file, the next
 * version). 50–70 are the realtime database's and the search interface's lists as released, in
 * their order, after the breach store's.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  { version: 10, name: 'initial-schema', sql: initialSchemaSql, replaces: { table: 'schema_version', version: 10 } },
  { version: 20, name: 'shared-instances', sql: sharedInstancesSql, replaces: { table: 'schema_version', version: 20 } },
  { version: 30, name: 'lookup-queue', sql: lookupQueueSql, replaces: { table: 'schema_version', version: 30 } },
  { version: 40, name: 'catalog-history', sql: catalogHistorySql, replaces: { table: 'schema_version', version: 40 } },
  { version: 50, name: 'rtdb-initial', sql: rtdbInitialSql, replaces: { table: 'rtdb_schema_version', version: 10 } },
  { version: 60, name: 'search-api-tokens-and-index', sql: searchApiTokensAndIndexSql, replaces: { table: 'search_schema_version', version: 10 } },
  { version: 70, name: 'search-index-details-fingerprint', sql: searchIndexDetailsFingerprintSql, replaces: { table: 'search_schema_version', version: 20 } },
  { version: 80, name: 'incremental-catalog-readers', sql: incrementalCatalogReadersSql },
  { version: 90, name: 'identity-hashed-ids', sql: identityHashedIdsSql },
  { version: 100, name: 'person-emails', sql: personEmailsSql },
  { version: 110, name: 'identity-interaction-clients', sql: identityInteractionClientsSql },
  { version: 120, name: 'lookup-queue-order-indexes', sql: lookupQueueOrderIndexesSql },
  { version: 130, name: 'exposures-by-breach', sql: exposuresByBreachSql },
];

export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;
