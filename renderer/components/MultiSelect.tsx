import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Icon } from './Icon.tsx';

interface MultiSelectProps {
  label: string;
  options: readonly string[];
  selected: readonly string[];
  onChange(next: string[]): void;
  /** Shown beside the options' filter field. */
  hint?: string;
}

/**
 * A disclosure button over a panel of native checkboxes: screen readers and keyboard users get
 * ordinary checkboxes, and a filter field keeps a catalog's hundred-odd data classes usable.
 */
export function MultiSelect({ label, options, selected, onChange, hint }: MultiSelectProps) {
  const [open, setOpen] = useState(false);
  const [needle, setNeedle] = useState('');
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const filterField = useRef<HTMLInputElement>(null);
  const chosen = useMemo(() => new Set(selected.map((s) => s.toLowerCase())), [selected]);

  // Selected values stay listed even when local data no longer has them (a stale URL).
  const all = useMemo(() => {
    const known = new Set(options.map((o) => o.toLowerCase()));
    return [...selected.filter((s) => !known.has(s.toLowerCase())), ...options];
  }, [options, selected]);
  const visible = needle ? all.filter((o) => o.toLowerCase().includes(needle.toLowerCase())) : all;

  useEffect(() => {
    if (!open) return;
    filterField.current?.focus();
    const onPointer = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  function toggle(option: string, checked: boolean) {
    const key = option.toLowerCase();
    onChange(checked ? [...selected, option] : selected.filter((s) => s.toLowerCase() !== key));
  }

  function close() {
    setOpen(false);
    setNeedle('');
    button.current?.focus();
  }

  return (
    <div
      className="multiselect"
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close();
        }
      }}
      onBlur={(event) => {
        if (open && root.current && !root.current.contains(event.relatedTarget as Node | null) && event.relatedTarget !== null) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className={selected.length > 0 ? 'button button-filter is-active' : 'button button-filter'}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {label}
        {selected.length > 0 ? (
          <span className="count-badge">
            {selected.length}
            <span className="visually-hidden"> selected</span>
          </span>
        ) : null}
        <Icon name="chevronDown" size={14} />
      </button>
      {open ? (
        <div className="popover" id={`${id}-panel`} role="group" aria-label={label}>
          <div className="popover-head">
            <label className="visually-hidden" htmlFor={`${id}-filter`}>
              Find in {label.toLowerCase()}
            </label>
            <input
              ref={filterField}
              id={`${id}-filter`}
              className="input input-small"
              type="search"
              placeholder={`Find ${label.toLowerCase()}`}
              value={needle}
              onChange={(event) => setNeedle(event.target.value)}
            />
            {hint ? <p className="popover-hint">{hint}</p> : null}
          </div>
          <ul className="popover-options">
            {visible.length === 0 ? <li className="popover-empty">No matches</li> : null}
            {visible.map((option) => (
              <li key={option}>
                <label className="check-row">
                  <input type="checkbox" checked={chosen.has(option.toLowerCase())} onChange={(event) => toggle(option, event.target.checked)} />
                  <span>{option}</span>
                </label>
              </li>
            ))}
          </ul>
          <div className="popover-foot">
            <button type="button" className="button button-ghost button-small" disabled={selected.length === 0} onClick={() => onChange([])}>
              Clear
            </button>
            <button type="button" className="button button-small" onClick={close}>
              Done
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
