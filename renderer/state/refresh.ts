import { useBreaches } from './breaches.ts';
import { useDetail } from './detail.ts';
import { useLogins } from './logins.ts';
import { useNextSteps } from './nextSteps.ts';
import { useOverview } from './overview.ts';
import { useReport } from './report.ts';

/** What a change touched: some breaches, or (no ids) everything. */
export interface RefreshScope {
  breachIds?: readonly string[];
}

/** Everything this window shows: after sign-in, a sync landing, or a reconnect. */
export const EVERYTHING: RefreshScope = {};

/**
 * The one policy for what to re-ask after data changed: the list (counts move with any change),
 * the filters' suggestions when anything may have come or gone, the open breach if named, the
 * overview and reports if shown.
 */
export async function refreshFor(scope: RefreshScope): Promise<void> {
  const tasks: Promise<void>[] = [useBreaches.getState().reload()];
  const everything = scope.breachIds === undefined;
  // New breaches bring new domains and data classes for the filters' suggestions; toggles do not.
  if (everything) tasks.push(useBreaches.getState().loadOptions());
  const { id } = useDetail.getState();
  if (id !== undefined && (everything || scope.breachIds!.includes(id))) tasks.push(useDetail.getState().reload());
  if (useOverview.getState().overview || useOverview.getState().error) tasks.push(useOverview.getState().load());
  // The guided fix, "what to do next" and the reports read every breach: any change moves them.
  if (useReport.getState().report || useReport.getState().error) tasks.push(useReport.getState().load());
  if (useNextSteps.getState().summary || useNextSteps.getState().error) tasks.push(useNextSteps.getState().load());
  // A sync's new breach can be at a site of an imported login; a reconnect may have missed its `logins-changed`.
  if (everything && (useLogins.getState().loaded || useLogins.getState().error)) tasks.push(useLogins.getState().load());
  await Promise.all(tasks);
}
