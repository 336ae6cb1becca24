import { dataClassKey } from '../../../shared/api/primitives.ts';
import type { BreachList } from '../../../shared/ipc/views.ts';
import { plural } from '../../lib/format.ts';
import type { Filters } from '../../lib/urlState.ts';

function countFor(list: BreachList, name: string): [string, number] | undefined {
  // Any spelling of the class (a filter may come from a URL in slugs) finds its count.
  const key = dataClassKey(name);
  for (const [className, count] of Object.entries(list.unresolvedByDataClass)) if (dataClassKey(className) === key) return [className, count];
  return undefined;
}

/**
 * "42 breaches · 17 with unresolved Passwords" for the classes the person filtered on; with no
 * class filtered it names none (a class nobody asked about reads as a filter that is not there):
 * "42 breaches · 30 with something to fix". Sensitive breaches the list leaves out are said, so
 * the count agrees with the Overview's: "… · 1 sensitive breach hidden".
 */
export function countsText(list: BreachList, filters: Filters): string {
  const parts = [plural(list.total, 'breach', 'breaches')];
  const named = filters.unresolvedDataClasses.length > 0 ? filters.unresolvedDataClasses : filters.dataClasses;
  if (named.length > 0) {
    for (const [name, count] of named.slice(0, 3).map((entry) => countFor(list, entry) ?? ([entry, 0] as [string, number]))) parts.push(`${count.toLocaleString('en')} with unresolved ${name}`);
  } else if (list.total > 0 && list.rows.length === list.total) {
    const open = list.rows.filter((row) => row.unresolved > 0).length;
    parts.push(open === 0 ? 'nothing left to fix' : `${open.toLocaleString('en')} with something to fix`);
  }
  if (list.hiddenSensitive > 0) parts.push(`${plural(list.hiddenSensitive, 'sensitive breach', 'sensitive breaches')} hidden`);
  return parts.join(' · ');
}
