import type { ReactNode } from 'react';
import { Icon } from './Icon.tsx';

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  type?: 'url' | 'number' | 'password' | 'text' | 'email';
  /** Says what belongs here; read out with the field. */
  hint?: ReactNode;
  /** Says what is wrong; marks the field invalid and is read out with it. */
  error?: string | undefined;
  placeholder?: string | undefined;
  autoComplete?: string;
  min?: number;
  max?: number;
}

/** A labelled one-line field with its hint and error wired to it for assistive technology (one place for every form). */
export function TextField({ id, label, value, onChange, type = 'text', hint, error, placeholder, autoComplete, min, max }: TextFieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={type === 'number' ? 'input input-number' : 'input'}
        type={type}
        inputMode={type === 'number' ? 'numeric' : type === 'url' ? 'url' : type === 'email' ? 'email' : undefined}
        spellCheck={false}
        autoComplete={autoComplete ?? (type === 'password' ? 'off' : undefined)}
        min={min}
        max={max}
        value={value}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          <Icon name="alert" size={14} /> {error}
        </p>
      ) : null}
    </div>
  );
}
