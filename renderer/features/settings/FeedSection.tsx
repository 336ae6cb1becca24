import { useEffect, useId, useState } from 'react';
import { FeedUrl, type FeedAuth, type FeedStatus } from '../../../shared/ipc/feed.ts';
import { TextField } from '../../components/TextField.tsx';
import { toUiError } from '../../lib/core.ts';
import { configureFeed, feedStatus, syncFeed } from '../../state/feed.ts';
import { formatDateTime } from '../../lib/format.ts';
import { secretPlace } from '../../lib/secretPlace.ts';
import { useAuth } from '../../state/auth.ts';

function choices(kept: string): { value: FeedAuth; label: string; hint: string }[] {
  return [
    { value: 'none', label: 'None', hint: 'The catalog is public; nothing is sent.' },
    { value: 'id-token', label: 'My sign-in', hint: 'Your sign-in’s ID token; the database’s rules apply.' },
    { value: 'service-account', label: 'Service account', hint: `A key file; ${kept}.` },
    { value: 'secret', label: 'Database secret', hint: `A legacy secret; ${kept}.` },
  ];
}

/**
 * Where the breach details (titles, descriptions, logos, counts) come from and how the app
 * authenticates there. Credentials go to the core and its keychain; they never come back.
 */
export function FeedSection() {
  const id = useId();
  const place = secretPlace(useAuth((state) => state.status));
  const [status, setStatus] = useState<FeedStatus>();
  const [auth, setAuth] = useState<FeedAuth>('none');
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string>();
  const [keyFile, setKeyFile] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    feedStatus().then(
      (next) => {
        setStatus(next);
        setAuth(next.auth);
        setUrl(next.url);
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
      setUrl(next.url);
      setKeyFile('');
      setSecret('');
    } catch (e) {
      setError(toUiError(e).message);
    } finally {
      setBusy(false);
    }
  }

  /** Only a changed address is sent, checked first with the core's own schema; an empty field means the default. */
  function save() {
    const trimmed = url.trim();
    const changed = status !== undefined && trimmed !== status.url && !(trimmed === '' && status.url === status.defaultUrl);
    if (changed && trimmed === '') {
      setUrlError(undefined);
      void run(() => configureFeed({ url: null, auth }));
      return;
    }
    if (changed) {
      const parsed = FeedUrl.safeParse(trimmed);
      if (!parsed.success) {
        setUrlError(`The feed address ${parsed.error.issues[0]!.message}.`);
        return;
      }
    }
    setUrlError(undefined);
    void run(() => configureFeed({ ...(changed ? { url: trimmed } : {}), auth, ...(keyFile.trim() ? { serviceAccountKey: keyFile.trim() } : {}), ...(secret ? { secret } : {}) }));
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Breach details feed
      </h2>
      <TextField
        id={`${id}-url`}
        label="Feed address"
        type="url"
        value={url}
        placeholder={status?.defaultUrl}
        error={urlError}
        hint="A realtime database holding the breach catalog; by default the account server’s /rtdb. Leave it empty to use the default."
        onChange={(value) => {
          setUrl(value);
          setUrlError(undefined);
        }}
      />
      {status && status.url !== status.defaultUrl ? (
        <div className="field-actions">
          <button type="button" className="button button-ghost" disabled={busy} onClick={() => void run(() => configureFeed({ url: null, auth }))}>
            Use the default address
          </button>
        </div>
      ) : null}
      <fieldset className="segmented">
        <legend className="field-label">Authentication</legend>
        {choices(place.saved).map((choice) => (
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
          <textarea
            id={`${id}-key`}
            className="input"
            rows={4}
            value={keyFile}
            onChange={(event) => setKeyFile(event.target.value)}
            placeholder={status?.hasServiceAccountKey ? `Stored: ${status.serviceAccountEmail ?? 'a key file'}` : 'Paste the key file’s contents'}
          />
        </div>
      ) : null}
      {auth === 'secret' ? (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-secret`}>
            Secret
          </label>
          <input
            id={`${id}-secret`}
            className="input"
            type="password"
            autoComplete="off"
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
            placeholder={status?.hasSecret ? 'Stored' : ''}
          />
          <p className="form-note" role="note">
            Discouraged: database secrets are a legacy credential that never expires and gives full access. Prefer a service account or your sign-in.
          </p>
        </div>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button button-primary" disabled={busy} onClick={save}>
          Save
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => void run(() => syncFeed())}>
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
