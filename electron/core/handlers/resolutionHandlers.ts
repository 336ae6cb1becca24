import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { CoreError } from '../../../shared/ipc/index.ts';
import { accountCreditsHibp } from '../checks/hibpCredit.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import { getLocalBreach } from '../queries/localQueries.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { DataChanges } from '../status/DataChanges.ts';
import { toBreachDetail } from '../views/breachViews.ts';
import type { NewBreachMarks } from '../views/NewBreachMarks.ts';

export interface ResolutionHandlerDeps {
  sessions: CurrentSession;
  marks: NewBreachMarks;
  changes: DataChanges;
  /** The details feed's entries, so the reply shows the breach exactly as `breach-get` does (a reply without them made the description vanish: a jump under the pointer). */
  details?: (ids: readonly string[]) => ReadonlyMap<string, BreachDetails>;
}

/** Marking data classes fixed (queued in the outbox, sent shortly after), and what to do about changes the service refused. */
export function createResolutionHandlers({ sessions, marks, changes, details }: ResolutionHandlerDeps) {
  const failed = (breachId: string | undefined) =>
    sessions
      .require()
      .sync.outbox.items('failed')
      .filter((item) => breachId === undefined || item.breachId === breachId);
  return {
    // The reply carries the breach as it now shows, so the window that toggled needs no second
    // round trip; other windows hear one `data-changed` naming the breach.
    'resolutions-set': (input) => {
      const { db, sync } = sessions.require();
      // An unknown breach, email or class throws UnknownTargetError: "not-found" at the door.
      sync.outbox.record([input]);
      const { revision } = changes.changed('resolution', [input.breachId]);
      const item = getLocalBreach(db, input.breachId);
      if (!item) throw new CoreError('not-found', `There is no breach "${input.breachId}" in this account.`);
      const detail = toBreachDetail(item, marks.has(input.breachId), accountCreditsHibp(db));
      const entry = details?.([input.breachId]).get(input.breachId);
      return { detail: entry ? { ...detail, details: entry } : detail, revision };
    },
    'outbox-retry': ({ breachId }) => {
      const { outbox, scheduler } = sessions.require().sync;
      const items = failed(breachId);
      if (outbox.retry(items.map((item) => item.id)) > 0) {
        changes.changed(
          'outbox',
          items.map((item) => item.breachId),
        );
        void scheduler.syncNow('push');
      }
      return {};
    },
    'outbox-discard': ({ breachId }) => {
      const items = failed(breachId);
      if (sessions.require().sync.outbox.discard(items.map((item) => item.id)) > 0)
        changes.changed(
          'outbox',
          items.map((item) => item.breachId),
        );
      return {};
    },
  } satisfies HandlerSlice;
}
