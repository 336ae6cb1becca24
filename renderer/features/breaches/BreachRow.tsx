import { memo } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { formatDate, plural } from '../../lib/format.ts';
import type { BreachRow as Row } from '../../../shared/ipc/views.ts';
import { BreachBadges } from '../details/BreachBadges.tsx';
import { DataClassChip } from './DataClassChip.tsx';

/** Three lines (20 + 18 + 22 px and two 4 px gaps) with 6 px above and below: six rows fit a 1024×768 window. */
export const ROW_HEIGHT = 80;

export function rowLabel(row: Row): string {
  const parts = [row.details?.title ?? row.breach.id];
  if (row.breach.domain) parts.push(row.breach.domain);
  parts.push(`breached ${formatDate(row.breach.breachDate)}`);
  parts.push(row.unresolved === 0 ? 'all resolved' : `${row.unresolved} unresolved`);
  if (row.breach.isSensitive) parts.push('sensitive');
  if (row.isNew) parts.push('new');
  if (row.removedFromCatalogAt) parts.push('removed from the catalog');
  if (row.pending > 0) parts.push(`${row.pending} queued`);
  if (row.failed > 0) parts.push(`${row.failed} failed`);
  return parts.join(', ');
}

interface BreachRowProps {
  row: Row;
  id: string;
  index: number;
  count: number;
  top: number;
  active: boolean;
  selected: boolean;
  onPick(index: number): void;
}

/** Fixed height, one line per kind of fact: rows never resize, so scrolling never shifts. */
export const BreachRowView = memo(function BreachRowView({ row, id, index, count, top, active, selected, onPick }: BreachRowProps) {
  const { breach } = row;
  const className = ['breach-row', active ? 'is-active' : '', selected ? 'is-selected' : ''].filter(Boolean).join(' ');
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      aria-setsize={count}
      aria-posinset={index + 1}
      aria-describedby={`${id}-classes`}
      className={className}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onPick(index)}
    >
      {/* The name, in words; the drawn row repeats it for the eye and stays out of the name so
          screen readers do not hear every chip on every arrow key. */}
      <span className="visually-hidden">{rowLabel(row)}</span>
      <div className="breach-row-head" aria-hidden="true">
        <span className="breach-row-name">{row.details?.title ?? breach.id}</span>
        <BreachBadges isSensitive={breach.isSensitive} isNew={row.isNew} removedFromCatalogAt={row.removedFromCatalogAt} />
        <span className="breach-row-markers">
          {row.pending > 0 ? (
            <span className="marker marker-pending">
              <Icon name="clock" size={12} />
              Queued {row.pending}
            </span>
          ) : null}
          {row.failed > 0 ? (
            <span className="marker marker-failed">
              <Icon name="alert" size={12} />
              Failed {row.failed}
            </span>
          ) : null}
          {row.unresolved === 0 ? (
            <span className="marker marker-done">
              <Icon name="check" size={12} />
              Done
            </span>
          ) : (
            <span className="marker marker-todo">{row.unresolved} to fix</span>
          )}
        </span>
      </div>
      <div className="breach-row-meta" aria-hidden="true">
        <span>{breach.domain || 'No domain'}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={breach.breachDate}>{formatDate(breach.breachDate)}</time>
        <span aria-hidden="true">·</span>
        <span className="truncate" title={row.emails.join(', ')}>
          {row.emails.length <= 2 ? row.emails.join(', ') : `${row.emails[0] ?? ''} and ${plural(row.emails.length - 1, 'other')}`}
        </span>
      </div>
      <div className="breach-row-chips" id={`${id}-classes`} aria-hidden="true">
        {row.dataClasses.map((summary) => (
          <DataClassChip key={summary.name} summary={summary} />
        ))}
      </div>
    </div>
  );
});
