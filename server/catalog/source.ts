import { readFileSync } from 'node:fs';
import { Breach } from '../../shared/api/index.ts';
import type { CatalogDetails } from '../../shared/catalog/index.ts';
import { demoBreachDetails } from './demoDetails.ts';
import { loadHibpCatalog, parseHibpCatalog, type HibpSkipReason, type RejectedRecord } from './hibp.ts';

/**
 * Where the service's catalog comes from, and everything it holds: the breach-alert records
 * and the details feed (`catalog/breaches` of the realtime database).
 *
 * Simple on purpose, for readers such as search indexing: `loadCatalogSource(file)` gives the
 * breaches, their details keyed by id (title, description, …) and a report of what was left out.
 */
export interface CatalogSource {
  /** `file` for `--catalog`, `demo` for the generated demo catalog, `hibp` for Have I Been Pwned's `GET breaches`. */
  origin: 'file' | 'demo' | 'hibp';
  file: string | undefined;
  /** The breach-alert catalog, ordered by id. */
  breaches: Breach[];
  /** Details of every record of the source, including the ones left out of `breaches`. */
  details: CatalogDetails;
  /** Records in the source. */
  total: number;
  /** Records left out of the breach-alert catalog, with the reason. */
  skipped: { id: string; reason: HibpSkipReason }[];
  /** Records of HIBP's answer left out because they are not valid (see `parseHibpCatalog`'s lenient reading). */
  rejected?: RejectedRecord[];
}

export const DEMO_CATALOG_URL = new URL('../../resources/demo-catalog.json', import.meta.url);

/** A Have I Been Pwned catalog file (`--catalog`); throws `HibpCatalogError` naming the bad record. */
export function loadCatalogFile(file: string): CatalogSource {
  const imported = loadHibpCatalog(file);
  return { origin: 'file', file, breaches: imported.breaches, details: imported.details, total: imported.total, skipped: imported.skippedBreaches };
}

/** The committed demo catalog with generated details (see `demoBreachDetails`). */
export function loadDemoCatalog(): CatalogSource {
  const breaches = Breach.array().parse(JSON.parse(readFileSync(DEMO_CATALOG_URL, 'utf8')));
  return { origin: 'demo', file: undefined, breaches, details: demoDetailsFor(breaches), total: breaches.length, skipped: [] };
}

/**
 * Have I Been Pwned's `GET breaches` answer, read leniently: a record that is not valid is left
 * out and listed in `rejected`; throws `HibpCatalogError` only when the answer is not an array.
 */
export function hibpCatalogSource(json: unknown): CatalogSource {
  const imported = parseHibpCatalog(json, { lenient: true });
  return { origin: 'hibp', file: undefined, breaches: imported.breaches, details: imported.details, total: imported.total, skipped: imported.skippedBreaches, rejected: imported.rejected };
}

export function loadCatalogSource(file?: string): CatalogSource {
  return file ? loadCatalogFile(file) : loadDemoCatalog();
}

/** Generated details for breaches that have none from a file (demo catalog, `/__dev/breaches`). */
export function demoDetailsFor(breaches: readonly Breach[]): CatalogDetails {
  return Object.fromEntries(breaches.map((breach) => [breach.id, demoBreachDetails(breach)]));
}

const REASON_TEXT: Record<HibpSkipReason, string> = {
  retired: 'retired by the source',
  fabricated: 'fabricated data',
  spamList: 'a spam list',
};

/** What changed when a catalog was loaded over the stored one: for the start-up report. */
export interface CatalogLoadReport {
  origin: CatalogSource['origin'];
  file: string | undefined;
  total: number;
  kept: number;
  skipped: CatalogSource['skipped'];
  /** Breaches the stored catalog had and the new one lacks (people's resolutions for them are kept). */
  removed: string[];
  added: number;
  /** The catalog the store already held, kept until Have I Been Pwned's is fetched (a start without a file or demo data). */
  stored?: boolean;
}

export function compareCatalogs(previousIds: readonly string[], source: CatalogSource): CatalogLoadReport {
  const next = new Set(source.breaches.map((breach) => breach.id));
  const before = new Set(previousIds);
  return {
    origin: source.origin,
    file: source.file,
    total: source.total,
    kept: source.breaches.length,
    skipped: source.skipped,
    removed: previousIds.filter((id) => !next.has(id)).sort(),
    added: source.breaches.filter((breach) => !before.has(breach.id)).length,
  };
}

/** Removed breaches named in the start-up report before "and N more". */
const MAX_NAMED = 10;

/** Human lines of a report, e.g. "left out 21 of 834 records: 2 retired by the source (A, B); …". */
export function describeCatalogLoad(report: CatalogLoadReport): string[] {
  const lines: string[] = [];
  const named = report.file ? `catalog ${report.file}` : report.origin === 'hibp' ? 'Have I Been Pwned catalog' : 'demo catalog';
  const where = report.stored ? `stored ${named} (until Have I Been Pwned's is fetched)` : named;
  lines.push(`${where}: ${report.kept} of ${report.total} records in the breach-alert catalog (${report.added} new)`);
  if (report.skipped.length > 0) {
    const groups = new Map<HibpSkipReason, string[]>();
    for (const { id, reason } of report.skipped) groups.set(reason, [...(groups.get(reason) ?? []), id]);
    const parts = [...groups].map(([reason, ids]) => `${ids.length} ${REASON_TEXT[reason]} (${ids.join(', ')})`);
    lines.push(`left out ${report.skipped.length} of ${report.total} records: ${parts.join('; ')}; their details stay in the details feed`);
  }
  if (report.removed.length > 0) {
    const named = report.removed.length > MAX_NAMED ? `${report.removed.slice(0, MAX_NAMED).join(', ')} and ${report.removed.length - MAX_NAMED} more` : report.removed.join(', ');
    lines.push(
      `${report.removed.length} breach${report.removed.length === 1 ? ' is' : 'es are'} no longer in the catalog: ${named}; they stay in the accounts exposed to them, marked removed, with their resolutions, and each account's catalog changes say so`,
    );
  }
  return lines;
}
