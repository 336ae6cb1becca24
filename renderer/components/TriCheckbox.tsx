import { useEffect, useRef } from 'react';

/** A native checkbox that can also be "mixed" (some of the cells it stands for are resolved). */
export function TriCheckbox({ checked, mixed, label, disabled, onChange }: { checked: boolean; mixed: boolean; label: string; disabled?: boolean; onChange(next: boolean): void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="checkbox"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      // Mixed means "not all resolved": the click resolves the rest.
      onChange={() => onChange(mixed ? true : !checked)}
    />
  );
}
