import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { CoreError } from '../../../shared/ipc/index.ts';
import type { HandlerSlice } from '../ipc/combineHandlers.ts';
import { countBreaches, getLocalBreach, queryBreaches } from '../queries/localQueries.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import { toBreachDetail, toBreachList } from './breachViews.ts';
import type { NewBreachMarks } from './NewBreachMarks.ts';
import { knownDataClasses, knownDomains, overviewOf } from './overview.ts';

export interface BreachHandlerDeps {
  sessions: CurrentSession;
  marks: NewBreachMarks;
  /** Details of breaches from the local copy of the details feed (title, description, …). */
  details?: (ids: readonly string[]) => ReadonlyMap<string, BreachDetails>;
  /** Breaches the details feed flags fabricated, spam-list or retired: left out unless asked for. */
  flaggedIds?: () => string[];
}

const EMPTY_OVERVIEW = { breaches: 0, unresolvedByDataClass: [], unresolvedByEmail: [], breachesByYear: [] };

/** The local breaches as the list, the detail pane, the filters' suggestions and the overview read them. Signed out, they are empty. */
export function createBreachHandlers({ sessions, marks, details, flaggedIds }: BreachHandlerDeps) {
  return {
    'breaches-list': (query) => {
      const session = sessions.get();
      if (!session) return { rows: [], total: 0, unresolvedByDataClass: {} };
      const { offset, limit, includeFlagged, ...asked } = query;
      const hidden = includeFlagged || !flaggedIds ? [] : flaggedIds();
      const filters = hidden.length > 0 ? { ...asked, excludeIds: [...(asked.excludeIds ?? []), ...hidden] } : asked;
      const page = queryBreaches(session.db, { ...filters, offset, limit });
      const list = toBreachList(page.items, page.total, countBreaches(session.db, filters), marks.ids);
      if (!details || list.rows.length === 0) return list;
      const found = details(list.rows.map((row) => row.breach.id));
      return { ...list, rows: list.rows.map((row) => (found.has(row.breach.id) ? { ...row, details: found.get(row.breach.id) } : row)) };
    },
    'breach-get': ({ id }) => {
      const item = getLocalBreach(sessions.require().db, id);
      if (!item) throw new CoreError('not-found', `There is no breach "${id}" in this account.`);
      const detail = toBreachDetail(item, marks.has(id));
      const entry = details?.([id]).get(id);
      return entry ? { ...detail, details: entry } : detail;
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
      return session ? overviewOf(session.db) : EMPTY_OVERVIEW;
    },
  } satisfies HandlerSlice;
}
