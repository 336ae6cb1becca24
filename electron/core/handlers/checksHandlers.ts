import { BreachSourceSet, UNKNOWN_CHECKS } from '../../../shared/ipc/index.ts';
import { readChecksView } from '../db/breachDataQueries.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { BreachSource } from '../checks/BreachSource.ts';

export interface ChecksHandlerDeps {
  sessions: Pick<CurrentSession, 'get'>;
  source: BreachSource;
  /** Re-publishes `checks-changed` after a switch. */
  publish(): void;
}

/** Where exposures come from and which addresses are checked; the person's breach-data choice. */
export function createChecksHandlers({ sessions, source, publish }: ChecksHandlerDeps) {
  return {
    'checks-get': () => {
      const session = sessions.get();
      return session ? readChecksView(session.db) : UNKNOWN_CHECKS;
    },
    'breach-source-get': () => source.view(),
    'breach-source-set': async (input) => {
      const view = await source.set(BreachSourceSet.parse(input));
      publish();
      return view;
    },
  } satisfies HandlerSlice;
}
