import { useEffect, useId, useState } from 'react';
import { TextField } from '../../components/TextField.tsx';
import { toUiError } from '../../lib/core.ts';
import { plural } from '../../lib/format.ts';
import { useChecks } from '../../state/checks.ts';
import { useSettings } from '../../state/settings.ts';
import { HibpApiKey, DEFAULT_PWNED_PASSWORDS_URL, type BreachSourceChoice, type BreachSourceView } from '../../../shared/ipc/checks.ts';
import { KeyHint } from '../welcome/KeyHint.tsx';
import { HibpAddressField, HibpProblem } from './HibpAddress.tsx';

const LABELS: Record<BreachSourceChoice, string> = {
  hibp: 'Have I Been Pwned, with my API key',
  service: 'A breach-alert service (the Service settings above)',
  demo: 'Demo data (invented, labelled)',
};

/** What a switch did, in one sentence: the invented breaches removed, the local service restarted or not. */
export function switchedMessage(view: BreachSourceView): string {
  const parts = [`Breach data now comes from ${view.choice ? LABELS[view.choice].replace(/ \(.*\)$/, '') : 'nowhere yet'}.`];
  if (view.demoCleared !== undefined && view.demoCleared > 0) parts.push(`The ${plural(view.demoCleared, 'invented breach', 'invented breaches')} of the demo were removed from this computer.`);
  else if (view.demoCleared === 0 && view.choice !== 'demo') parts.push('No demo data was kept on this computer.');
  if (view.choice !== 'service' && view.localService === 'next-start') parts.push('The local service follows when Breach Monitor starts again.');
  return parts.join(' ');
}

/**
 * Settings → Breach data: switch between the person's own Have I Been Pwned key, a service, and
 * demo data later on; replace or forget the key (never shown: only its last four characters);
 * and where Pwned Passwords is asked.
 */
export function BreachDataSection() {
  const { source, loadSource, setSource } = useChecks();
  const demoData = useChecks((s) => s.view.source === 'demo');
  const settings = useSettings((s) => s.settings);
  const save = useSettings((s) => s.save);
  const id = useId();
  const [choice, setChoice] = useState<BreachSourceChoice>('demo');
  const [apiKey, setApiKey] = useState('');
  const [keyError, setKeyError] = useState<string>();
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);
  const [pwnedUrl, setPwnedUrl] = useState('');
  const [pwnedError, setPwnedError] = useState<string>();
  const [hibpUrl, setHibpUrl] = useState('');
  const [hibpUrlError, setHibpUrlError] = useState<string>();

  useEffect(() => {
    void loadSource();
  }, [loadSource]);
  useEffect(() => {
    if (source?.choice) setChoice(source.choice);
  }, [source?.choice]);
  useEffect(() => {
    setHibpUrl(source?.hibpUrl ?? '');
  }, [source?.hibpUrl]);
  useEffect(() => {
    setPwnedUrl(settings?.pwnedPasswordsUrl ?? '');
  }, [settings?.pwnedPasswordsUrl]);

  async function apply(forgetKey = false) {
    setMessage(undefined);
    setKeyError(undefined);
    setHibpUrlError(undefined);
    const typed = apiKey.trim();
    // The address goes with the HIBP choice, and only when it changed (empty: HIBP's own).
    const address = hibpUrl.trim();
    const addressChange = choice === 'hibp' && address !== (source?.hibpUrl ?? '') ? { hibpUrl: address === '' ? null : address } : {};
    if (choice === 'hibp' && !forgetKey && (typed !== '' || !source?.hasHibpKey)) {
      const checked = HibpApiKey.safeParse(typed);
      if (!checked.success) {
        setKeyError(typed === '' ? 'Paste your API key.' : (checked.error.issues[0]?.message ?? 'This is not an API key.'));
        return;
      }
    }
    setBusy(true);
    try {
      const view = await setSource({ choice, ...(typed && choice === 'hibp' ? { apiKey: typed } : {}), ...(forgetKey ? { forgetKey: true } : {}), ...addressChange });
      setApiKey('');
      setMessage(view.problem ? { kind: 'error', text: view.problem } : { kind: 'ok', text: forgetKey ? 'The API key was forgotten.' : switchedMessage(view) });
    } catch (error) {
      const uiError = toUiError(error);
      const onKey = uiError.issues?.find((issue) => issue.path === 'apiKey');
      const onAddress = uiError.issues?.find((issue) => issue.path === 'hibpUrl');
      if (onKey) setKeyError(onKey.message);
      else if (onAddress) setHibpUrlError(onAddress.message);
      else setMessage({ kind: 'error', text: `Not switched: ${uiError.message}` });
    } finally {
      setBusy(false);
    }
  }

  async function savePwnedUrl() {
    setPwnedError(undefined);
    try {
      await save({ pwnedPasswordsUrl: pwnedUrl.trim() === '' ? null : pwnedUrl.trim() });
    } catch (error) {
      setPwnedError(toUiError(error).issues?.[0] ? 'Enter a full http(s) address, or leave it empty for api.pwnedpasswords.com.' : toUiError(error).message);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Breach data
      </h2>
      <form
        noValidate
        aria-label="Breach data"
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
      >
        <fieldset className="fieldset breach-data-choices" disabled={busy}>
          <legend className="field-label">Where breach data comes from</legend>
          {(Object.keys(LABELS) as BreachSourceChoice[]).map((value) => (
            <label key={value} className="check-field">
              <input type="radio" name={`${id}-source`} value={value} checked={choice === value} onChange={() => setChoice(value)} />
              <span>{LABELS[value]}</span>
            </label>
          ))}
        </fieldset>
        {choice === 'hibp' ? (
          <TextField
            id={`${id}-key`}
            type="password"
            label="Have I Been Pwned API key"
            value={apiKey}
            onChange={(value) => {
              setApiKey(value);
              setKeyError(undefined);
            }}
            error={keyError}
            hint={<KeyHint remembered={source?.keyRemembered ?? true} kept={source?.hasHibpKey ? source.keyHint : null} />}
          />
        ) : null}
        {choice === 'hibp' ? (
          <HibpAddressField
            id={`${id}-hibp-url`}
            value={hibpUrl}
            onChange={(value) => {
              setHibpUrl(value);
              setHibpUrlError(undefined);
            }}
            error={hibpUrlError}
            open={Boolean(source?.hibpUrl) || hibpUrlError !== undefined}
          />
        ) : null}
        {choice === 'hibp' ? <HibpProblem /> : null}
        {demoData && choice !== 'demo' ? <p className="form-note">Switching removes the invented demo breaches from this computer.</p> : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Switching…' : 'Use this'}
          </button>
          {source?.hasHibpKey ? (
            <button type="button" className="button" disabled={busy} onClick={() => void apply(true)}>
              Forget the API key
            </button>
          ) : null}
        </div>
        {message ? (
          <p className={message.kind === 'error' ? 'form-message is-error' : 'form-message'} role={message.kind === 'ok' ? 'status' : 'alert'}>
            {message.text}
          </p>
        ) : null}
      </form>
      <form
        className="pwned-url-form"
        noValidate
        aria-label="Pwned Passwords"
        onSubmit={(event) => {
          event.preventDefault();
          void savePwnedUrl();
        }}
      >
        <TextField
          id={`${id}-pwned`}
          type="url"
          label="Pwned Passwords address"
          value={pwnedUrl}
          onChange={setPwnedUrl}
          error={pwnedError}
          placeholder={DEFAULT_PWNED_PASSWORDS_URL}
          hint="Where “Check a password” asks; empty for Have I Been Pwned’s own. Only 5 characters of a password’s hash are ever sent."
        />
        <div className="form-actions">
          <button type="submit" className="button">
            Save address
          </button>
        </div>
      </form>
    </section>
  );
}
