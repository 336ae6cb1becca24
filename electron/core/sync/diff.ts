import type { Breach } from '../../../shared/api/index.ts';

/** What a pull changed, for the notifier. */
export interface SnapshotDiff {
  /** True for the first snapshot of an account: everything is known from now on, nothing is "new". */
  baseline: boolean;
  /** Breaches never seen before in this account. */
  newBreaches: Breach[];
  /** Breaches whose `modifiedDate` moved. */
  modifiedBreaches: Breach[];
  /** Ids of breaches in the previous snapshot and not in this one. */
  goneBreaches: string[];
  /** Invented breaches removed before this snapshot because the service's source moved from demo to real data. */
  demoCleared?: number;
}

/**
 * Compares a snapshot with the previous one. `previous` maps id → modifiedDate, compared as
 * instants (a server that changes the date-time format moves nothing); `seenBefore` holds the
 * ids of `next` seen in some earlier snapshot.
 */
export function diffSnapshot(previous: ReadonlyMap<string, string>, next: readonly Breach[], seenBefore: ReadonlySet<string>, baseline: boolean): SnapshotDiff {
  const newBreaches: Breach[] = [];
  const modifiedBreaches: Breach[] = [];
  const present = new Set<string>();
  for (const breach of next) {
    present.add(breach.id);
    const before = previous.get(breach.id);
    if (before === undefined) {
      if (!baseline && !seenBefore.has(breach.id)) newBreaches.push(breach);
    } else if (before !== breach.modifiedDate && instant(before) !== instant(breach.modifiedDate)) {
      modifiedBreaches.push(breach);
    }
  }
  const goneBreaches = [...previous.keys()].filter((id) => !present.has(id)).sort();
  return { baseline, newBreaches, modifiedBreaches: baseline ? [] : modifiedBreaches, goneBreaches: baseline ? [] : goneBreaches };
}

/** Epoch ms of a date-time; an unreadable one (other servers) counts as 0 rather than failing a sync. */
export function instant(dateTime: string): number {
  const ms = Date.parse(dateTime);
  return Number.isNaN(ms) ? 0 : ms;
}
