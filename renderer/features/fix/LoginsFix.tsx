import { useEffect, useId, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { toUiError } from '../../lib/core.ts';
import { plural } from '../../lib/format.ts';
import { EMPTY_FILTERS, formatHash } from '../../lib/urlState.ts';
import { openLink } from '../../state/breachMedia.ts';
import { useLogins } from '../../state/logins.ts';
import type { Login } from '../../../shared/ipc/logins.ts';
import { findingLines, isOpen, siteName } from '../logins/loginsText.ts';

/**
 * The guided fix for the person's accounts (issue 38): each login with an open finding, as one
 * step "Change your password at example.com", with the site's change-password link (the W3C
 * well-known address, opened through the core) and "Mark as dealt with".
 */
export function LoginsFix() {
  const headingId = useId();
  const logins = useLogins((s) => s.view.logins);
  const load = useLogins((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  const open = logins.filter(isOpen);
  if (open.length === 0) return null;
  return (
    <section className="card fix-group logins-fix" aria-labelledby={headingId}>
      <div className="fix-group-head">
        <span className="fix-number" aria-hidden="true">
          <Icon name="key" size={16} />
        </span>
        <h2 id={headingId} className="card-title fix-title">
          Your accounts at breached sites
        </h2>
        <span className="fix-status">{plural(open.length, 'login')} left</span>
      </div>
      <p className="card-note">
        From the export you imported on <a href={formatHash({ screen: 'logins', filters: EMPTY_FILTERS })}>Your accounts</a>: a breach at the site since the password last changed, a password known to
        attackers, or one used at several sites. Give each its own new password, ideally from your password manager.
      </p>
      <ol className="fix-steps logins-fix-steps">
        {open.map((login) => (
          <LoginStep key={login.id} login={login} />
        ))}
      </ol>
    </section>
  );
}

function LoginStep({ login }: { login: Login }) {
  const resolve = useLogins((s) => s.resolve);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const name = siteName(login);
  const who = `${name} (${login.username || 'no username'})`;
  return (
    <li className="logins-fix-step">
      <p>
        <strong>Change your password at {name}</strong> <span className="muted">({login.username || 'no username'})</span>
      </p>
      <ul className="login-findings">
        {findingLines(login).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div className="form-actions login-actions">
        {login.changePasswordUrl ? (
          <button type="button" className="button button-small" aria-label={`Change password at ${who}`} onClick={() => void openLink(login.changePasswordUrl!)}>
            <Icon name="external" size={12} />
            Change password
          </button>
        ) : null}
        <button
          type="button"
          className="button button-small button-ghost"
          disabled={busy}
          aria-label={`Mark as dealt with: ${who}`}
          onClick={() => {
            setBusy(true);
            setError(undefined);
            resolve(login.id, true)
              .catch((caught: unknown) => setError(toUiError(caught).message))
              .finally(() => setBusy(false));
          }}
        >
          <Icon name="check" size={12} />
          Mark as dealt with
        </button>
      </div>
      {error ? (
        <p className="form-message is-error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
