import { useEffect, useId, useState, type FormEvent } from 'react';
import { channels } from '../../../shared/ipc/contract.ts';
import { DEFAULT_NAMESPACE } from '../../../shared/search/api.ts';
import { TextField } from '../../components/TextField.tsx';
import { toUiError } from '../../lib/core.ts';
import { firstErrorPerField, type FieldIssue } from '../../lib/fieldErrors.ts';
import { useSearch } from '../../state/search.ts';
import { secretPlace } from '../../lib/secretPlace.ts';
import { useAuth } from '../../state/auth.ts';

const FIELDS = ['baseUrl', 'accountId', 'namespace', 'name', 'token'] as const;
type Field = (typeof FIELDS)[number];
const FALLBACK: Record<Field, string> = {
  baseUrl: 'Enter the full address, such as https://api.example.com/client/v4.',
  accountId: 'Enter the account ID: 1–64 letters, digits, "-" or "_".',
  namespace: 'Enter the namespace: 1–64 letters, digits, "-" or "_" (default unless you made another).',
  name: 'Enter the instance name: 1–64 letters, digits, ".", "-" or "_".',
  token: 'Enter the API token, or leave it empty to keep the saved one.',
};

/** The first problem named for each field: the schema's own words where they are written for people ("must be …"), ours otherwise. */
const errorsByField = (issues: readonly FieldIssue[]) => firstErrorPerField(issues, FIELDS, (field, message) => (message.startsWith('must ') ? `This ${message}.` : FALLBACK[field]));

/** The remote search instance: where it is and its API token (write-only: kept in the keychain, never shown back). */
export function RemoteInstanceForm() {
  const id = useId();
  const place = secretPlace(useAuth((state) => state.status));
  const { remote, saveRemote } = useSearch();
  const [baseUrl, setBaseUrl] = useState('');
  const [accountId, setAccountId] = useState('local');
  const [namespace, setNamespace] = useState(DEFAULT_NAMESPACE);
  const [name, setName] = useState('breaches');
  const [legacy, setLegacy] = useState(false);
  const [token, setToken] = useState('');
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | undefined>();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  useEffect(() => {
    if (!remote?.instance) return;
    setBaseUrl(remote.instance.baseUrl);
    setAccountId(remote.instance.accountId);
    setNamespace(remote.instance.namespace ?? DEFAULT_NAMESPACE);
    setName(remote.instance.name);
    setLegacy(remote.instance.legacy);
  }, [remote?.instance]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(undefined);
    // Legacy (legacy-rag) instances have no namespace.
    const input = { baseUrl: baseUrl.trim(), accountId: accountId.trim(), ...(legacy ? {} : { namespace: namespace.trim() }), name: name.trim(), legacy, ...(token ? { token } : {}) };
    // Checked with the core's own schema first, so each field says what is wrong with it.
    const checked = channels['search-remote-set'].input.safeParse(input);
    if (!checked.success) {
      setErrors(errorsByField(checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))));
      return;
    }
    setErrors({});
    try {
      const saved = await saveRemote(checked.data);
      setToken('');
      setMessage({ kind: 'ok', text: saved.hasToken ? `Saved. The API token is ${place.saved}.` : 'Saved. Add an API token to search there.' });
    } catch (error) {
      const uiError = toUiError(error);
      setErrors(errorsByField(uiError.issues ?? []));
      setMessage({ kind: 'error', text: uiError.message });
    }
  };

  return (
    <section className="card search-remote" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Remote search instance
      </h2>
      <form onSubmit={(e) => void submit(e)} className="search-remote-form">
        <TextField id={`${id}-url`} label="API base URL" type="url" value={baseUrl} placeholder="https://api.example.com/client/v4" error={errors.baseUrl} onChange={setBaseUrl} />
        <TextField id={`${id}-account`} label="Account ID" value={accountId} error={errors.accountId} onChange={setAccountId} />
        {legacy ? null : (
          <TextField
            id={`${id}-namespace`}
            label="Namespace"
            value={namespace}
            error={errors.namespace}
            hint="Every account has “default”; the instance is searched at ai-search/namespaces/‹namespace›/instances/‹name›."
            onChange={setNamespace}
          />
        )}
        <TextField id={`${id}-name`} label="Instance name" value={name} error={errors.name} onChange={setName} />
        <label className="check-field">
          <input type="checkbox" checked={legacy} onChange={(e) => setLegacy(e.target.checked)} /> Legacy instance (legacy-rag, no namespace)
        </label>
        <TextField
          id={`${id}-token`}
          label="API token"
          type="password"
          value={token}
          error={errors.token}
          placeholder={remote?.hasToken ? 'a token is saved; type to replace it' : 'Bearer token with ai-search:read and ai-search:run'}
          hint={remote?.hasToken ? 'A token is saved; leave this empty to keep it.' : `${place.where}, never shown again.`}
          onChange={setToken}
        />
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
