import demoCatalog from '../../../resources/demo-catalog.json' with { type: 'json' };

/**
 * The reference service's generated demo catalog is ours; every other breach record comes from
 * a real catalog (Have I Been Pwned's, CC BY 4.0) and must be credited. A breach counts as the
 * demo's when both its id and its domain are the demo catalog's (the two id sets are disjoint).
 */
const DEMO = new Map((demoCatalog as { id: string; domain: string }[]).map((breach) => [breach.id, breach.domain]));

export function isDemoBreach(breach: { id: string; domain: string }): boolean {
  return DEMO.get(breach.id) === breach.domain;
}

export function includesHibpData(breaches: readonly { id: string; domain: string }[]): boolean {
  return breaches.some((breach) => !isDemoBreach(breach));
}
