import { Breach, CatalogOrigin, type CatalogChange } from '../../shared/api/index.ts';
import type { Account, RemovedBreach } from './BreachStore.ts';

// How the breach store's rows become the contract's objects, and the copies callers get: one
// place for both dialects (SQLite's rows carry JSON text and 0/1 where PostgreSQL's carry values).

/** A `breaches` row's columns as values (as PostgreSQL returns them). */
export interface BreachColumns {
  id: string;
  domain: string;
  breach_date: string;
  added_date: string;
  modified_date: string;
  data_classes: string[];
  is_sensitive: boolean;
}

/** A `breaches` row as SQLite returns it (data classes as JSON text, the flag as 0/1). */
export interface BreachRow extends Omit<BreachColumns, 'data_classes' | 'is_sensitive'> {
  data_classes: string;
  is_sensitive: number;
}

export function toBreachColumns(breach: Breach): BreachColumns {
  return {
    id: breach.id,
    domain: breach.domain,
    breach_date: breach.breachDate,
    added_date: breach.addedDate,
    modified_date: breach.modifiedDate,
    data_classes: breach.dataClasses,
    is_sensitive: breach.isSensitive,
  };
}

export function fromBreachColumns(row: BreachColumns): Breach {
  return {
    id: row.id,
    domain: row.domain,
    breachDate: row.breach_date,
    addedDate: row.added_date,
    modifiedDate: row.modified_date,
    dataClasses: row.data_classes,
    isSensitive: row.is_sensitive,
  };
}

export function toBreachRow(breach: Breach): BreachRow {
  return { ...toBreachColumns(breach), data_classes: JSON.stringify(breach.dataClasses), is_sensitive: breach.isSensitive ? 1 : 0 };
}

export function fromBreachRow(row: BreachRow): Breach {
  return fromBreachColumns({ ...row, data_classes: JSON.parse(row.data_classes) as string[], is_sensitive: row.is_sensitive === 1 });
}

/** Callers get their own copy: the store's cached catalog must not change under it. */
export function copyBreach(breach: Breach): Breach {
  return { ...breach, dataClasses: [...breach.dataClasses] };
}

/** Callers get their own copy of a remembered account. */
export function copyAccount(account: Account): Account {
  return { sub: account.sub, emails: [...account.emails], deleted: account.deleted };
}

/** A `removed_breaches` row (`breach` as parsed JSON) as an entry of {@link CatalogSnapshot.removed}. */
export function removedBreachOf(id: string, breach: unknown, removedAt: string): [string, RemovedBreach] {
  return [id, { breach: Breach.parse(breach), removedAt }];
}

/** The catalog as last read, kept with the revision it was read at. */
export interface CatalogSnapshot<Revision> {
  revision: Revision;
  breaches: Breach[];
  byId: Map<string, Breach>;
  /** Breaches that left the catalog (written only with a catalog revision, so cached with it). */
  removed: Map<string, RemovedBreach>;
}

/** `breaches` in the order the database lists them, with the index by id. */
export function catalogSnapshot<Revision>(revision: Revision, breaches: Breach[], removed: Iterable<[string, RemovedBreach]>): CatalogSnapshot<Revision> {
  return { revision, breaches, byId: new Map(breaches.map((b) => [b.id, b])), removed: new Map(removed) };
}

/** Callers get their own copy of the removed breaches. */
export function copyRemovedBreaches(removed: ReadonlyMap<string, RemovedBreach>): Map<string, RemovedBreach> {
  return new Map([...removed].map(([id, entry]) => [id, { breach: copyBreach(entry.breach), removedAt: entry.removedAt }]));
}

/** A `catalog_changes` row with its lists as values (SQLite parses its JSON text first). */
export interface CatalogChangeColumns {
  id: number | string;
  at: string;
  email: string;
  from_catalog: string | null;
  to_catalog: string;
  removed: string[];
  invented_removed: string[];
  resolutions_kept: number;
  resolutions_removed: number;
}

export function fromCatalogChangeColumns(row: CatalogChangeColumns): CatalogChange {
  return {
    id: Number(row.id),
    at: row.at,
    email: row.email,
    from: row.from_catalog === null ? null : CatalogOrigin.parse(row.from_catalog),
    to: CatalogOrigin.parse(row.to_catalog),
    removedFromCatalog: row.removed,
    inventedRemoved: row.invented_removed,
    resolutionsKept: row.resolutions_kept,
    resolutionsRemoved: row.resolutions_removed,
  };
}
