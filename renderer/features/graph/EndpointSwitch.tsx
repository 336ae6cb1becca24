import { useEffect, useId, useState } from 'react';
import type { GraphRemote } from '../../../shared/ipc/contract.ts';
import { Icon } from '../../components/Icon.tsx';
import { TextField } from '../../components/TextField.tsx';
import { toUiError } from '../../lib/core.ts';
import { useGraph } from '../../state/graph.ts';
import type { Endpoint } from './useGraphQueries.ts';
import { secretPlace } from '../../lib/secretPlace.ts';
import { useAuth } from '../../state/auth.ts';

function urlProblem(url: string): string | undefined {
  if (!url.trim()) return 'Enter the endpoint’s address.';
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? undefined : 'The address must start with http:// or https://.';
  } catch {
    return 'That isn’t a complete address (for example https://graph.example.org).';
  }
}

/**
 * Where queries go. The remote endpoint's key is write-only here: the core keeps it in the
 * secret store and only ever says whether one is saved (`hasKey`), so the field starts empty.
 */
export function EndpointSwitch({ endpoint, onChange }: { endpoint: Endpoint; onChange(endpoint: Endpoint): void }) {
  const id = useId();
  const place = secretPlace(useAuth((state) => state.status));
  const [remote, setRemote] = useState<GraphRemote>();
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [urlError, setUrlError] = useState<string>();

  useEffect(() => {
    let live = true;
    useGraph
      .getState()
      .loadRemote()
      .then((answer) => {
        if (!live) return;
        setRemote(answer);
        setUrl((typed) => typed || answer.url || '');
      })
      .catch((error: unknown) => live && setMessage({ kind: 'error', text: `The saved endpoint couldn’t be read: ${toUiError(error).message}` }));
    return () => {
      live = false;
    };
  }, []);

  async function save() {
    const problem = urlProblem(url);
    setUrlError(problem);
    if (problem) return;
    setSaving(true);
    setMessage(undefined);
    try {
      const saved = await useGraph.getState().saveRemote(url.trim(), apiKey || undefined);
      setRemote(saved);
      setApiKey('');
      setMessage({ kind: 'ok', text: 'Endpoint saved.' });
    } catch (error) {
      const uiError = toUiError(error);
      const forUrl = uiError.issues?.find((issue) => issue.path === 'url');
      if (forUrl) setUrlError(forUrl.message);
      setMessage({ kind: 'error', text: `The endpoint wasn’t saved: ${uiError.message}` });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card graph-endpoint" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Endpoint
      </h2>
      <fieldset className="fieldset">
        <legend className="visually-hidden">Where queries go</legend>
        <label className="radio-card">
          <input type="radio" name={`${id}-endpoint`} checked={endpoint === 'embedded'} onChange={() => onChange('embedded')} />
          <span>
            <span className="radio-card-title">Embedded (your breaches, offline)</span>
            <span className="radio-card-detail">Answered on this computer from the breaches of your last sync.</span>
          </span>
        </label>
        <label className="radio-card">
          <input type="radio" name={`${id}-endpoint`} checked={endpoint === 'remote'} onChange={() => onChange('remote')} />
          <span>
            <span className="radio-card-title">Remote endpoint</span>
            <span className="radio-card-detail">{remote?.url ? remote.url : 'A server of the same node query interface.'}</span>
          </span>
        </label>
      </fieldset>

      {endpoint === 'remote' ? (
        <form
          className="graph-remote-form"
          aria-label="Remote endpoint"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <TextField
            id={`${id}-url`}
            label="Endpoint URL"
            type="url"
            value={url}
            error={urlError}
            hint={
              <>
                The base address; queries go to its <code>/v2/node</code>.
              </>
            }
            onChange={(value) => {
              setUrl(value);
              setUrlError(undefined);
              setMessage(undefined);
            }}
          />
          <TextField
            id={`${id}-key`}
            label="API key"
            type="password"
            value={apiKey}
            hint={
              remote?.hasKey ? (
                <span className="key-saved">
                  <Icon name="check" size={12} /> Key saved. Leave this empty to keep it.
                </span>
              ) : (
                `${place.where}, never shown again.`
              )
            }
            onChange={(value) => {
              setApiKey(value);
              setMessage(undefined);
            }}
          />
          <div className="form-actions">
            <button type="submit" className="button" disabled={saving}>
              {saving ? 'Saving…' : 'Save endpoint'}
            </button>
            <p className={message?.kind === 'error' ? 'form-message is-error' : 'form-message'} role="status">
              {message?.text}
            </p>
          </div>
        </form>
      ) : null}
    </section>
  );
}
