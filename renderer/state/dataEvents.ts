import { Emitter, type Event } from '../../shared/base/Emitter.ts';
import type { DataChange } from '../../shared/ipc/events.ts';
import { onAccountChange } from '../lib/accountScope.ts';

/**
 * Which of the core's data changes this window still has to re-ask: none whose reply already
 * brought the new state (its own toggle). Events that arrive while such a reply is on its way
 * wait for it, so they can be told apart. What to re-ask is `refresh.ts`'s policy; this module
 * imports no store, so the stores that begin their own changes here form no cycle with it.
 */
const own = new Set<number>();
let inFlight = 0;
let waiting: DataChange[] = [];
const elsewhere = new Emitter<Pick<DataChange, 'reason' | 'breachIds'>>();

/** Data changed by someone other than this window (another window, a sync): re-ask what it names. */
export const onDidChangeElsewhere: Event<Pick<DataChange, 'reason' | 'breachIds'>> = elsewhere.event;

/** A change this window makes and whose reply carries the state after it (a toggle). */
export function beginOwnChange(): void {
  inFlight++;
}

/** The reply came (with the revision of the change's event) or the call failed (no revision). */
export function endOwnChange(revision: number | undefined): void {
  if (revision !== undefined) own.add(revision);
  inFlight = Math.max(0, inFlight - 1);
  if (inFlight > 0) return;
  const held = waiting;
  waiting = [];
  const others = held.filter((change) => !own.delete(change.revision));
  if (others.length > 0) elsewhere.fire(merge(others));
}

export function onDataChanged(change: DataChange): void {
  if (inFlight > 0) {
    waiting.push(change);
    return;
  }
  if (own.delete(change.revision)) return;
  elsewhere.fire(change);
}

function merge(changes: readonly DataChange[]): Pick<DataChange, 'reason' | 'breachIds'> {
  if (changes.some((change) => change.breachIds === undefined)) return { reason: changes[0]!.reason };
  return { reason: changes[0]!.reason, breachIds: [...new Set(changes.flatMap((change) => change.breachIds!))] };
}

/** Forget what this window knows of its own changes (another account's; tests). */
export function resetDataEvents(): void {
  own.clear();
  inFlight = 0;
  waiting = [];
}

onAccountChange(resetDataEvents);
