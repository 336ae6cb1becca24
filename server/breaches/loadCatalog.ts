import type { CatalogOrigin } from '../../shared/api/index.ts';
import type { CatalogDetails } from '../../shared/catalog/index.ts';
import type { Logger } from '../log.ts';
import type { BreachStore, LoadedCatalog } from './BreachStore.ts';
import { compareCatalogs, demoDetailsFor, describeCatalogLoad, loadCatalogFile, loadDemoCatalog, type CatalogLoadReport } from '../catalog/source.ts';

export interface LoadCatalogOptions {
  store: BreachStore;
  /** Rewrites the details feed (`catalog/breaches` of the realtime database) in one transaction; null empties it. */
  writeDetails: (details: CatalogDetails | null) => Promise<void>;
  catalogFile: string | undefined;
  /** Exposures are invented (`--demo`, or `--dev` without a key). */
  demo: boolean;
  logger: Logger;
  now: () => Date;
}

/**
 * The catalog at start. A `--catalog` file is authoritative at every start. Demo mode without a
 * file loads the demo catalog unless it is the one stored (breaches added through the development
 * surface stay). Without either, the stored catalog stays until Have I Been Pwned's is fetched
 * (server/hibp), unless it is the invented demo one, which is removed.
 *
 * People's history survives every switch: a breach that leaves the catalog stays in the accounts
 * exposed to it (marked removed, resolutions kept), and each of those addresses gets a record of
 * the change. Outside demo mode, invented exposures are removed first, with their resolutions and
 * a record per address: real data never inherits invented data (docs/decisions/0181-invented-exposures-never-pass-real.md).
 */
export async function loadCatalog(options: LoadCatalogOptions): Promise<CatalogLoadReport> {
  const { store, writeDetails, catalogFile, demo, logger } = options;
  const at = options.now().toISOString();
  const previousIds = (await store.listBreaches()).map((breach) => breach.id);
  const loaded = (await store.loadedCatalog()) ?? inferLoaded(previousIds);

  if (!demo) {
    const to: CatalogOrigin = catalogFile ? 'file' : 'hibp';
    const cleared = await store.removeInventedExposures({ at, to });
    if (cleared.length > 0)
      logger.warn(
        { addresses: cleared.length },
        `${cleared.length} address${cleared.length === 1 ? '' : 'es'} had invented (demo) exposures from a --demo or --dev run; they are removed with their resolutions, and each address's catalog changes say so`,
      );
  }

  let report: CatalogLoadReport;
  if (catalogFile) {
    const source = loadCatalogFile(catalogFile);
    await store.replaceCatalog(source.breaches, { origin: 'file', file: catalogFile, at });
    await writeDetails(source.details);
    report = compareCatalogs(previousIds, source);
  } else if (demo) {
    const demoCatalog = loadDemoCatalog();
    if (loaded?.origin !== 'demo' || previousIds.length === 0) await store.replaceCatalog(demoCatalog.breaches, { origin: 'demo', file: null, at });
    const breaches = await store.listBreaches();
    await writeDetails(demoDetailsFor(breaches));
    report = compareCatalogs(previousIds, { origin: 'demo', file: undefined, breaches, details: {}, total: breaches.length, skipped: [] });
  } else {
    if (loaded?.origin === 'demo' && previousIds.length > 0) {
      await store.replaceCatalog([], { origin: 'hibp', file: null, at });
      await writeDetails(null);
      logger.warn('the stored catalog was the invented demo one (from a --demo or --dev run); it is removed, and the real one comes from Have I Been Pwned');
    }
    const breaches = await store.listBreaches();
    // Until HIBP's catalog is fetched, the stored one is what it is: named by where it came from.
    const origin = loaded?.origin === 'file' && breaches.length > 0 ? 'file' : 'hibp';
    const file = origin === 'file' ? (loaded?.file ?? undefined) : undefined;
    const report = compareCatalogs(previousIds, { origin, file, breaches, details: {}, total: breaches.length, skipped: [] });
    return breaches.length > 0 ? { ...report, stored: true } : report;
  }
  const [summary, ...warnings] = describeCatalogLoad(report);
  logger.info({ file: report.file, breaches: report.kept, total: report.total, added: report.added }, summary!);
  for (const line of warnings) logger.warn({ skipped: report.skipped.length, removed: report.removed.length }, line);
  return report;
}

/**
 * A store from before the loaded catalog was recorded: the demo catalog when it holds all of it
 * (breaches added through the development surface may sit beside it).
 */
function inferLoaded(ids: readonly string[]): LoadedCatalog | undefined {
  if (ids.length === 0) return undefined;
  const stored = new Set(ids);
  return loadDemoCatalog().breaches.every((breach) => stored.has(breach.id)) ? { origin: 'demo', file: null } : undefined;
}
