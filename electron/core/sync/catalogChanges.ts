import { CatalogChange, type CatalogOrigin } from '../../../shared/api/index.ts';
import type { CatalogNotice } from '../../../shared/ipc/views.ts';
import type { ReadableDB, WritableDB } from '../db/Interface.ts';
import { getSyncState, setSyncState } from '../db/syncStateQueries.ts';

/**
 * Keeps the service's catalog changes for this account until the person dismisses them. Changes
 * made before the account's first sync on this computer are taken as seen: they describe data the
 * person never saw here.
 */
export function recordCatalogChanges(db: WritableDB, changes: readonly CatalogChange[], firstSync: boolean): void {
  const newest = changes.reduce((max, change) => Math.max(max, change.id), 0);
  const seenText = getSyncState(db, 'catalogChangesSeen');
  if (firstSync && seenText === undefined) {
    setSyncState(db, 'catalogChangesSeen', String(newest));
    setSyncState(db, 'catalogChanges', undefined);
    return;
  }
  const seen = Number(seenText ?? 0);
  const unseen = changes.filter((change) => change.id > seen);
  setSyncState(db, 'catalogChanges', unseen.length > 0 ? JSON.stringify(unseen) : undefined);
}

/** The person dismissed the notice up to change `upTo`. */
export function dismissCatalogChanges(db: WritableDB, upTo: number): void {
  const seen = Math.max(Number(getSyncState(db, 'catalogChangesSeen') ?? 0), upTo);
  setSyncState(db, 'catalogChangesSeen', String(seen));
  const left = storedChanges(db).filter((change) => change.id > seen);
  setSyncState(db, 'catalogChanges', left.length > 0 ? JSON.stringify(left) : undefined);
}

/** What to tell the person, one sentence per change and address; undefined when nothing is new. */
export function catalogNoticeOf(db: ReadableDB): CatalogNotice | undefined {
  const changes = storedChanges(db);
  if (changes.length === 0) return undefined;
  return { upTo: Math.max(...changes.map((change) => change.id)), lines: changes.map(describeChange) };
}

/** Breach id → when it left the service's catalog, from the last snapshot. */
export function removedFromCatalog(db: ReadableDB): Map<string, string> {
  const text = getSyncState(db, 'removedFromCatalog');
  return new Map(text ? (JSON.parse(text) as [string, string][]) : []);
}

const CATALOG_NAMES: Record<CatalogOrigin, string> = {
  demo: 'the demo catalog',
  hibp: 'Have I Been Pwned’s catalog',
  file: 'a catalog file',
};

export function describeChange(change: CatalogChange): string {
  const switched = change.from !== null && change.from !== change.to ? `The service switched from ${CATALOG_NAMES[change.from]} to ${CATALOG_NAMES[change.to]}` : 'The service’s catalog changed';
  const parts: string[] = [];
  const removed = change.removedFromCatalog.length;
  if (removed > 0)
    parts.push(
      `${count(removed, 'breach', 'breaches')} of ${change.email} ${removed === 1 ? 'was' : 'were'} removed from the catalog; ${removed === 1 ? 'it stays' : 'they stay'} in your list, marked “Removed from the catalog”, and your resolutions are kept${change.resolutionsKept > 0 ? ` (${count(change.resolutionsKept, 'resolved data class', 'resolved data classes')})` : ''}`,
    );
  const invented = change.inventedRemoved.length;
  if (invented > 0)
    parts.push(
      `${count(invented, 'invented demo breach', 'invented demo breaches')} of ${change.email} ${invented === 1 ? 'was' : 'were'} removed because the service now uses real breach data${change.resolutionsRemoved > 0 ? `, with ${count(change.resolutionsRemoved, 'resolution', 'resolutions')} made on ${invented === 1 ? 'it' : 'them'}` : ''}`,
    );
  return `${switched}: ${parts.join('; ')}.`;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function storedChanges(db: ReadableDB): CatalogChange[] {
  const text = getSyncState(db, 'catalogChanges');
  if (!text) return [];
  const parsed = CatalogChange.array().safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : [];
}
