import { useEffect, useId, useState } from 'react';
import { dataClassNode, domainNode, TYPE_NODES } from '../../../shared/graph/nodeIds.ts';
import { useGraph } from '../../state/graph.ts';
import { parseNodeList } from './model.ts';

type Kind = 'breach' | 'domain' | 'dataClass' | 'type';

const KINDS: { value: Kind; label: string; field: string }[] = [
  { value: 'breach', label: 'Breach', field: 'Breach name' },
  { value: 'domain', label: 'Domain', field: 'Domain' },
  { value: 'dataClass', label: 'Data class', field: 'Data class' },
  { value: 'type', label: 'Every breach, domain or data class', field: 'Type' },
];

interface Options {
  breach: string[];
  domain: string[];
  dataClass: string[];
  type: string[];
}

function nodeIdOf(kind: Kind, name: string): string {
  const trimmed = name.trim();
  if (kind === 'domain') return domainNode(trimmed);
  if (kind === 'dataClass') return dataClassNode(trimmed);
  return trimmed;
}

/**
 * The start nodes as text (node ids, comma separated), and a picker that turns a breach, a domain
 * or a data class of the person's own data into its node id, so nobody needs to know that
 * "Email addresses" is `dataClass/email-addresses`.
 */
export function StartNodes({ text, onChange, error }: { text: string; onChange(text: string): void; error?: string | undefined }) {
  const id = useId();
  const [kind, setKind] = useState<Kind>('breach');
  const [name, setName] = useState('');
  const suggestions = useGraph((state) => state.suggestions);
  const options: Options = { ...suggestions, type: [...TYPE_NODES] };

  useEffect(() => {
    void useGraph.getState().loadSuggestions();
  }, []);

  const field = KINDS.find((k) => k.value === kind)!;
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');

  function add() {
    if (!name.trim()) return;
    const node = nodeIdOf(kind, name);
    const nodes = parseNodeList(text);
    if (!nodes.includes(node)) onChange([...nodes, node].join(', '));
    setName('');
  }

  return (
    <div className="start-nodes">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-nodes`}>
          Start nodes
        </label>
        <input
          id={`${id}-nodes`}
          className="input input-mono"
          type="text"
          spellCheck={false}
          autoComplete="off"
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
        <p className="field-hint" id={`${id}-hint`}>
          Node ids, comma separated: a breach (<code>Adobe</code>), <code>domain/adobe.com</code>, <code>dataClass/passwords</code>, or a type (<code>Breach</code>).
        </p>
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {error}
          </p>
        ) : null}
      </div>
      <fieldset className="fieldset start-picker">
        <legend className="field-label">Add a start node</legend>
        <div className="start-picker-row">
          <label className="visually-hidden" htmlFor={`${id}-kind`}>
            Start from
          </label>
          <select id={`${id}-kind`} className="select" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
          <label className="visually-hidden" htmlFor={`${id}-name`}>
            {field.field}
          </label>
          <input
            id={`${id}-name`}
            className="input"
            type="text"
            list={`${id}-options`}
            placeholder={field.field}
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              // Enter adds the node rather than running the query the field sits in.
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
          <datalist id={`${id}-options`}>
            {options[kind].map((option) => (
              <option key={option} value={option} />
            ))}
          </datalist>
          <button type="button" className="button" aria-label="Add start node" disabled={!name.trim()} onClick={add}>
            Add
          </button>
        </div>
      </fieldset>
    </div>
  );
}
