import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * The one question before something that cannot be undone with a click (switching service,
 * removing an address, forgetting data): a panel in place, not a modal, that takes the focus on
 * its confirming button, names itself for assistive technology, and closes with Escape.
 */
export function ConfirmPanel(props: {
  title: string;
  /** Fits the panel into the page's outline (default 2). */
  headingLevel?: 2 | 3 | 4;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  /** `danger` for what deletes; `primary` otherwise. */
  tone: 'danger' | 'primary';
  /** Why the last attempt failed, in a sentence. */
  error?: string | undefined;
  onConfirm(): void;
  onCancel(): void;
}) {
  const confirm = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => confirm.current?.focus(), []);
  const Heading = `h${props.headingLevel ?? 2}` as const;
  return (
    <div
      className="fieldset switch-confirm"
      role="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          props.onCancel();
        }
      }}
    >
      <Heading id={`${id}-title`} className="card-title">
        {props.title}
      </Heading>
      <div id={`${id}-body`}>{props.children}</div>
      {props.error ? (
        <p className="form-message is-error" role="alert">
          {props.error}
        </p>
      ) : null}
      <div className="form-actions">
        <button ref={confirm} type="button" className={`button button-${props.tone}`} disabled={props.busy} onClick={props.onConfirm}>
          {props.busy ? props.busyLabel : props.confirmLabel}
        </button>
        <button type="button" className="button button-ghost" disabled={props.busy} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
