import { z } from 'zod';
import { SearchChunk } from '../search/api.ts';
import { AuthStatus, SyncStatus } from './views.ts';
import { ChecksView } from './checks.ts';
import { AddressesView } from './addresses.ts';
import { LoginImportProgress, LoginsView } from './logins.ts';

/**
 * Why local data changed. `resolution`: a toggle was recorded; `outbox`: failed changes were
 * retried or discarded; `sync`: a sync sent changes or brought a new snapshot; `sign-out`: the
 * account's data is gone from view.
 */
export const DataChangeReason = z.enum(['resolution', 'outbox', 'sync', 'sign-out']);
export type DataChangeReason = z.infer<typeof DataChangeReason>;

export const DataChange = z.object({
  reason: DataChangeReason,
  /** The breaches whose data changed; absent: any may have (a new snapshot, a sign-out). */
  breachIds: z.array(z.string()).optional(),
  /**
   * Counts every change since the core started. A channel's reply that already carries the
   * state after a change says its revision (the resolutions channel does), so the UI that asked
   * can ignore the event of its own change.
   */
  revision: z.int().nonnegative(),
});
export type DataChange = z.infer<typeof DataChange>;

/** Push events from the core to every connected UI. */
export const events = {
  'auth-changed': AuthStatus,
  'sync-changed': SyncStatus,
  /** Local data changed: one event per change, saying what changed so views re-query only that. */
  'data-changed': DataChange,
  /** New breaches naming the person, after the baseline sync. */
  'breaches-new': z.object({ breaches: z.array(z.object({ id: z.string(), breachDate: z.string(), dataClasses: z.array(z.string()), emails: z.array(z.string()) })) }),
  /** What the service says about its source and the address checks changed (after a sync, a switch of source, a sign-out). */
  'checks-changed': ChecksView,
  /** The person's addresses changed (listed again after a sync, added, removed, verified). */
  'addresses-changed': AddressesView,
  /** The imported logins or their findings changed (an import, the Pwned Passwords check moving on, a sync's new breach at a site). */
  'logins-changed': LoginsView,
  /** An import's progress, by the id the UI chose. */
  'logins-import-progress': LoginImportProgress,
  /** Ask the UI to show one breach (a notification was clicked). */
  'open-breach': z.object({ id: z.string() }),
  /** A search run's results as they arrive: the chunks first, then the answer in pieces. */
  'search-event': z.object({
    requestId: z.string(),
    event: z.discriminatedUnion('type', [
      z.object({
        type: z.literal('chunks'),
        searchQuery: z.string(),
        chunks: z.array(SearchChunk),
        answerKind: z.enum(['extractive', 'generated']).optional(),
        total: z.int().min(0).optional(),
        sentence: z.string().optional(),
      }),
      z.object({ type: z.literal('delta'), text: z.string() }),
    ]),
  }),
} as const satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export const EVENT_NAMES = Object.keys(events) as EventName[];
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}
