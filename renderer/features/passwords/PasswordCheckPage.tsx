import { useId, useRef, useState } from 'react';
import { PasswordDataCredit } from '../../components/Credit.tsx';
import { Icon } from '../../components/Icon.tsx';
import { Spinner } from '../../components/States.tsx';
import { toUiError } from '../../lib/core.ts';
import { pwnedVerdict } from '../../lib/pwnedHash.ts';
import { pwnedCount } from '../../state/passwords.ts';

type State = { kind: 'idle' } | { kind: 'checking' } | { kind: 'result'; count: number } | { kind: 'error'; message: string };

/**
 * "Check a password" with Pwned Passwords. The field is uncontrolled: the password is never
 * React state. On "Check", it is read once, the field is cleared, the SHA-1 is computed here
 * (WebCrypto), and only its first 5 characters go to the core (the channel admits nothing
 * else), which asks the range API; the suffix is matched on this page and then dropped. What
 * stays is the count.
 */
export function PasswordCheckPage() {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [empty, setEmpty] = useState(false);

  async function check() {
    const input = field.current;
    if (!input) return;
    if (input.value === '') {
      setEmpty(true);
      input.focus();
      return;
    }
    setEmpty(false);
    // Read once and cleared at once: from here the password lives only in this call.
    const counted = pwnedCount(input.value);
    input.value = '';
    setState({ kind: 'checking' });
    try {
      setState({ kind: 'result', count: await counted });
    } catch (error) {
      setState({ kind: 'error', message: toUiError(error).message });
    }
  }

  const checking = state.kind === 'checking';
  return (
    <div className="page page-narrow password-page">
      <div className="page-head">
        <h1 className="page-title">Check a password</h1>
      </div>
      <section className="card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="card-title">
          Has this password been in a breach?
        </h2>
        <p className="muted">
          Your password never leaves this computer. Breach Monitor hashes it here (SHA-1) and sends only the first 5 characters of the hash; the answer lists every breached password starting the same
          way, and the match happens here. Nothing is stored, and the field is cleared as soon as you press Check.
        </p>
        <form
          className="password-form"
          aria-label="Check a password"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void check();
          }}
        >
          <div className="field">
            <label className="field-label" htmlFor={`${id}-password`}>
              Password
            </label>
            <input
              ref={field}
              id={`${id}-password`}
              className="input"
              type="password"
              autoComplete="off"
              spellCheck={false}
              disabled={checking}
              aria-invalid={empty ? true : undefined}
              aria-describedby={empty ? `${id}-error` : undefined}
              onChange={() => setEmpty(false)}
            />
            {empty ? (
              <p className="field-error" id={`${id}-error`}>
                <Icon name="alert" size={14} /> Type a password to check.
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button-primary" disabled={checking}>
            Check
          </button>
        </form>
        <div className="password-result" aria-live="polite" aria-busy={checking}>
          {state.kind === 'checking' ? (
            <p role="status">
              <Spinner label="Checking with Pwned Passwords…" />
            </p>
          ) : state.kind === 'result' ? (
            <p role="status" className={state.count > 0 ? 'password-verdict is-pwned' : 'password-verdict is-clean'}>
              <Icon name={state.count > 0 ? 'alert' : 'check'} />
              <span>
                <strong>{pwnedVerdict(state.count)}</strong>{' '}
                {state.count > 0
                  ? 'Anyone trying passwords from breach lists will try this one early. Change it wherever you use it.'
                  : 'That is good, though it says nothing about how easy it is to guess; a password manager gives each site its own.'}
              </span>
            </p>
          ) : state.kind === 'error' ? (
            <p role="alert" className="form-error">
              <Icon name="alert" />
              <span>
                <strong>The password couldn’t be checked.</strong> {state.message} Type it again to retry.
              </span>
            </p>
          ) : null}
        </div>
      </section>
      <PasswordDataCredit />
    </div>
  );
}
