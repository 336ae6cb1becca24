import { useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { toUiError } from '../../lib/core.ts';
import { useLogins } from '../../state/logins.ts';
import type { PasswordCheckStatus } from '../../../shared/ipc/logins.ts';
import { checkLine } from './loginsText.ts';

/** The background Pwned Passwords check: where it is, why it waits, and Cancel while it can be stopped. */
export function PasswordCheck({ check }: { check: PasswordCheckStatus }) {
  const cancelCheck = useLogins((s) => s.cancelCheck);
  const [error, setError] = useState<string>();
  const line = checkLine(check);
  const going = check.state === 'running' || check.state === 'waiting-for-network';
  if (!line) return null;
  return (
    <div className={`logins-check logins-check-${check.state}`}>
      <p role="status" className="logins-check-line">
        {check.state === 'waiting-for-network' ? <Icon name="cloudOff" /> : check.state === 'failed' ? <Icon name="alert" /> : null}
        <span>{line}</span>
      </p>
      {going ? (
        <div className="logins-check-actions">
          <progress className="progress" aria-label="Password check progress" value={check.done} max={Math.max(check.total, 1)} />
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setError(undefined);
              cancelCheck().catch((caught: unknown) => setError(toUiError(caught).message));
            }}
          >
            Cancel check
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="form-message is-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
