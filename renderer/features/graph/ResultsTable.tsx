import { useMemo } from 'react';
import { kindOf, type NodeKind } from '../../lib/graphAnswers.ts';
import { columnLabel, KIND_LABELS, relationWords, rowsOf, type ResultRow } from './model.ts';
import type { QueryBlock } from './useGraphQueries.ts';

export interface ResultsTableProps {
  block: QueryBlock;
  caption: string;
  /** Whether a node's expansion is already on the pane. */
  isExpanded(dcid: string, kind: NodeKind): boolean;
  onExpand(dcid: string, kind: NodeKind): void;
}

/** The answer as a table: the drawing's keyboard and screen reader equivalent. */
export function ResultsTable({ block, caption, isExpanded, onExpand }: ResultsTableProps) {
  const rows = useMemo(() => rowsOf(block.response, block.nodes, block.direction), [block.response, block.nodes, block.direction]);
  // Columns named by what they hold ("Breach", "Data class"), never the engine's words.
  const subjects = columnLabel(
    [...new Set(rows.map((row) => row.subject))].map((subject) => (block.origin === 'expand' && block.kind ? block.kind : kindOf(subject))),
    'From',
  );
  const answers = rows.filter((row) => row.kind === 'node' || row.kind === 'literal' || row.kind === 'label');
  // Only breaches point at a data class or a domain, so such an answer holds breaches even when empty.
  const breachesOnly = block.property === '<-dataClass' || block.property === '<-domain';
  const targets =
    answers.length === 0
      ? breachesOnly
        ? 'Breach'
        : 'Linked to'
      : columnLabel(
          answers.map((row) => (row.kind === 'node' ? kindOf(row.target!, row.types) : 'literal')),
          'Linked to',
        );
  return (
    <div className="graph-table-scroll">
      <table className="graph-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{subjects}</th>
            <th scope="col">Relation</th>
            <th scope="col">{targets}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.key}>
              {/* The node is named once per run of its rows; repeating it would be noise. */}
              <th scope="row" className="graph-subject">
                {index === 0 || rows[index - 1]?.subject !== row.subject ? <code>{row.subject}</code> : <span className="visually-hidden">{row.subject}</span>}
              </th>
              <td className="graph-arc">
                {row.kind === 'none' ? '—' : <span title={`${block.direction === 'out' ? 'outgoing' : 'incoming'} arc ${row.arc}`}>{relationWords(row.arc, block.direction)}</span>}
              </td>
              <td>
                <Value row={row} isExpanded={isExpanded} onExpand={onExpand} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Value({ row, isExpanded, onExpand }: { row: ResultRow; isExpanded(dcid: string, kind: NodeKind): boolean; onExpand(dcid: string, kind: NodeKind): void }) {
  if (row.kind === 'none') return <span className="muted">Nothing to answer</span>;
  if (row.kind === 'label') return <span className="muted">label</span>;
  if (row.kind === 'literal') return <span className="graph-literal">{row.value}</span>;
  const dcid = row.target!;
  const kind = kindOf(dcid, row.types);
  return (
    <span className="graph-target">
      <span className={`kind-swatch kind-${kind}`} aria-hidden="true" />
      <span className="graph-target-text">
        {row.name !== undefined && row.name !== dcid ? <span className="graph-target-name">{row.name}</span> : null}
        <code>{dcid}</code>
        <span className="graph-kind">{KIND_LABELS[kind]}</span>
      </span>
      {isExpanded(dcid, kind) ? (
        <span className="graph-expanded">Expanded</span>
      ) : (
        <button type="button" className="button button-small graph-expand" aria-label={`Expand ${dcid}`} onClick={() => onExpand(dcid, kind)}>
          Expand
        </button>
      )}
    </span>
  );
}
