import type { FixGroupId } from '../../shared/report/fixSteps.ts';
import { nextFix } from '../../shared/report/fixGroups.ts';
import { resolvedPerWeek, type WeekCount } from '../../shared/report/progress.ts';
import type { Report } from '../../shared/report/report.ts';

/** Weeks the overview's "Fixed per week" shows. */
export const PROGRESS_WEEKS = 12;

/**
 * What the overview shows of the whole report ("What to do next" and "Fixed per week"): a few
 * hundred bytes where the report of a heavy account is a megabyte. Plain data, so a worker can
 * make it and post it (see `nextSteps.worker.ts`).
 */
export interface NextStepsSummary {
  /** The most urgent fix group with something left; absent when nothing is. */
  next?: { id: FixGroupId; title: string; why: string; unresolved: number; breaches: number };
  progress: { weeks: WeekCount[]; before: number; unknownDate: number };
}

export function summarizeReport(report: Report, now: number): NextStepsSummary {
  const next = nextFix(report);
  const progress = resolvedPerWeek(report, { weeks: PROGRESS_WEEKS, now });
  if (!next) return { progress };
  const breaches = next.targets.filter((target) => target.unresolved > 0).length;
  return { next: { id: next.id, title: next.spec.title, why: next.spec.why, unresolved: next.unresolved, breaches }, progress };
}
