import { dataClassKey } from '../../../shared/api/primitives.ts';
import type { BreachList } from '../../../shared/ipc/views.ts';
import { formatCount, plural } from '../../lib/format.ts';
import type { Filters } from '../../lib/urlState.ts';

function countFor(list: BreachList, name: string): [string, number] | undefined {
  // Any spelling of the class (a filter may come from a URL in slugs) finds its count.
  const key = dataClassKey(name);
  for (const [className, count] of Object.entries(list.unresolvedByDataClass)) if (dataClassKey(className) === key) return [className, count];
  return undefined;
}

/**
 * The list as the person sees it: breaches they hid (shared preferences) and chose not to show
 * are taken out of the rows, the total and every per-class count, so the numbers agree with the
 * rows on screen; how many were taken out is said ("1 hidden by you").
 */
export function withoutHidden(list: BreachList, hidden: ReadonlySet<string>): { list: BreachList; hiddenByYou: number } {
  const gone = list.rows.filter((row) => hidden.has(row.breach.id));
  if (gone.length === 0) return { list, hiddenByYou: 0 };
  const unresolvedByDataClass = { ...list.unresolvedByDataClass };
  for (const row of gone)
    for (const summary of row.dataClasses) {
      const name = Object.keys(unresolvedByDataClass).find((className) => dataClassKey(className) === dataClassKey(summary.name));
      if (name !== undefined && summary.resolved < summary.total) unresolvedByDataClass[name] = Math.max(0, unresolvedByDataClass[name]! - 1);
    }
  return { list: { ...list, rows: list.rows.filter((row) => !hidden.has(row.breach.id)), total: Math.max(0, list.total - gone.length), unresolvedByDataClass }, hiddenByYou: gone.length };
}

/**
 * "42 breaches · 17 with unresolved Passwords" for the classes the person filtered on; with no
 * class filtered it names none (a class nobody asked about reads as a filter that is not there):
 * "42 breaches · 30 with something to fix". Sensitive breaches the list leaves out are said, so
 * the count agrees with the Overview's: "… · 1 sensitive breach hidden"; so are breaches the
 * person hid and does not show (`hiddenByYou`, already taken out of `list` by withoutHidden).
 */
export function countsText(list: BreachList, filters: Filters, hiddenByYou = 0): string {
  const parts = [plural(list.total, 'breach', 'breaches')];
  const named = filters.unresolvedDataClasses.length > 0 ? filters.unresolvedDataClasses : filters.dataClasses;
  if (named.length > 0) {
    for (const [name, count] of named.slice(0, 3).map((entry) => countFor(list, entry) ?? ([entry, 0] as [string, number]))) parts.push(`${formatCount(count)} with unresolved ${name}`);
  } else if (list.total > 0 && list.rows.length === list.total) {
    const open = list.rows.filter((row) => row.unresolved > 0).length;
    parts.push(open === 0 ? 'nothing left to fix' : `${formatCount(open)} with something to fix`);
  }
  if (hiddenByYou > 0) parts.push(`${formatCount(hiddenByYou)} hidden by you`);
  if (list.hiddenSensitive > 0) parts.push(`${plural(list.hiddenSensitive, 'sensitive breach', 'sensitive breaches')} hidden`);
  return parts.join(' · ');
}
