import { useEffect, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { HIBP_URL } from '../../components/Credit.tsx';
import { formatHash, EMPTY_FILTERS } from '../../lib/urlState.ts';
import { useChecks } from '../../state/checks.ts';
import { addressLine, checkingLine, checkProgress, queueLine, stealerLine } from './checksText.ts';

/** Re-renders every 30 s so "next check in 3 min" counts down. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Credit where Have I Been Pwned's data about the person's own addresses is shown. */
export function HibpExposureCredit({ what = 'Breach checks' }: { what?: string }) {
  return (
    <p className="credit">
      {what} by{' '}
      <a href={HIBP_URL} target="_blank" rel="noreferrer">
        Have I Been Pwned
      </a>
    </p>
  );
}

/**
 * Each address: when it was last checked and what was found ("checked …, in no known breach"),
 * the lookup queue ("next check in 3 min — your key allows 10 lookups a minute"), and stealer
 * logs beside the breaches. Shown only when the service says (`GET /user/checks`); an older
 * service shows nothing here rather than something invented.
 */
export function AddressChecks() {
  const view = useChecks((s) => s.view);
  const now = useNow();
  const checks = view.checks;
  if (!checks || checks.addresses.length === 0) return null;
  const progress = checkProgress(view);
  const queue = checks.source === 'hibp' ? queueLine(checks.queue, now) : undefined;
  const checking = checkingLine(view);
  return (
    <section className="card address-checks" aria-labelledby="address-checks-title">
      <h2 id="address-checks-title" className="card-title">
        Your addresses
      </h2>
      {checking && progress ? (
        <div className="address-checks-progress">
          <p>{checking}</p>
          <progress className="checks-progress" max={progress.total} value={progress.done} aria-label={`${progress.done} of ${progress.total} addresses checked`} />
        </div>
      ) : null}
      <ul className="address-list">
        {checks.addresses.map((address) => (
          <li key={address.email} className={`address-row address-${address.state}`}>
            <Icon name={address.state === 'checked' ? (address.breachCount ? 'alert' : 'check') : address.state === 'pending' ? 'clock' : 'alert'} />
            <span className="address-email">{address.email}</span>
            <span className="address-state">{addressLine(address, now)}</span>
          </li>
        ))}
      </ul>
      {queue ? <p className="muted address-queue">{queue}</p> : null}
      {checks.stealerLogs.entries.length > 0 ? (
        <div className="stealer-logs" role="group" aria-label="Stealer logs">
          {checks.stealerLogs.entries.map((entry) => (
            <p key={entry.email} className="stealer-line">
              <Icon name="lock" />
              <span>
                <strong>{stealerLine(entry.domains)}</strong> ({entry.email}). <a href={formatHash({ screen: 'fix', filters: EMPTY_FILTERS, fix: { group: 'stealer-logs' } })}>What to do</a>
              </span>
            </p>
          ))}
          <HibpExposureCredit what="Stealer logs" />
        </div>
      ) : null}
      {checks.source === 'hibp' ? <HibpExposureCredit /> : null}
    </section>
  );
}
