import { useEffect, useId, useState } from 'react';
import type { FeedAuth, FeedStatus } from '../../../shared/ipc/feed.ts';
import { invoke, toUiError } from '../../lib/core.ts';
import { formatDateTime } from '../../lib/format.ts';

const CHOICES: { value: FeedAuth; label: string; hint: string }[] = [
  { value: 'none', label: 'None', hint: 'The catalog is public; nothing is sent.' },
  { value: 'id-token', label: 'My sign-in', hint: 'Your sign-in’s ID token; the database’s rules apply.' },
  { value: 'service-account', label: 'Service account', hint: 'A key file; kept in the keychain.' },
  { value: 'secret', label: 'Database secret', hint: 'A legacy secret; kept in the keychain.' },
];

/**
 * Where the breach details (titles, descriptions, logos, counts) come from and how the app
 * authenticates there. Credentials go to the core and its keychain; they never come back.
 */
export function FeedSection() {
  const id = useId();
  const [status, setStatus] = useState<FeedStatus>();
  const [auth, setAuth] = useState<FeedAuth>('none');
  const [keyFile, setKeyFile] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    invoke('feed-status', {}).then(
      (next) => {
        setStatus(next);
        setAuth(next.auth);
      },
      (e: unknown) => setError(toUiError(e).message),
    );
  }, []);

  async function run(action: () => Promise<FeedStatus>) {
    setBusy(true);
    setError(undefined);
    try {
      const next = await action();
      setStatus(next);
      setAuth(next.auth);
      setKeyFile('');
      setSecret('');
    } catch (e) {
      setError(toUiError(e).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Breach details feed
      </h2>
      {status ? <p className="muted">{status.url}</p> : null}
      <fieldset className="segmented">
        <legend className="field-label">Authentication</legend>
        {CHOICES.map((choice) => (
          <label key={choice.value} className={auth === choice.value ? 'segment is-checked' : 'segment'} title={choice.hint}>
            <input type="radio" name={`${id}-auth`} value={choice.value} checked={auth === choice.value} onChange={() => setAuth(choice.value)} />
            {choice.label}
          </label>
        ))}
      </fieldset>
      {auth === 'service-account' ? (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-key`}>
            Service-account key file (JSON)
          </label>
          <textarea id={`${id}-key`} className="input" rows={4} value={keyFile} onChange={(event) => setKeyFile(event.target.value)} placeholder={status?.hasServiceAccountKey ? `Stored: ${status.serviceAccountEmail ?? 'a key file'}` : 'Paste the key file’s contents'} />
        </div>
      ) : null}
      {auth === 'secret' ? (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-secret`}>
            Secret
          </label>
          <input id={`${id}-secret`} className="input" type="password" autoComplete="off" value={secret} onChange={(event) => setSecret(event.target.value)} placeholder={status?.hasSecret ? 'Stored' : ''} />
          <p className="form-note" role="note">
            Discouraged: database secrets are a legacy credential that never expires and gives full access. Prefer a service account or your sign-in.
          </p>
        </div>
      ) : null}
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => void run(() => invoke('feed-configure', { auth, ...(keyFile.trim() ? { serviceAccountKey: keyFile.trim() } : {}), ...(secret ? { secret } : {}) }))}
        >
          Save
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void run(() => invoke('feed-sync', {}))}>
          Update details now
        </button>
      </div>
      {status?.lastSync ? (
        <p className="muted">
          {status.lastSync.count} breaches’ details, checked {formatDateTime(status.lastSync.at)}
          {status.lastSync.skipped.length > 0 ? `; ${status.lastSync.skipped.length} entries were not usable` : ''}
        </p>
      ) : null}
      {status?.lastError ? (
        <p className="field-error" role="alert">
          The details could not be updated: {status.lastError}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
