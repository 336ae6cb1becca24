import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { HIDE_SENSITIVE, includeSensitiveUnder, type SensitivePolicy } from '../../../shared/api/index.ts';
import { CoreError } from '../../../shared/ipc/index.ts';
import { compileFilter, filterRecordOf, isEmptyFilter, toSearchDocument, type MetadataFilter } from '../../../shared/search/index.ts';
import { listBreaches } from '../db/breachQueries.ts';
import type { ReadableDB, WritableDB } from '../db/Interface.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import { countBreaches, countMatches, getLocalBreach, queryBreaches } from '../queries/localQueries.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import { accountCreditsHibp } from '../checks/hibpCredit.ts';
import { catalogNoticeOf, dismissCatalogChanges, removedFromCatalog } from '../sync/catalogChanges.ts';
import { toBreachDetail, toBreachList } from '../views/breachViews.ts';
import type { NewBreachMarks } from '../views/NewBreachMarks.ts';
import { knownDataClasses, knownDomains, overviewOf } from '../views/overview.ts';

export interface BreachHandlerDeps {
  sessions: CurrentSession;
  marks: NewBreachMarks;
  /** Details of breaches from the local copy of the details feed (title, description, …). */
  details?: (ids: readonly string[]) => ReadonlyMap<string, BreachDetails>;
  /** Breaches the details feed flags fabricated, spam-list or retired: left out unless asked for. */
  flaggedIds?: () => string[];
  /** The sensitive policy now (the person's setting); default: hidden. */
  policy?: () => SensitivePolicy;
}

const EMPTY_OVERVIEW = { breaches: 0, sensitiveBreaches: 0, includesHibp: false, unresolvedByDataClass: [], unresolvedByEmail: [], breachesByYear: [] };

/** The local breaches as the list, the detail pane, the filters' suggestions and the overview read them. Signed out, they are empty. */
/**
 * The local breaches the advanced filter leaves out, decided by the search interface's filter
 * engine over the same documents the embedded search indexes (catalog record + details feed),
 * so a filter means the same on the list, the Search page and the service.
 */
function refusedBy(db: ReadableDB, filter: MetadataFilter, details: BreachHandlerDeps['details']): string[] {
  if (isEmptyFilter(filter)) return [];
  const admits = compileFilter(filter);
  const breaches = listBreaches(db);
  const known = details?.(breaches.map((breach) => breach.id)) ?? new Map<string, BreachDetails>();
  return breaches.filter((breach) => !admits(filterRecordOf(toSearchDocument(breach, known.get(breach.id))))).map((breach) => breach.id);
}

export function createBreachHandlers({ sessions, marks, details, flaggedIds, policy = () => HIDE_SENSITIVE }: BreachHandlerDeps) {
  return {
    'breaches-list': (query) => {
      const session = sessions.get();
      if (!session) return { rows: [], total: 0, unresolvedByDataClass: {}, hiddenSensitive: 0, includesHibp: false };
      const { offset, limit, includeFlagged, metadataFilter, ...given } = query;
      // Sensitive breaches as the one policy says; the list's own checkbox only adds them.
      const asked = { ...given, includeSensitive: includeSensitiveUnder(policy(), given.includeSensitive) };
      const hidden = [...(includeFlagged || !flaggedIds ? [] : flaggedIds()), ...(metadataFilter ? refusedBy(session.db, metadataFilter, details) : [])];
      const filters = hidden.length > 0 ? { ...asked, excludeIds: [...(asked.excludeIds ?? []), ...hidden] } : asked;
      const page = queryBreaches(session.db, { ...filters, offset, limit });
      // What "Include sensitive breaches" would add, so the list can say what it hides.
      const hiddenSensitive = filters.includeSensitive ? 0 : countMatches(session.db, { ...filters, includeSensitive: true }) - page.total;
      const built = toBreachList(page.items, page.total, countBreaches(session.db, filters), marks.ids, accountCreditsHibp(session.db), hiddenSensitive);
      const notice = catalogNoticeOf(session.db);
      const removed = removedFromCatalog(session.db);
      const list = {
        ...built,
        ...(notice ? { catalogNotice: notice } : {}),
        rows: removed.size === 0 ? built.rows : built.rows.map((row) => (removed.has(row.breach.id) ? { ...row, removedFromCatalogAt: removed.get(row.breach.id)! } : row)),
      };
      if (!details || list.rows.length === 0) return list;
      const found = details(list.rows.map((row) => row.breach.id));
      return { ...list, rows: list.rows.map((row) => (found.has(row.breach.id) ? { ...row, details: found.get(row.breach.id) } : row)) };
    },
    'breach-get': ({ id }) => {
      const { db } = sessions.require();
      const item = getLocalBreach(db, id);
      if (!item) throw new CoreError('not-found', `There is no breach "${id}" in this account.`);
      const removedAt = removedFromCatalog(db).get(id);
      const detail = { ...toBreachDetail(item, marks.has(id), accountCreditsHibp(db)), ...(removedAt ? { removedFromCatalogAt: removedAt } : {}) };
      const entry = details?.([id]).get(id);
      return entry ? { ...detail, details: entry } : detail;
    },
    'catalog-notice-dismiss': ({ upTo }) => {
      dismissCatalogChanges(sessions.require().db as WritableDB, upTo);
      return {};
    },
    'breaches-domains': () => {
      const session = sessions.get();
      return session ? knownDomains(session.db) : [];
    },
    'breaches-data-classes': () => {
      const session = sessions.get();
      return session ? knownDataClasses(session.db) : [];
    },
    'overview-get': () => {
      const session = sessions.get();
      return session ? overviewOf(session.db, policy()) : EMPTY_OVERVIEW;
    },
  } satisfies HandlerSlice;
}
