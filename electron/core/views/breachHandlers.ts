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
}

const EMPTY_OVERVIEW = { breaches: 0, unresolvedByDataClass: [], unresolvedByEmail: [], breachesByYear: [] };

/** The local breaches as the list, the detail pane, the filters' suggestions and the overview read them. Signed out, they are empty. */
export function createBreachHandlers({ sessions, marks }: BreachHandlerDeps) {
  return {
    'breaches-list': (query) => {
      const session = sessions.get();
      if (!session) return { rows: [], total: 0, unresolvedByDataClass: {} };
      const { offset, limit, ...filters } = query;
      const page = queryBreaches(session.db, { ...filters, offset, limit });
      return toBreachList(page.items, page.total, countBreaches(session.db, filters), marks.ids);
    },
    'breach-get': ({ id }) => {
      const item = getLocalBreach(sessions.require().db, id);
      if (!item) throw new CoreError('not-found', `There is no breach "${id}" in this account.`);
      return toBreachDetail(item, marks.has(id));
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
