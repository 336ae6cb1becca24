import type { HandlerSlice } from '../ipc/combineHandlers.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';

export interface ResolutionHandlerDeps {
  sessions: CurrentSession;
}

/** Marking data classes fixed (queued in the outbox, sent shortly after), and what to do about changes the service refused. */
export function createResolutionHandlers({ sessions }: ResolutionHandlerDeps) {
  const failedIds = (breachId: string | undefined) =>
    sessions
      .require()
      .sync.outbox.items('failed')
      .filter((item) => breachId === undefined || item.breachId === breachId)
      .map((item) => item.id);
  return {
    'resolutions-set': ({ breachId, dataClasses, emails, resolved }) => {
      // An unknown breach, email or class throws UnknownTargetError: "not-found" at the door.
      sessions.require().sync.outbox.record([{ breachId, dataClasses, resolved, ...(emails ? { emails } : {}) }]);
      return {};
    },
    'outbox-retry': ({ breachId }) => {
      const { outbox, scheduler } = sessions.require().sync;
      if (outbox.retry(failedIds(breachId)) > 0) void scheduler.syncNow('push');
      return {};
    },
    'outbox-discard': ({ breachId }) => {
      sessions.require().sync.outbox.discard(failedIds(breachId));
      return {};
    },
  } satisfies HandlerSlice;
}
