import type { BreachList } from '../../../shared/ipc/views.ts';
import { Icon } from '../../components/Icon.tsx';
import { plural } from '../../lib/format.ts';

/**
 * The list's domain filter finds any part of a domain ("dobe" finds adobe.com), while the
 * service's `GET /user/breaches?domain=` is an exact match (shared/api/filter.ts). When the list
 * shows breaches the service's filter would not, this says so, with the number the service would
 * answer, so a count compared with the API is not a surprise. Nothing is said when they agree.
 */
export function DomainNote({ domain, list, partial }: { domain: string; list: BreachList; partial: boolean }) {
  const wanted = domain.trim().toLowerCase();
  const exact = list.rows.filter((row) => row.breach.domain.toLowerCase() === wanted).length;
  if (exact === list.rows.length && !partial) return null;
  if (list.rows.length === 0) return null;
  return (
    <p className="domain-note" role="note" aria-label="Domain filter">
      <Icon name="search" size={14} />
      <span>
        Showing breaches whose domain contains “{domain}”; the service’s domain filter matches whole domains only and would find{' '}
        {partial ? `at least ${plural(exact, 'breach', 'breaches')}` : plural(exact, 'breach', 'breaches')} for “{domain}”.
      </span>
    </p>
  );
}
