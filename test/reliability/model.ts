// The plain model the soak checks the service against: the person's last intent per
// (breach, email, data class), and the rules for judging the final state.
import { dataClassKey, emailKey } from '../../shared/api/index.ts';
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
  /** Each lost or duplicated key, with what the person wanted and what the service committed, to find the cause. */
  misses: string[];
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
  /** Every resolutions request the service committed, so the removed email's state is known too. */
  committed: readonly CommittedResolutions[];
}

/**
 * Every key the service lists at the end, and every key of the removed email the person
 * toggled, must hold the person's last intent unless it was reported failed. The service no
 * longer lists the removed email, so what it holds there is what it last committed (or held at
 * the start). A toggle there that the client withdrew (the person went back to what the service
 * already held, so nothing was sent and nothing could fail) is therefore not lost; one that
 * differs from what the service holds and was not reported failed is.
 */
export function judge(input: JudgeInput): Verdict {
  const verdict: Verdict = { lost: 0, duplicated: 0, wronglyFailed: 0, failed: 0, checked: 0, misses: [] };
  for (const [key, reason] of input.failed) {
    if (emailOf(key) === input.removedEmail && /not found/i.test(reason)) verdict.failed++;
    else verdict.wronglyFailed++;
  }
  const history = commitsByKey(input.committed);
  const check = (key: Key, held: boolean) => {
    verdict.checked++;
    if (input.failed.has(key)) return;
    const wanted = input.intents.get(key) ?? input.initial.has(key);
    if (held === wanted) return;
    // Did the wanted value land and get overwritten by a stale re-send, or never land?
    const values = history.get(key) ?? [];
    const landed = values.lastIndexOf(wanted);
    const duplicated = landed >= 0 && values.slice(landed + 1).includes(!wanted);
    if (duplicated) verdict.duplicated++;
    else verdict.lost++;
    verdict.misses.push(`${duplicated ? 'duplicated' : 'lost'}: ${key} wanted ${wanted}, service holds ${held}; committed ${JSON.stringify(values)}, initially ${input.initial.has(key)}`);
  };
  for (const key of input.finalKeys) check(key, input.finalResolved.has(key));
  for (const key of input.intents.keys()) {
    if (emailOf(key) !== input.removedEmail || input.finalKeys.has(key)) continue;
    check(key, history.get(key)?.at(-1) ?? input.initial.has(key));
  }
  return verdict;
}

/** Per key, the values the service committed, in order. */
function commitsByKey(committed: readonly CommittedResolutions[]): Map<Key, boolean[]> {
  const history = new Map<Key, boolean[]>();
  for (const request of [...committed].sort((a, b) => a.seq - b.seq)) {
    for (const item of request.items) {
      for (const email of item.emails ?? []) {
        for (const name of item.dataClasses) {
          const key = keyOf(item.breachId, emailKey(email), dataClassKey(name));
          const values = history.get(key);
          if (values) values.push(item.resolved);
          else history.set(key, [item.resolved]);
        }
      }
    }
  }
  return history;
}
