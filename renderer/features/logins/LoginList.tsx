import { useId, useMemo, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { toUiError } from '../../lib/core.ts';
import { formatCount, formatDate, formatDateTime, plural } from '../../lib/format.ts';
import { openLink } from '../../state/breachMedia.ts';
import { useLogins } from '../../state/logins.ts';
import type { Login } from '../../../shared/ipc/logins.ts';
import { hasFindings, isOpen, pwnedWords, siteName, VERDICT_WORDS } from './loginsText.ts';

/** Rows drawn at first and per "Show more": an export of thousands of logins stays quick to open. */
export const LOGINS_PER_PAGE = 200;

/** Open findings first, then the rest; by site within each. */
function ordered(logins: Login[]): Login[] {
  return [...logins].sort((a, b) => Number(isOpen(b)) - Number(isOpen(a)) || siteName(a).localeCompare(siteName(b)) || a.username.localeCompare(b.username));
}

/** Every imported login with its findings; a filter keeps only those with something to act on. */
export function LoginList({ logins }: { logins: Login[] }) {
  const id = useId();
  const [onlyFindings, setOnlyFindings] = useState(false);
  const [limit, setLimit] = useState(LOGINS_PER_PAGE);
  const shown = useMemo(() => ordered(onlyFindings ? logins.filter(hasFindings) : logins), [logins, onlyFindings]);
  const more = Math.min(LOGINS_PER_PAGE, shown.length - limit);
  return (
    <section className="card logins-list-card" aria-labelledby={`${id}-title`}>
      <div className="logins-list-head">
        <h2 id={`${id}-title`} className="card-title">
          Your logins
        </h2>
        <label className="check-inline">
          <input type="checkbox" className="checkbox" checked={onlyFindings} onChange={(event) => setOnlyFindings(event.target.checked)} />
          Show only logins with findings
        </label>
      </div>
      <p className="muted" role="status">
        {onlyFindings ? `${plural(shown.length, 'login')} with findings, of ${logins.length}` : `${plural(logins.length, 'login')}`}
      </p>
      {shown.length > 0 ? (
        <ul className="logins-list" aria-label="Logins">
          {shown.slice(0, limit).map((login) => (
            <LoginRow key={login.id} login={login} />
          ))}
        </ul>
      ) : (
        <p className="muted">No login has a finding.</p>
      )}
      {more > 0 ? (
        <button type="button" className="button button-small logins-more" onClick={() => setLimit(limit + LOGINS_PER_PAGE)}>
          Show {plural(more, 'more login')} (of {formatCount(shown.length)})
        </button>
      ) : null}
    </section>
  );
}

function LoginRow({ login }: { login: Login }) {
  const id = useId();
  const resolve = useLogins((s) => s.resolve);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const name = siteName(login);
  const open = isOpen(login);
  const who = `${name} (${login.username || 'no username'})`;

  async function mark(resolved: boolean) {
    setBusy(true);
    setError(undefined);
    try {
      await resolve(login.id, resolved);
    } catch (caught) {
      setError(toUiError(caught).message);
    } finally {
      setBusy(false);
    }
  }

  const pwned = pwnedWords(login);
  return (
    <li className={open ? 'login-row has-findings' : 'login-row'} aria-labelledby={`${id}-site`}>
      <div className="login-row-head">
        <Icon name={open ? 'alert' : login.resolvedAt ? 'check' : 'lock'} />
        <h3 className="login-site" id={`${id}-site`}>
          {name}
        </h3>
        <span className="login-username">{login.username || 'no username'}</span>
      </div>
      <ul className="login-findings">
        {login.breaches.map((breach) => (
          <li key={breach.breachId} className={`login-finding verdict-${breach.verdict}`}>
            <strong>
              {breach.title} breach, {formatDate(breach.breachDate)}:
            </strong>{' '}
            {VERDICT_WORDS[breach.verdict]}
          </li>
        ))}
        {login.reusedWith > 0 ? <li className="login-finding is-reused">Reused password: used at {plural(login.reusedWith + 1, 'site')}</li> : null}
        {pwned ? <li className={login.pwned.state === 'found' ? 'login-finding is-pwned' : 'login-finding is-quiet'}>{pwned}</li> : null}
      </ul>
      {login.resolvedAt ? <p className="muted">Marked dealt with on {formatDateTime(login.resolvedAt)}.</p> : null}
      <div className="form-actions login-actions">
        {login.changePasswordUrl && open ? (
          <button type="button" className="button button-small" aria-label={`Change password at ${who}`} onClick={() => void openLink(login.changePasswordUrl!)}>
            <Icon name="external" size={12} />
            Change password
          </button>
        ) : null}
        {open ? (
          <button type="button" className="button button-small button-ghost" disabled={busy} aria-label={`Mark as dealt with: ${who}`} onClick={() => void mark(true)}>
            <Icon name="check" size={12} />
            Mark as dealt with
          </button>
        ) : login.resolvedAt && hasFindings(login) ? (
          <button type="button" className="button button-small button-ghost" disabled={busy} aria-label={`Open again: ${who}`} onClick={() => void mark(false)}>
            Open again
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="form-message is-error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
