import type { SiteBreachVerdict } from '../../../shared/ipc/logins.ts';
import { registrableDomain } from './loginAddress.ts';

/** A breach of the catalog that names a site. */
export interface CatalogBreach {
  breachId: string;
  title: string;
  /** The catalog's `domain` (any host of the site). */
  domain: string;
  /** YYYY-MM-DD. */
  breachDate: string;
  /** When the catalog added it (ISO): a breach added after the last import is news, one added before was there to be seen. */
  addedDate?: string;
}

/** The catalog's breaches by registrable domain: what a login's site is looked up in. */
export class SiteBreachIndex {
  readonly #bySite = new Map<string, CatalogBreach[]>();

  constructor(breaches: Iterable<CatalogBreach>) {
    const seen = new Set<string>();
    for (const breach of breaches) {
      if (seen.has(breach.breachId)) continue;
      const site = registrableDomain(breach.domain);
      if (site === null) continue;
      seen.add(breach.breachId);
      const list = this.#bySite.get(site);
      if (list) list.push(breach);
      else this.#bySite.set(site, [breach]);
    }
  }

  /** The breaches at a site; none without one. */
  at(site: string | null): readonly CatalogBreach[] {
    return site === null ? [] : (this.#bySite.get(site) ?? []);
  }

  get size(): number {
    return this.#bySite.size;
  }
}

/**
 * Watchtower's rule: a breach after the password last changed means change it; a breach before
 * means it was changed since (likely fine); no date in the export, we cannot say. A change on the
 * breach's own day counts as before it (the breach date is a day, the safer reading is "change").
 */
export function verdictOf(breachDate: string, passwordChangedAt: string | null): SiteBreachVerdict {
  if (passwordChangedAt === null) return 'unknown-date';
  const changed = new Date(passwordChangedAt);
  if (Number.isNaN(changed.getTime())) return 'unknown-date';
  return changed.toISOString().slice(0, 10) > breachDate ? 'changed-since' : 'change';
}

/** `https://<site>/.well-known/change-password` (W3C "A Well-Known URL for Changing Passwords"). */
export function changePasswordUrl(site: string | null): string | null {
  return site === null ? null : `https://${site}/.well-known/change-password`;
}
