import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { toSearchDocument, type AccountBreachState, type AccountStates } from '../../../shared/search/index.ts';
import { breachVersions, listBreaches } from '../db/breachQueries.ts';
import { statement, type ReadableDB } from '../db/Interface.ts';
import { getSyncState } from '../db/syncStateQueries.ts';
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
    account: () => accountStates(db),
  };
}

/**
 * The person's state of each local breach, as the breaches list shows it: the addresses it
 * found; fixed when no class of any address is left unresolved (what the person marked
 * included), partly fixed when some are, not fixed when none is; new when the last sync that
 * brought breaches brought it (the list's "New" marks).
 */
export function accountStates(db: ReadableDB): AccountStates {
  const rows = statement(
    db,
    `SELECT b.id, group_concat(lower(a.email), char(10)) AS emails, coalesce(sum(a.unresolved_count), 0) AS unresolved,
            count(a.email) * json_array_length(b.data_classes) AS classes
     FROM breaches AS b LEFT JOIN breached_accounts AS a ON a.breach_key = b.key GROUP BY b.key`,
  ).all() as { id: string; emails: string | null; unresolved: number; classes: number }[];
  const fresh = newBreachIds(db);
  return new Map(
    rows.map((row): [string, AccountBreachState] => [
      row.id,
      {
        emails: row.emails ? row.emails.split('\n') : [],
        resolution: row.unresolved === 0 ? 'fixed' : row.unresolved < row.classes ? 'partly' : 'unfixed',
        isNew: fresh.has(row.id),
      },
    ]),
  );
}

function newBreachIds(db: ReadableDB): Set<string> {
  try {
    const ids: unknown = JSON.parse(getSyncState(db, 'newBreachIds') ?? '[]');
    return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}
