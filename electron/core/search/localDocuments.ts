import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { toSearchDocument } from '../../../shared/search/index.ts';
import { breachVersions, listBreaches } from '../db/breachQueries.ts';
import type { ReadableDB } from '../db/Interface.ts';
import type { SearchDocumentSource } from './EmbeddedSearch.ts';

/** The details feed's local copy, as the embedded engine reads it. */
export interface LocalDetails {
  /** Details of these breaches where the feed has them (no network). */
  details(ids: readonly string[]): Map<string, BreachDetails>;
  /** Changes whenever the local copy does (its ETag and sync time). */
  version(): string;
}

/**
 * The embedded engine's documents: the account's local breaches joined to their details from
 * the feed (title, description, verification, account count); a breach the feed has not
 * delivered is searched by its id, domain and data classes.
 */
export function localSearchSource(db: ReadableDB, local?: LocalDetails): SearchDocumentSource {
  return {
    version: () => {
      let text = local?.version() ?? '';
      for (const [id, version] of breachVersions(db)) text += `|${id}:${version}`;
      return text;
    },
    documents: () => {
      const breaches = listBreaches(db);
      const known = local?.details(breaches.map((breach) => breach.id)) ?? new Map<string, BreachDetails>();
      return breaches.map((breach) => toSearchDocument(breach, known.get(breach.id)));
    },
  };
}
