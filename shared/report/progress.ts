import type { Report } from './report.ts';

export interface WeekCount {
  /** Monday of the week, `YYYY-MM-DD` (UTC). */
  weekStart: string;
  count: number;
}

const DAY = 86_400_000;

/** Monday 00:00 UTC of the week holding `ms`. */
export function weekStartOf(ms: number): number {
  const day = Math.floor(ms / DAY);
  // 1970-01-01 was a Thursday: day 0 → weekday 3 counting from Monday.
  const weekday = (day + 3) % 7;
  return (day - weekday) * DAY;
}

export interface WeeklyProgress {
  weeks: WeekCount[];
  before: number;
  unknownDate: number;
}

/**
 * Tallies resolved (email, data class) pairs into the last `weeks` weeks (this one included) by
 * their `resolvedAt`: one absent, empty or unreadable counts in `unknownDate`, one before the
 * first week in `before`. The report's cells and the core's aggregate (which hands over each
 * distinct time once with its count) both count through this, so they agree on every date.
 */
export function weekTally(options: { weeks: number; now: number }): { add(resolvedAt: string | null | undefined, count?: number): void; result(): WeeklyProgress } {
  const count = options.weeks;
  const thisWeek = weekStartOf(options.now);
  const first = thisWeek - (count - 1) * 7 * DAY;
  const buckets = new Array<number>(count).fill(0);
  let before = 0;
  let unknownDate = 0;
  return {
    add(resolvedAt, n = 1) {
      const at = resolvedAt ? Date.parse(resolvedAt) : Number.NaN;
      if (Number.isNaN(at)) unknownDate += n;
      else if (at < first) before += n;
      else buckets[Math.min(count - 1, Math.floor((weekStartOf(at) - first) / (7 * DAY)))]! += n;
    },
    result: () => ({ weeks: buckets.map((value, index) => ({ weekStart: new Date(first + index * 7 * DAY).toISOString().slice(0, 10), count: value })), before, unknownDate }),
  };
}

/**
 * Resolved (email, data class) pairs per week over the last `weeks` weeks (this one included),
 * from the service's `resolvedAt`. Queued changes have no `resolvedAt` yet and count once the
 * service has confirmed them. Older resolutions are in `before`.
 */
export function resolvedPerWeek(report: Report, options: { weeks?: number; now?: number } = {}): WeeklyProgress {
  const tally = weekTally({ weeks: options.weeks ?? 12, now: options.now ?? Date.parse(report.generatedAt) });
  for (const { accounts } of report.breaches) {
    for (const account of accounts) {
      for (const cell of Object.values(account.cells)) if (cell.resolved) tally.add(cell.resolvedAt);
    }
  }
  return tally.result();
}
