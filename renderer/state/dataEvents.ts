import type { DataChange } from '../../shared/ipc/events.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { useBreaches } from './breaches.ts';
import { useDetail } from './detail.ts';
import { useOverview } from './overview.ts';
import { useReport } from './report.ts';

/**
 * What this window does when the core says local data changed: re-ask only what the change
 * touches, and nothing for a change whose reply already brought the new state (its own toggle).
 * Events that arrive while such a reply is on its way wait for it, so they can be told apart.
 */
const own = new Set<number>();
let inFlight = 0;
let waiting: DataChange[] = [];

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
  if (others.length > 0) void refreshFor(merge(others));
}

export function onDataChanged(change: DataChange): void {
  if (inFlight > 0) {
    waiting.push(change);
    return;
  }
  if (own.delete(change.revision)) return;
  void refreshFor(change);
}

/** What re-asking after a change costs: the list (counts move with any change), the open breach if named, the overview if shown. */
export async function refreshFor(change: Pick<DataChange, 'reason' | 'breachIds'>): Promise<void> {
  const tasks: Promise<void>[] = [useBreaches.getState().reload()];
  const everything = change.breachIds === undefined;
  // New breaches bring new domains and data classes for the filters' suggestions; toggles do not.
  if (everything) tasks.push(useBreaches.getState().loadOptions());
  const { id } = useDetail.getState();
  if (id !== undefined && (everything || change.breachIds!.includes(id))) tasks.push(useDetail.getState().reload());
  if (useOverview.getState().overview || useOverview.getState().error) tasks.push(useOverview.getState().load());
  // The guided fix, "what to do next" and the reports read every breach: any change moves them.
  if (useReport.getState().report || useReport.getState().error) tasks.push(useReport.getState().load());
  await Promise.all(tasks);
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
