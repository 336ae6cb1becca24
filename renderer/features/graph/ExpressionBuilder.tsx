import { useId, useRef } from 'react';
import { parseExpression, printExpression, type Direction, type Expression, type Hop, type HopBody } from '../../../shared/graph/expression.ts';
import { TYPE_NODES } from '../../../shared/graph/nodeIds.ts';
import { Icon } from '../../components/Icon.tsx';
import { BREACH_LABELS } from './model.ts';

const FALLBACK: Expression = { hops: [{ direction: 'out', body: { kind: 'all' } }] };

/** Values of the label select that are not a label name. */
const ALL = '*';
const LABELS_ONLY = ':labels';
const LIST = ':list';

/** What an expression asks, in words, beside the text a person typed. */
export function describeExpression(ast: Expression): string {
  const parts = ast.hops.map((hop) => {
    const side = hop.direction === 'out' ? 'outgoing' : 'incoming';
    const body = hop.body;
    switch (body.kind) {
      case 'labels':
        return `the labels of the ${side} arcs`;
      case 'all':
        return `every ${side} arc with its values`;
      case 'list':
        return `the ${side} arcs ${body.properties.join(', ')}`;
      case 'property': {
        const filter = body.filter.map((term) => `${term.key} ${term.value}`).join(', ');
        return `${body.repeat ? `nodes reached over one or more ${side}` : `the ${side}`} ${body.property} ${body.repeat ? 'arcs' : 'values'}${filter ? `, only those with ${filter}` : ''}`;
      }
    }
  });
  const text = parts.join(', then ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

export interface ExpressionBuilderProps {
  text: string;
  onChange(text: string): void;
}

/**
 * Controls and text for one relation expression, kept in step both ways: a control rewrites the
 * text with `printExpression`; typing parses it and, when it parses, the controls follow. While
 * the text does not parse, the controls keep the last expression that did, and the parser's
 * message (with its position) says what is wrong.
 */
export function ExpressionBuilder({ text, onChange }: ExpressionBuilderProps) {
  const id = useId();
  const parsed = parseExpression(text);
  const lastValid = useRef<Expression>(FALLBACK);
  if (parsed.ok) lastValid.current = parsed.ast;
  const ast = parsed.ok ? parsed.ast : lastValid.current;
  const hop = ast.hops[0] ?? FALLBACK.hops[0]!;
  const body = hop.body;

  const setHop = (next: Hop) => onChange(printExpression({ hops: [next, ...ast.hops.slice(1)] }));
  const setBody = (next: HopBody) => setHop({ ...hop, body: next });

  const selectValue = body.kind === 'all' ? ALL : body.kind === 'labels' ? LABELS_ONLY : body.kind === 'list' ? LIST : body.property;
  const listed = body.kind === 'list' ? body.properties : [];
  // Labels a remote endpoint knows and the breach graph does not: offered once typed.
  const extraLabels = [...new Set([...(body.kind === 'property' ? [body.property] : []), ...listed])].filter((label) => !(BREACH_LABELS as readonly string[]).includes(label));
  const single = body.kind === 'property';
  const typeTerm = single ? body.filter.find((term) => term.key === 'typeOf') : undefined;
  const otherTerms = single ? body.filter.filter((term) => term.key !== 'typeOf') : [];

  function chooseLabel(value: string) {
    if (value === ALL) setBody({ kind: 'all' });
    else if (value === LABELS_ONLY) setBody({ kind: 'labels' });
    else if (value === LIST) setBody({ kind: 'list', properties: single ? [body.property] : ['name', 'domain'] });
    else setBody({ kind: 'property', property: value, repeat: single ? body.repeat : false, filter: single ? body.filter : [] });
  }

  function toggleListed(label: string, checked: boolean) {
    const next = checked ? [...listed, label] : listed.filter((l) => l !== label);
    // The list keeps the graph's order, so the same choice always prints the same text.
    const order = [...BREACH_LABELS, ...extraLabels];
    setBody({ kind: 'list', properties: order.filter((l) => next.includes(l)) });
  }

  const error = parsed.ok ? undefined : parsed.error;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const singleHintId = `${id}-single`;

  return (
    <div className="expression-builder">
      <div className="expression-controls">
        <fieldset className="segmented">
          <legend className="field-label">Direction</legend>
          {(['out', 'in'] as Direction[]).map((direction) => (
            <label key={direction} className={hop.direction === direction ? 'segment is-checked' : 'segment'}>
              <input type="radio" name={`${id}-direction`} value={direction} checked={hop.direction === direction} onChange={() => setHop({ ...hop, direction })} />
              {direction === 'out' ? 'Outgoing' : 'Incoming'}
            </label>
          ))}
        </fieldset>

        <div className="field field-compact">
          <label className="field-label" htmlFor={`${id}-label`}>
            Label
          </label>
          <select id={`${id}-label`} className="select" value={selectValue} onChange={(event) => chooseLabel(event.target.value)}>
            <option value={ALL}>All (*)</option>
            <option value={LABELS_ONLY}>Labels only</option>
            <option value={LIST}>Several labels (list)</option>
            <optgroup label="One label">
              {[...BREACH_LABELS, ...extraLabels.filter((l) => single && l === body.property)].map((label) => (
                <option key={label} value={label}>
                  {label}
                </option>
              ))}
            </optgroup>
          </select>
        </div>

        <div className="field field-compact">
          <label className="field-label" htmlFor={`${id}-type`}>
            Type filter
          </label>
          <select
            id={`${id}-type`}
            className="select"
            value={typeTerm?.value ?? ''}
            disabled={!single}
            aria-describedby={single ? undefined : singleHintId}
            onChange={(event) => {
              if (!single) return;
              const value = event.target.value;
              setBody({ ...body, filter: value ? [...otherTerms, { key: 'typeOf', value }] : otherTerms });
            }}
          >
            <option value="">None</option>
            {[...TYPE_NODES, ...(typeTerm && !(TYPE_NODES as readonly string[]).includes(typeTerm.value) ? [typeTerm.value] : [])].map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>

        <div className="check-field expression-repeat">
          <input
            id={`${id}-repeat`}
            type="checkbox"
            className="checkbox"
            checked={single && body.repeat}
            disabled={!single}
            aria-describedby={single ? undefined : singleHintId}
            onChange={(event) => single && setBody({ ...body, repeat: event.target.checked })}
          />
          <label htmlFor={`${id}-repeat`} className="check-field-label">
            Follow repeatedly (+)
          </label>
        </div>
      </div>

      {!single ? (
        <p className="field-hint" id={singleHintId}>
          Following repeatedly and the type filter apply to a single label.
        </p>
      ) : otherTerms.length > 0 ? (
        <p className="field-hint">Also filtered by {otherTerms.map((term) => `${term.key}: ${term.value}`).join(', ')} (edit the expression to change it).</p>
      ) : null}

      {body.kind === 'list' ? (
        <fieldset className="fieldset expression-list">
          <legend className="field-label">Labels in the list</legend>
          <div className="expression-list-options">
            {[...BREACH_LABELS, ...extraLabels].map((label) => {
              const checked = listed.includes(label);
              return (
                <label key={label} className="check-inline">
                  <input type="checkbox" checked={checked} disabled={checked && listed.length === 1} onChange={(event) => toggleListed(label, event.target.checked)} />
                  {label}
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : null}

      <div className="field">
        <label className="field-label" htmlFor={`${id}-text`}>
          Relation expression
        </label>
        <input
          id={`${id}-text`}
          className="input input-mono"
          type="text"
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => onChange(event.target.value)}
        />
        {/* Present from the start: a live region added together with its text may go unread. */}
        <div className="expression-feedback" aria-live="polite">
          {error ? (
            <div className="field-error expression-error" id={errorId}>
              <Icon name="alert" size={14} />
              <span>
                {error.message}
                <code className="expression-caret" aria-hidden="true">
                  {text.slice(0, error.index)}
                  <mark>{text.charAt(error.index) || ' '}</mark>
                  {text.slice(error.index + 1)}
                </code>
              </span>
            </div>
          ) : null}
        </div>
        <p className="field-hint" id={hintId}>
          {parsed.ok ? describeExpression(parsed.ast) : 'For example ->*, <-dataClass, ->[name, domain] or <-typeOf{typeOf:Breach}.'}
          {parsed.ok && parsed.ast.hops.length > 1 ? ' The controls edit the first step; the embedded engine answers one step at a time.' : ''}
        </p>
      </div>
    </div>
  );
}
