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

/**
 * Resolved (email, data class) pairs per week over the last `weeks` weeks (this one included),
 * from the service's `resolvedAt`. Queued changes have no `resolvedAt` yet and count once the
 * service has confirmed them. Older resolutions are in `before`.
 */
export function resolvedPerWeek(report: Report, options: { weeks?: number; now?: number } = {}): { weeks: WeekCount[]; before: number; unknownDate: number } {
  const count = options.weeks ?? 12;
  const thisWeek = weekStartOf(options.now ?? Date.parse(report.generatedAt));
  const first = thisWeek - (count - 1) * 7 * DAY;
  const buckets = new Array<number>(count).fill(0);
  let before = 0;
  let unknownDate = 0;
  for (const { accounts } of report.breaches) {
    for (const account of accounts) {
      for (const cell of Object.values(account.cells)) {
        if (!cell.resolved) continue;
        const at = cell.resolvedAt ? Date.parse(cell.resolvedAt) : Number.NaN;
        if (Number.isNaN(at)) unknownDate++;
        else if (at < first) before++;
        else buckets[Math.min(count - 1, Math.floor((weekStartOf(at) - first) / (7 * DAY)))]! += 1;
      }
    }
  }
  return { weeks: buckets.map((value, index) => ({ weekStart: new Date(first + index * 7 * DAY).toISOString().slice(0, 10), count: value })), before, unknownDate };
}
