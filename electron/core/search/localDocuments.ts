import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { toSearchDocument } from '../../../shared/search/index.ts';
import { breachVersions, listBreaches } from '../db/breachQueries.ts';
import type { ReadableDB } from '../db/Interface.ts';
import type { SearchDocumentSource } from './EmbeddedSearch.ts';

/**
 * The embedded engine's documents: the account's local breaches, with their details (title,
 * description, …) where the details feed has delivered them; otherwise the id stands in.
 */
export function localSearchSource(db: ReadableDB, details: () => Record<string, BreachDetails> = () => ({})): SearchDocumentSource {
  return {
    version: () => {
      const versions = breachVersions(db);
      let text = String(versions.size);
      for (const [id, version] of versions) text += `|${id}:${version}`;
      return text + `|${Object.keys(details()).length}`;
    },
    documents: () => {
      const known = details();
      return listBreaches(db).map((breach) => toSearchDocument(breach, known[breach.id]));
    },
  };
}
