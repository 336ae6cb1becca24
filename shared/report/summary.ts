import { z } from 'zod';
import { FIX_GROUP_IDS } from './fixSteps.ts';
import { fixGroupSpec, nextFix, type FixGroupId } from './fixGroups.ts';
import { resolvedPerWeek } from './progress.ts';
import type { Report } from './report.ts';

/** Weeks the overview's "Fixed per week" shows. */
export const PROGRESS_WEEKS = 12;

const Count = z.int().min(0);

/**
 * What the overview shows of the whole report ("What to do next" and "Fixed per week"): a few
 * hundred bytes where the report of a heavy account is a megabyte, so the core summarizes and
 * only this crosses to the page (`report-summary`).
 */
export const ReportSummary = z.strictObject({
  /** The most urgent fix group with something left; absent when nothing is. */
  next: z
    .strictObject({
      id: z.enum(FIX_GROUP_IDS),
      title: z.string(),
      why: z.string(),
      unresolved: Count,
      /** Breaches with something of the group left. */
      breaches: Count,
    })
    .optional(),
  progress: z.strictObject({
    weeks: z.array(z.strictObject({ weekStart: z.iso.date(), count: Count })).max(PROGRESS_WEEKS),
    before: Count,
    unknownDate: Count,
  }),
});
export type ReportSummary = z.infer<typeof ReportSummary>;

/** The summary's "What to do next" for a group with something left. */
export function nextStep(id: FixGroupId, unresolved: number, breaches: number): NonNullable<ReportSummary['next']> {
  const spec = fixGroupSpec(id);
  return { id, title: spec.title, why: spec.why, unresolved, breaches };
}

/**
 * The summary of a whole report. The core answers `report-summary` from aggregates over the
 * account database instead (electron/core/queries/reportSummary.ts), held to the same answer as
 * this by a property test; this one serves reports that exist anyway (tests, fakes).
 */
export function summarizeReport(report: Report, now: number): ReportSummary {
  const next = nextFix(report);
  const progress = resolvedPerWeek(report, { weeks: PROGRESS_WEEKS, now });
  if (!next) return { progress };
  const breaches = next.targets.filter((target) => target.unresolved > 0).length;
  return { next: nextStep(next.id, next.unresolved, breaches), progress };
}
