import { useEffect } from 'react';
import { Credit, PasswordDataCredit } from '../../components/Credit.tsx';
import { EmptyState, ErrorState, Skeleton } from '../../components/States.tsx';
import { formatCount, formatDateTime, plural } from '../../lib/format.ts';
import { useChecks } from '../../state/checks.ts';
import { useLogins } from '../../state/logins.ts';
import { viewCreditsHibp } from '../../../shared/ipc/checks.ts';
import { LOGIN_EXPORT_FORMAT_NAMES, type LoginsView } from '../../../shared/ipc/logins.ts';
import { DemoLabel } from '../checks/DemoLabel.tsx';
import { ForgetLogins } from './ForgetLogins.tsx';
import { ImportCard } from './ImportCard.tsx';
import { LoginList } from './LoginList.tsx';
import { PasswordCheck } from './PasswordCheck.tsx';

/**
 * "Your accounts": the person's logins from a password manager's export, matched here against
 * the breach catalog's sites and (5 characters of each password's hash) Pwned Passwords.
 */
export function LoginsPage() {
  const view = useLogins((s) => s.view);
  const loaded = useLogins((s) => s.loaded);
  const error = useLogins((s) => s.error);
  const load = useLogins((s) => s.load);
  const checks = useChecks((s) => s.view);

  useEffect(() => {
    void load();
  }, [load]);

  const breachesShown = view.logins.some((login) => login.breaches.length > 0);
  const passwordsChecked = view.passwordCheck.state !== 'idle' || view.logins.some((login) => login.pwned.state === 'found' || login.pwned.state === 'not-found');
  let body;
  if (error && !loaded) body = <ErrorState title="Your accounts couldn’t be loaded" message={error} onRetry={() => void load()} />;
  else if (!loaded) body = <Skeleton lines={6} className="card" />;
  else if (view.imports.length === 0 && view.logins.length === 0)
    body = (
      <EmptyState icon="lock" title="No accounts imported yet">
        <p>
          Import the export of your password manager above: you’ll see which sites where you have an account were breached, and which passwords are known to attackers or used at more than one site.
        </p>
      </EmptyState>
    );
  else
    body = (
      <>
        <Summary view={view} />
        <PasswordCheck check={view.passwordCheck} />
        <LoginList logins={view.logins} />
      </>
    );

  return (
    <div className="page logins-page">
      <div className="page-head">
        <h1 className="page-title">Your accounts</h1>
      </div>
      {/* Sites are matched to the catalog: invented with demo data unless the service credits Have I Been Pwned for it. */}
      {breachesShown && !viewCreditsHibp(checks) ? <DemoLabel /> : null}
      <p className="page-lead">Which sites where you have an account were breached, and whether the password you use there is already known to attackers.</p>
      <ImportCard />
      {body}
      {loaded ? <ForgetLogins count={view.logins.length} /> : null}
      {breachesShown && viewCreditsHibp(checks) ? <Credit /> : null}
      {passwordsChecked ? <PasswordDataCredit /> : null}
    </div>
  );
}

function Summary({ view }: { view: LoginsView }) {
  const last = view.imports[0];
  const { summary } = view;
  return (
    <section className="card logins-summary" aria-label="Summary">
      <ul className="logins-counts">
        <li>
          <strong>{formatCount(summary.logins)}</strong> {summary.logins === 1 ? 'login' : 'logins'}
        </li>
        <li className={summary.breachedSites > 0 ? 'is-bad' : undefined}>
          <strong>{formatCount(summary.breachedSites)}</strong> {summary.breachedSites === 1 ? 'breached site' : 'breached sites'}
        </li>
        <li className={summary.pwnedPasswords > 0 ? 'is-bad' : undefined}>
          <strong>{formatCount(summary.pwnedPasswords)}</strong> {summary.pwnedPasswords === 1 ? 'password known to attackers' : 'passwords known to attackers'}
        </li>
        <li className={summary.reusedPasswords > 0 ? 'is-bad' : undefined}>
          <strong>{formatCount(summary.reusedPasswords)}</strong> {summary.reusedPasswords === 1 ? 'reused password' : 'reused passwords'}
        </li>
      </ul>
      {last ? (
        <p className="muted">
          Last import: {LOGIN_EXPORT_FORMAT_NAMES[last.format]}, {formatDateTime(last.importedAt)}, {plural(last.logins, 'login')}
          {last.skipped > 0 ? `, ${plural(last.skipped, 'row')} skipped` : ''}.
        </p>
      ) : null}
    </section>
  );
}
