// The plain model the soak checks the service against: the person's last intent per
// (breach, email, data class), and the rules for judging the final state.
import type { CommittedResolutions } from './faultProxy.ts';

export type Key = string;

export function keyOf(breachId: string, email: string, classKey: string): Key {
  return `${breachId}|${email}|${classKey}`;
}

export function emailOf(key: Key): string {
  return key.split('|')[1]!;
}

export interface Verdict {
  /** Keys whose last intent is not on the service and was never reported failed. */
  lost: number;
  /** Keys where the last intent reached the service and an older one overwrote it later. */
  duplicated: number;
  /** Keys reported failed without a real reason (anything but the removed email). */
  wronglyFailed: number;
  /** Keys reported failed for the removed email. */
  failed: number;
  /** Keys compared. */
  checked: number;
}

export interface JudgeInput {
  /** The person's last intent per key; keys never toggled keep the initial service state. */
  intents: ReadonlyMap<Key, boolean>;
  /** Resolved keys on the service at the start. */
  initial: ReadonlySet<Key>;
  /** Every key the service lists for the emails still monitored at the end. */
  finalKeys: ReadonlySet<Key>;
  /** Resolved keys on the service at the end. */
  finalResolved: ReadonlySet<Key>;
  /** Keys the client reports failed, with its reason. */
  failed: ReadonlyMap<Key, string>;
  removedEmail: string;
  /** Keys on the removed email toggled (and acknowledged) after the removal: they must fail. */
  toggledAfterRemoval: ReadonlySet<Key>;
  committed: readonly CommittedResolutions[];
}

export function judge(input: JudgeInput): Verdict {
  const verdict: Verdict = { lost: 0, duplicated: 0, wronglyFailed: 0, failed: 0, checked: 0 };
  for (const [key, reason] of input.failed) {
    if (emailOf(key) === input.removedEmail && /not found/i.test(reason)) verdict.failed++;
    else verdict.wronglyFailed++;
  }
  const history = commitsByKey(input.committed);
  for (const key of input.finalKeys) {
    verdict.checked++;
    if (input.failed.has(key)) continue;
    const wanted = input.intents.get(key) ?? input.initial.has(key);
    if (input.finalResolved.has(key) === wanted) continue;
    // Did the wanted value land and get overwritten by a stale re-send, or never land?
    const values = history.get(key) ?? [];
    const landed = values.lastIndexOf(wanted);
    if (landed >= 0 && values.slice(landed + 1).includes(!wanted)) verdict.duplicated++;
    else verdict.lost++;
  }
  for (const key of input.toggledAfterRemoval) if (!input.failed.has(key)) verdict.lost++;
  return verdict;
}

/** Per key, the values the service committed, in order. */
function commitsByKey(committed: readonly CommittedResolutions[]): Map<Key, boolean[]> {
  const history = new Map<Key, boolean[]>();
  for (const request of [...committed].sort((a, b) => a.seq - b.seq)) {
    for (const item of request.items) {
      for (const email of item.emails ?? []) {
        for (const name of item.dataClasses) {
          const key = keyOf(item.breachId, email.toLowerCase(), name.trim().toLowerCase());
          const values = history.get(key);
          if (values) values.push(item.resolved);
          else history.set(key, [item.resolved]);
        }
      }
    }
  }
  return history;
}
