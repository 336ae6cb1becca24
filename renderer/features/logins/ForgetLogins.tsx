import { useEffect, useId, useRef, useState } from 'react';
import { toUiError } from '../../lib/core.ts';
import { plural } from '../../lib/format.ts';
import { useLogins } from '../../state/logins.ts';

/** "Forget imported logins", after a confirmation that says what goes and what stays; Escape or Cancel changes nothing. */
export function ForgetLogins({ count }: { count: number }) {
  const id = useId();
  const forget = useLogins((s) => s.forget);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);

  function cancel() {
    setConfirming(false);
    setError(undefined);
    queueMicrotask(() => opener.current?.focus());
  }

  async function forgetNow() {
    setBusy(true);
    setError(undefined);
    try {
      await forget();
      setConfirming(false);
      setDone(true);
    } catch (caught) {
      setError(toUiError(caught).message);
    } finally {
      setBusy(false);
    }
  }

  if (done && count === 0)
    return (
      <p className="form-note" role="status">
        The imported logins were forgotten on this computer.
      </p>
    );
  if (count === 0) return null;
  return (
    <section className="logins-forget" aria-label="Forget imported logins">
      {confirming ? (
        <div
          className="fieldset switch-confirm"
          role="dialog"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-body`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              cancel();
            }
          }}
        >
          <p className="card-title" id={`${id}-title`}>
            Forget every imported login?
          </p>
          <p id={`${id}-body`}>
            The {plural(count, 'login')}, their findings and what was marked dealt with are removed from this computer. Your password manager and any export file are not touched.
          </p>
          {error ? (
            <p className="form-message is-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="form-actions">
            <button ref={confirm} type="button" className="button button-danger" disabled={busy} onClick={() => void forgetNow()}>
              {busy ? 'Forgetting…' : 'Forget them'}
            </button>
            <button type="button" className="button button-ghost" disabled={busy} onClick={cancel}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button ref={opener} type="button" className="button button-ghost" onClick={() => setConfirming(true)}>
          Forget imported logins
        </button>
      )}
    </section>
  );
}
