import { DEMO_CATALOG_BREACHES } from './demoCatalogBreaches.ts';

/**
 * The reference service's generated demo catalog is ours; every other breach record comes from
 * a real catalog (Have I Been Pwned's, CC BY 4.0) and must be credited. A breach counts as the
 * demo's when both its id and its domain are the demo catalog's (no HIBP breach shares an id).
 */
const DEMO = new Set(DEMO_CATALOG_BREACHES);

export function isDemoBreach(breach: { id: string; domain: string }): boolean {
  return DEMO.has(`${breach.id} ${breach.domain}`);
}

export function includesHibpData(breaches: readonly { id: string; domain: string }[]): boolean {
  return breaches.some((breach) => !isDemoBreach(breach));
}
