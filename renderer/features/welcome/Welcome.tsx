import { useEffect, useId, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { WelcomeCard } from './WelcomeCard.tsx';
import { TextField } from '../../components/TextField.tsx';
import { toUiError } from '../../lib/core.ts';
import { validateSettings, type FieldErrors } from '../../lib/validateSettings.ts';
import { useAuth } from '../../state/auth.ts';
import { useSettings } from '../../state/settings.ts';
import { SignInProgress } from '../signin/SignInProgress.tsx';
import { isLocalService } from './serviceChoice.ts';
import { useChecks } from '../../state/checks.ts';
import { HibpApiKey, type BreachSourceChoice } from '../../../shared/ipc/checks.ts';
import { KeyHint } from './KeyHint.tsx';
import { ContractChoice } from './ContractChoice.tsx';
import type { ApiContract } from '../../../shared/api/firefox.ts';
import { useFirstRun } from '../../state/firstRun.ts';

type Choice = BreachSourceChoice;

export function Welcome() {
  const auth = useAuth();
  const settings = useSettings((s) => s.settings);
  const save = useSettings((s) => s.save);
  const source = useChecks((s) => s.source);
  const loadSource = useChecks((s) => s.loadSource);
  const sourceError = useChecks((s) => s.error);
  const setSource = useChecks((s) => s.setSource);
  const signingIn = auth.busy === 'signing-in' || auth.status?.state === 'signing-in';
  const [choice, setChoice] = useState<Choice>('demo');
  const [serviceUrl, setServiceUrl] = useState('');
  const [issuer, setIssuer] = useState('');
  const [contract, setContract] = useState<ApiContract>('v1');
  const [apiKey, setApiKey] = useState('');
  const [keyError, setKeyError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<string>();
  const setAddressesStep = useFirstRun((s) => s.setAddressesStep);
  const id = useId();

  useEffect(() => {
    void loadSource();
  }, [loadSource]);

  // Start from what the core has, once it answers: the saved choice, else another service when one is set, else demo data.
  // A host that runs the local service itself (`npm start`, on whichever port) points a first run at it: that is no other service.
  const hostRunsLocalService = source?.localService === 'restarted';
  // Until the host has said whether it runs the local service, a first run stays on demo data
  // rather than showing "another service" (and its contract) for a moment and then changing.
  const sourceKnown = source !== undefined || sourceError !== undefined;
  useEffect(() => {
    if (!settings) return;
    if (!settings.breachSource && !isLocalService(settings.serviceUrl) && !sourceKnown) return;
    setChoice(settings.breachSource ?? (isLocalService(settings.serviceUrl) || hostRunsLocalService ? 'demo' : 'service'));
    setServiceUrl(settings.serviceUrl);
    setIssuer(settings.issuer);
    setContract(settings.apiContract ?? 'v1');
  }, [settings, hostRunsLocalService, sourceKnown]);

  async function signIn() {
    setSaveError(undefined);
    setKeyError(undefined);
    if (choice === 'service') {
      const wanted = { serviceUrl: serviceUrl.trim(), issuer: issuer.trim() };
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
    }
    // Before sign-in: the newer contract's scope is asked for when signing in. Only a service
    // the person connects to is asked about its contract; the local service speaks either.
    if (choice === 'service' && settings && contract !== (settings.apiContract ?? 'v1')) {
      try {
        await save({ apiContract: contract });
      } catch (error) {
        setSaveError(`The API contract could not be set: ${toUiError(error).message}`);
        return;
      }
    }
    const typedKey = apiKey.trim();
    if (choice === 'hibp' && (typedKey !== '' || !source?.hasHibpKey)) {
      const checked = HibpApiKey.safeParse(typedKey);
      if (!checked.success) {
        setKeyError(typedKey === '' ? 'Paste your API key.' : (checked.error.issues[0]?.message ?? 'This is not an API key.'));
        return;
      }
    }
    try {
      const view = await setSource({ choice, ...(choice === 'hibp' && typedKey ? { apiKey: typedKey } : {}) });
      // The key is in the keychain now: it does not stay in this page.
      setApiKey('');
      if (view.problem) {
        setSaveError(view.problem);
        return;
      }
    } catch (error) {
      const uiError = toUiError(error);
      const onKey = uiError.issues?.find((issue) => issue.path === 'apiKey');
      if (onKey) setKeyError(onKey.message);
      else setSaveError(`Your choice could not be saved: ${uiError.message}`);
      return;
    }
    // With their own key, the person monitors no address yet: the first run goes on with "Your addresses".
    setAddressesStep(choice === 'hibp');
    await auth.signIn();
  }

  const error = saveError ?? auth.error ?? (auth.status?.state === 'signed-out' ? auth.status.error : undefined);

  return (
    <WelcomeCard>
      <h1 className="welcome-title">See where your email addresses have leaked — and what’s left to fix.</h1>
      <p className="welcome-lead">Choose where breach data comes from. Whatever you choose, your breaches are kept on this computer, so you can review and resolve them offline.</p>

      <form
        className="welcome-form"
        aria-label="Get started"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void signIn();
        }}
      >
        <fieldset className="fieldset" disabled={signingIn}>
          <legend className="field-label">Breach data</legend>
          <label className="radio-card">
            <input type="radio" name={`${id}-source`} value="hibp" checked={choice === 'hibp'} onChange={() => setChoice('hibp')} />
            <span>
              <span className="radio-card-title">Check my addresses with Have I Been Pwned</span>
              <span className="radio-card-detail">Real breaches, with your own API key. Your addresses are checked from this computer, for you alone.</span>
            </span>
          </label>
          {choice === 'hibp' ? (
            <div className="welcome-fields">
              <TextField
                id={`${id}-key`}
                type="password"
                autoComplete="off"
                label="Have I Been Pwned API key"
                value={apiKey}
                onChange={(value) => {
                  setApiKey(value);
                  setKeyError(undefined);
                }}
                error={keyError}
                placeholder={source?.hasHibpKey && source.keyHint ? `Kept: ends in ${source.keyHint}` : undefined}
                hint={<KeyHint remembered={source?.keyRemembered ?? true} kept={source?.hasHibpKey ? source.keyHint : null} />}
              />
            </div>
          ) : null}
          <label className="radio-card">
            <input type="radio" name={`${id}-source`} value="service" checked={choice === 'service'} onChange={() => setChoice('service')} />
            <span>
              <span className="radio-card-title">Connect to a breach-alert service</span>
              <span className="radio-card-detail">Its address and its identity provider</span>
            </span>
          </label>
          {choice === 'service' ? (
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
              {/* Which of the service's two contracts to speak: a question only a service someone else runs raises. */}
              <ContractChoice value={contract} onChange={setContract} disabled={signingIn} />
            </div>
          ) : null}
          <label className="radio-card">
            <input type="radio" name={`${id}-source`} value="demo" checked={choice === 'demo'} onChange={() => setChoice('demo')} />
            <span>
              <span className="radio-card-title">Try it with demo data</span>
              <span className="radio-card-detail">Invented breaches, labelled as demo everywhere: a tour of the app</span>
            </span>
          </label>
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
    </WelcomeCard>
  );
}
