import { HIDE_SENSITIVE, type SensitivePolicy } from '../../../shared/api/index.ts';
import { FIX_GROUPS, fixGroupOf } from '../../../shared/report/fixGroups.ts';
import { weekTally } from '../../../shared/report/progress.ts';
import { nextStep, PROGRESS_WEEKS, type ReportSummary } from '../../../shared/report/summary.ts';
import { forEachCode } from '../db/codeLists.ts';
import { statement, type ReadableDB } from '../db/Interface.ts';

/**
 * The overview's summary (`report-summary`: the most urgent fix group with something left, and
 * resolutions per week) read from the overlay columns of the account database, the ones every
 * list and count reads, instead of building the whole report and summarizing it. For a heavy
 * account that report is ten thousands of cells built in JavaScript (50–110 ms here, holding the
 * core's thread, which in the browser host is also the one serving the page); these are four
 * statements whose results are a few strings and a few dozen rows.
 *
 * It answers exactly what `summarizeReport(buildReport(…))` answers (a property test compares
 * both over random account databases):
 * - A pair (email, data class) of a shown breach is unresolved when its code is in the account's
 *   `unresolved_codes` (the confirmed state with the outbox's intents applied, as the report's
 *   cells say); a breach has something of a group left when its `unresolved_codes` (the union of
 *   its accounts') holds a class of that group. A class's group is its key's (`fixGroupOf`).
 * - Resolved pairs are the breach's classes less the unresolved ones, per account; each counts
 *   in its week by the time the service gave for it, kept only while the service's confirmed
 *   state holds the class (the report's cell shows it then), or as of unknown date.
 */
export function summarizeLocal(db: ReadableDB, options: { now: number; policy?: SensitivePolicy }): ReportSummary {
  const shown = (options.policy ?? HIDE_SENSITIVE).showSensitive ? '' : ' AND b.is_sensitive = 0';

  // Per code, the index of its group in FIX_GROUPS (the order people should act in).
  const groupIndex = new Map(FIX_GROUPS.map((group, index) => [group.id, index]));
  const other = groupIndex.get('other')!;
  const codes = statement(db, 'SELECT code, key FROM data_class_codes').raw().all() as [number, string][];
  const groupOf = new Uint8Array(Math.max(0, ...codes.map(([code]) => code)) + 1).fill(other);
  for (const [code, key] of codes) groupOf[code] = groupIndex.get(fixGroupOf(key)) ?? other;
  const group = (code: number) => (code < groupOf.length ? groupOf[code]! : other);

  // Unresolved pairs per group: every shown account's unresolved codes end to end.
  const unresolved = new Array<number>(FIX_GROUPS.length).fill(0);
  const pairs = statement(db, `SELECT coalesce(group_concat(a.unresolved_codes, ''), '') FROM breached_accounts AS a JOIN breaches AS b ON b.key = a.breach_key WHERE a.unresolved_count > 0${shown}`)
    .pluck()
    .get() as string;
  forEachCode(pairs, (code) => void unresolved[group(code)]!++);

  // Breaches with something left per group: each shown breach's unresolved codes, one breach per `|`.
  const breaches = new Array<number>(FIX_GROUPS.length).fill(0);
  const perBreach = statement(db, `SELECT coalesce(group_concat(b.unresolved_codes, '|'), '') FROM breaches AS b WHERE length(b.unresolved_codes) > 1${shown}`).pluck().get() as string;
  for (const list of perBreach === '' ? [] : perBreach.split('|')) {
    let seen = 0;
    forEachCode(list, (code) => void (seen |= 1 << group(code)));
    for (let index = 0; index < FIX_GROUPS.length; index++) if (seen & (1 << index)) breaches[index]!++;
  }

  const first = unresolved.findIndex((count) => count > 0);
  const next = first === -1 ? undefined : nextStep(FIX_GROUPS[first]!.id, unresolved[first]!, breaches[first]!);

  // Resolved pairs: per shown account, the breach's classes (commas in `,3,17,` less one) less its unresolved ones.
  const resolved = statement(
    db,
    `SELECT coalesce(sum(length(b.class_codes) - length(replace(b.class_codes, ',', '')) - 1 - a.unresolved_count), 0) FROM breached_accounts AS a JOIN breaches AS b ON b.key = a.breach_key WHERE true${shown}`,
  )
    .pluck()
    .get() as number;
  // Their times, each distinct one once with how many pairs it dates: a class of the breach,
  // resolved as shown, confirmed by the service and given a time (`resolved_at` is {"code": time}).
  const times = statement(
    db,
    `SELECT t.value, count(*) FROM breached_accounts AS a JOIN breaches AS b ON b.key = a.breach_key JOIN json_each(a.resolved_at) AS t
     WHERE a.resolved_at IS NOT NULL${shown}
       AND instr(b.class_codes, ',' || t.key || ',') > 0
       AND instr(a.resolved_codes, ',' || t.key || ',') > 0
       AND instr(a.unresolved_codes, ',' || t.key || ',') = 0
     GROUP BY t.value`,
  )
    .raw()
    .all() as [string | null, number][];
  const tally = weekTally({ weeks: PROGRESS_WEEKS, now: options.now });
  let dated = 0;
  for (const [at, count] of times) {
    tally.add(at, count);
    dated += count;
  }
  // The rest were resolved with no time from the service (queued, or confirmed by a 2xx since the last pull).
  tally.add(undefined, resolved - dated);
  const progress = tally.result();
  return next ? { next, progress } : { progress };
}
