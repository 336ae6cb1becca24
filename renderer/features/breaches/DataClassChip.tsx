import { Icon } from '../../components/Icon.tsx';
import type { DataClassSummary } from '../../../shared/ipc/views.ts';

/** Resolved state in shape and words as well as colour: a check, a ring, or "1/2". */
export function DataClassChip({ summary }: { summary: DataClassSummary }) {
  const { name, resolved, total } = summary;
  const state = total > 0 && resolved >= total ? 'resolved' : resolved > 0 ? 'partial' : 'unresolved';
  const words = state === 'resolved' ? 'resolved' : state === 'partial' ? `resolved for ${resolved} of ${total} emails` : 'unresolved';
  return (
    <span className={`chip chip-${state}`}>
      {state === 'resolved' ? <Icon name="check" size={12} /> : <span className="chip-ring" aria-hidden="true" />}
      {name}
      {state === 'partial' ? (
        <span className="chip-count" aria-hidden="true">
          {resolved}/{total}
        </span>
      ) : null}
      <span className="visually-hidden">, {words}</span>
    </span>
  );
}
