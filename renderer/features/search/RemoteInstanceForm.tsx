import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearch } from '../../state/search.ts';

/** The remote search instance: where it is and its API token (write-only: kept in the keychain, never shown back). */
export function RemoteInstanceForm() {
  const id = useId();
  const { remote, saveRemote } = useSearch();
  const [baseUrl, setBaseUrl] = useState('');
  const [accountId, setAccountId] = useState('local');
  const [name, setName] = useState('breaches');
  const [legacy, setLegacy] = useState(false);
  const [token, setToken] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();

  useEffect(() => {
    if (!remote?.instance) return;
    setBaseUrl(remote.instance.baseUrl);
    setAccountId(remote.instance.accountId);
    setName(remote.instance.name);
    setLegacy(remote.instance.legacy);
  }, [remote?.instance]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await saveRemote({ baseUrl: baseUrl.trim(), accountId: accountId.trim(), name: name.trim(), legacy, ...(token ? { token } : {}) });
      setToken('');
      setMessage({ kind: 'ok', text: saved.hasToken ? 'Saved. The API token is in the keychain.' : 'Saved. Add an API token to search there.' });
    } catch (error) {
      setMessage({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <section className="card search-remote" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Remote search instance
      </h2>
      <form onSubmit={(e) => void submit(e)} className="search-remote-form">
        <label className="field-label">
          API base URL <input className="input" type="url" required value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://api.example.com/client/v4" />
        </label>
        <label className="field-label">
          Account ID <input className="input" required value={accountId} onChange={(e) => setAccountId(e.target.value)} />
        </label>
        <label className="field-label">
          Instance name <input className="input" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="check-field">
          <input type="checkbox" checked={legacy} onChange={(e) => setLegacy(e.target.checked)} /> Legacy instance (legacy-rag)
        </label>
        <label className="field-label">
          API token{' '}
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            placeholder={remote?.hasToken ? 'saved in the keychain; type to replace' : 'Bearer token with ai-search:read and ai-search:run'}
          />
        </label>
        <div className="form-actions">
          <button type="submit" className="button">
            Save instance
          </button>
        </div>
        {message ? (
          <p role={message.kind === 'error' ? 'alert' : 'status'} className={message.kind === 'error' ? 'field-error' : 'form-note'}>
            {message.text}
          </p>
        ) : null}
      </form>
    </section>
  );
}
