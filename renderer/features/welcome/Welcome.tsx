import { useEffect, useId, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { TextField } from '../../components/TextField.tsx';
import { toUiError } from '../../lib/core.ts';
import { validateSettings, type FieldErrors } from '../../lib/validateSettings.ts';
import { useAuth } from '../../state/auth.ts';
import { useSettings } from '../../state/settings.ts';
import { SignInProgress } from '../signin/SignInProgress.tsx';
import { isLocalService, LOCAL_SERVICE } from './serviceChoice.ts';

type Choice = 'local' | 'other';

export function Welcome() {
  const auth = useAuth();
  const settings = useSettings((s) => s.settings);
  const save = useSettings((s) => s.save);
  const signingIn = auth.busy === 'signing-in' || auth.status?.state === 'signing-in';
  const [choice, setChoice] = useState<Choice>('local');
  const [serviceUrl, setServiceUrl] = useState('');
  const [issuer, setIssuer] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<string>();
  const id = useId();

  // Start from what the core has, once it answers.
  useEffect(() => {
    if (!settings) return;
    setChoice(isLocalService(settings.serviceUrl) ? 'local' : 'other');
    setServiceUrl(settings.serviceUrl);
    setIssuer(settings.issuer);
  }, [settings]);

  async function signIn() {
    setSaveError(undefined);
    const wanted = choice === 'local' ? { ...LOCAL_SERVICE } : { serviceUrl: serviceUrl.trim(), issuer: issuer.trim() };
    const errors = validateSettings(wanted);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    if (settings && (settings.serviceUrl !== wanted.serviceUrl || settings.issuer !== wanted.issuer)) {
      try {
        await save(wanted);
      } catch (error) {
        setSaveError(`The service could not be set: ${toUiError(error).message}`);
        return;
      }
    }
    await auth.signIn();
  }

  const error = saveError ?? auth.error ?? (auth.status?.state === 'signed-out' ? auth.status.error : undefined);

  return (
    <main className="welcome" id="main">
      <div className="welcome-card">
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true">
            <Icon name="shield" size={22} />
          </span>
          <span>Breach Monitor</span>
        </div>
        <h1 className="welcome-title">See where your email addresses have leaked — and what’s left to fix.</h1>
        <p className="welcome-lead">Sign in to a breach-alert service. Your breaches are kept on this computer, so you can review and resolve them even when you’re offline.</p>

        <form
          className="welcome-form"
          aria-label="Sign in"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void signIn();
          }}
        >
          <fieldset className="fieldset" disabled={signingIn}>
            <legend className="field-label">Service</legend>
            <label className="radio-card">
              <input type="radio" name={`${id}-service`} value="local" checked={choice === 'local'} onChange={() => setChoice('local')} />
              <span>
                <span className="radio-card-title">Local reference service</span>
                <span className="radio-card-detail">{LOCAL_SERVICE.serviceUrl}</span>
              </span>
            </label>
            <label className="radio-card">
              <input type="radio" name={`${id}-service`} value="other" checked={choice === 'other'} onChange={() => setChoice('other')} />
              <span>
                <span className="radio-card-title">Another service</span>
                <span className="radio-card-detail">Its address and its identity provider</span>
              </span>
            </label>
            {choice === 'other' ? (
              <div className="welcome-fields">
                <TextField
                  id={`${id}-url`}
                  type="url"
                  autoComplete="url"
                  label="Service URL"
                  value={serviceUrl}
                  onChange={setServiceUrl}
                  error={fieldErrors.serviceUrl}
                  placeholder="https://monitor.example.com/api/v1"
                />
                <TextField
                  id={`${id}-issuer`}
                  type="url"
                  autoComplete="url"
                  label="Identity provider"
                  value={issuer}
                  onChange={setIssuer}
                  error={fieldErrors.issuer}
                  placeholder="https://accounts.example.com"
                />
              </div>
            ) : null}
          </fieldset>

          {signingIn ? (
            <div className="signin-progress">
              <div className="progress-indeterminate" role="progressbar" aria-label="Signing in" />
              <SignInProgress pending={auth.status?.state === 'signing-in' ? auth.status.signIn : undefined} />
              <button type="button" className="button" onClick={() => void auth.cancel()}>
                Cancel
              </button>
            </div>
          ) : (
            <button type="submit" className="button button-primary button-large">
              Sign in
            </button>
          )}

          {error && !signingIn ? (
            <p className="form-error" role="alert">
              <Icon name="alert" />
              <span>
                <strong>Sign-in didn’t work.</strong> {error}
              </span>
            </p>
          ) : null}
          {auth.status?.warning ? <p className="form-note">{auth.status.warning}</p> : null}
        </form>
      </div>
    </main>
  );
}
