import { useRef, useState } from 'react';
import { ConfirmPanel } from '../../components/ConfirmPanel.tsx';
import { toUiError } from '../../lib/core.ts';
import { plural } from '../../lib/format.ts';
import { useLogins } from '../../state/logins.ts';

/** "Forget imported logins", after a confirmation that says what goes and what stays; Escape or Cancel changes nothing. */
export function ForgetLogins({ count }: { count: number }) {
  const forget = useLogins((s) => s.forget);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);

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
        <ConfirmPanel
          title="Forget every imported login?"
          headingLevel={2}
          confirmLabel="Forget them"
          busyLabel="Forgetting…"
          busy={busy}
          tone="danger"
          error={error}
          onConfirm={() => void forgetNow()}
          onCancel={cancel}
        >
          <p>The {plural(count, 'login')}, their findings and what was marked dealt with are removed from this computer. Your password manager and any export file are not touched.</p>
        </ConfirmPanel>
      ) : (
        <button ref={opener} type="button" className="button button-ghost" onClick={() => setConfirming(true)}>
          Forget imported logins
        </button>
      )}
    </section>
  );
}
