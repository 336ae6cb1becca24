import { z } from 'zod';
import { AuthStatus, SyncStatus } from './views.ts';

/** Push events from the core to every connected UI. */
export const events = {
  'auth-changed': AuthStatus,
  'sync-changed': SyncStatus,
  /** Local data changed (sync landed, outbox moved): views should re-query. */
  'data-changed': z.object({ reason: z.enum(['sync', 'outbox', 'sign-out']) }),
  /** New breaches naming the person, after the baseline sync. */
  'breaches-new': z.object({ breaches: z.array(z.object({ id: z.string(), breachDate: z.string(), dataClasses: z.array(z.string()), emails: z.array(z.string()) })) }),
  /** Ask the UI to show one breach (a notification was clicked). */
  'open-breach': z.object({ id: z.string() }),
} as const satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export const EVENT_NAMES = Object.keys(events) as EventName[];
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}
