import { dataClassKey } from '../../../shared/api/primitives.ts';
import type { BreachList } from '../../../shared/ipc/views.ts';
import { plural } from '../../lib/format.ts';
import type { Filters } from '../../lib/urlState.ts';

/** Classes worth naming first when the person has not picked any: the ones to act on. */
const PRIORITY = ['Passwords', 'Security questions and answers', 'Credit cards', 'Bank account numbers', 'Phone numbers'].map(dataClassKey);

function countFor(list: BreachList, name: string): [string, number] | undefined {
  // Any spelling of the class (a filter may come from a URL in slugs) finds its count.
  const key = dataClassKey(name);
  for (const [className, count] of Object.entries(list.unresolvedByDataClass)) if (dataClassKey(className) === key) return [className, count];
  return undefined;
}

/**
 * "42 breaches · 17 with unresolved Passwords": the classes the person filtered on, or else the
 * most pressing class that still has something to fix.
 */
export function countsText(list: BreachList, filters: Filters): string {
  const parts = [plural(list.total, 'breach', 'breaches')];
  const named = filters.unresolvedDataClasses.length > 0 ? filters.unresolvedDataClasses : filters.dataClasses;
  let pairs: [string, number][];
  if (named.length > 0) {
    pairs = named.map((name) => countFor(list, name) ?? [name, 0]);
  } else {
    const entries = Object.entries(list.unresolvedByDataClass).filter(([, count]) => count > 0);
    const priority = PRIORITY.map((name) => entries.find(([className]) => dataClassKey(className) === name)).find((entry) => entry !== undefined);
    const top = priority ?? entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    pairs = top ? [top] : [];
  }
  for (const [name, count] of pairs.slice(0, 3)) parts.push(`${count.toLocaleString('en')} with unresolved ${name}`);
  return parts.join(' · ');
}
