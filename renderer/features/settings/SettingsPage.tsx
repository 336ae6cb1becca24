import { useEffect, useId, useState } from 'react';
import { FeedSection } from './FeedSection.tsx';
import { BreachDataSection } from './BreachDataSection.tsx';
import { AddressesSection } from './AddressesSection.tsx';
import { SwitchConfirm } from './SwitchConfirm.tsx';
import { ContractChoice } from '../welcome/ContractChoice.tsx';
import { Icon } from '../../components/Icon.tsx';
import { ErrorState, Skeleton } from '../../components/States.tsx';
import { inBrowserHost, toUiError } from '../../lib/core.ts';
import { plural } from '../../lib/format.ts';
import { fieldErrorsFromIssues, validateSettings, type FieldErrors } from '../../lib/validateSettings.ts';
import { useAuth } from '../../state/auth.ts';
import { usePreferences } from '../../state/preferences.ts';
import { useSettings } from '../../state/settings.ts';
import { TextField } from '../../components/TextField.tsx';
import { useSync } from '../../state/sync.ts';
import { useTheme, type Theme } from '../../state/theme.ts';
import type { Settings, SettingsChange } from '../../../shared/ipc/views.ts';
import type { ApiContract } from '../../../shared/api/firefox.ts';

interface Draft {
  serviceUrl: string;
  issuer: string;
  syncIntervalMinutes: string;
  notifications: boolean;
  startAtLogin: boolean;
  closeToTray: boolean;
  showSensitive: boolean;
  apiContract: ApiContract;
  signUpUrl: string;
}

function toDraft(settings: Settings): Draft {
  const { serviceUrl, issuer, notifications, startAtLogin, closeToTray } = settings;
  return {
    serviceUrl,
    issuer,
    notifications,
    startAtLogin,
    closeToTray,
    showSensitive: settings.showSensitive === true,
    syncIntervalMinutes: String(settings.syncIntervalMinutes),
    apiContract: settings.apiContract ?? 'v1',
    signUpUrl: settings.signUpUrl ?? '',
  };
}

function toPatch(draft: Draft, saved: Settings): SettingsChange {
  const minutes = Number(draft.syncIntervalMinutes.trim());
  return {
    serviceUrl: draft.serviceUrl.trim(),
    issuer: draft.issuer.trim(),
    // An empty or non-numeric field must fail validation, not become 0.
    syncIntervalMinutes: draft.syncIntervalMinutes.trim() === '' || Number.isNaN(minutes) ? Number.NaN : minutes,
    notifications: draft.notifications,
    startAtLogin: draft.startAtLogin,
    closeToTray: draft.closeToTray,
    // Sent only when it differs from what is saved, so a settings file without it stays without it.
    ...(draft.showSensitive !== (saved.showSensitive === true) ? { showSensitive: draft.showSensitive } : {}),
    apiContract: draft.apiContract,
    // Empty means the default (the service's own site): a saved page is cleared. The schema checks anything typed.
    ...(draft.signUpUrl.trim() ? { signUpUrl: draft.signUpUrl.trim() } : saved.signUpUrl !== undefined ? { signUpUrl: null } : {}),
  };
}

export function SettingsPage() {
  const { settings, error, load } = useSettings();
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <h1 className="page-title">Settings</h1>
      </div>
      {settings ? (
        <SettingsForm settings={settings} />
      ) : error ? (
        <ErrorState title="Settings couldn’t be loaded" message={error} onRetry={() => void load()} />
      ) : (
        <Skeleton lines={8} className="card" />
      )}
      <AddressesSection />
      <BreachDataSection />
      <ThemeSection />
      <SharedSection />
      <FeedSection />
      <AccountSection />
    </div>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const browser = inBrowserHost();
  const save = useSettings((s) => s.save);
  const switchService = useSettings((s) => s.switchService);
  const [confirming, setConfirming] = useState<SettingsChange>();
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [saving, setSaving] = useState(false);
  const id = useId();
  const baseline = toDraft(settings);
  const dirty = (Object.keys(baseline) as (keyof Draft)[]).some((key) => baseline[key] !== draft[key]);
  const signedIn = useAuth((s) => s.status?.state === 'signed-in');
  const serviceChanged = draft.serviceUrl.trim() !== settings.serviceUrl || draft.issuer.trim() !== settings.issuer || draft.apiContract !== (settings.apiContract ?? 'v1');

  // A save elsewhere (the welcome screen, another window) moves an untouched form along.
  useEffect(() => {
    if (!dirty) setDraft(toDraft(settings));
  }, [settings]); // only a new settings object may reset the form

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setMessage(undefined);
  };

  async function submit() {
    const patch = toPatch(draft, settings);
    const found = validateSettings(patch);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setMessage({ kind: 'error', text: 'Some settings need fixing before they can be saved.' });
      return;
    }
    // Another service or contract while signed in: one guided step, confirmed first (below).
    if (signedIn && serviceChanged) {
      setConfirming(patch);
      return;
    }
    setSaving(true);
    try {
      const saved = await save(patch);
      setDraft(toDraft(saved));
      setMessage({ kind: 'ok', text: 'Settings saved.' });
    } catch (error) {
      const uiError = toUiError(error);
      setErrors(fieldErrorsFromIssues(uiError.issues));
      setMessage({ kind: 'error', text: `Settings weren’t saved: ${uiError.message}` });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="card settings-form"
      aria-label="Settings"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 className="card-title">Service</h2>
      <TextField
        id={`${id}-url`}
        label="Service URL"
        type="url"
        value={draft.serviceUrl}
        error={errors.serviceUrl}
        onChange={(v) => set('serviceUrl', v)}
        hint="The breach-alert API, ending in /api/v1."
      />
      <TextField id={`${id}-issuer`} label="Identity provider" type="url" value={draft.issuer} error={errors.issuer} onChange={(v) => set('issuer', v)} hint="Where you sign in (the OpenID issuer)." />
      <ContractChoice value={draft.apiContract} onChange={(value) => set('apiContract', value)} />
      {draft.apiContract === 'firefox-v1' ? (
        <TextField
          id={`${id}-signup`}
          label="Sign-up page"
          type="url"
          value={draft.signUpUrl}
          error={errors.signUpUrl}
          onChange={(v) => set('signUpUrl', v)}
          hint="Where to send you when this service has no account for you. Empty: the service’s own site."
        />
      ) : null}
      {serviceChanged && signedIn ? (
        <p className="form-note">
          <Icon name="alert" size={14} /> Saving signs you out and starts signing in again, in one step; you’ll be asked first.
        </p>
      ) : null}

      <h2 className="card-title">Syncing</h2>
      <TextField
        id={`${id}-interval`}
        label="Sync interval (minutes)"
        type="number"
        value={draft.syncIntervalMinutes}
        error={errors.syncIntervalMinutes}
        onChange={(v) => set('syncIntervalMinutes', v)}
        hint={draft.apiContract === 'firefox-v1' ? 'From 5 minutes to 1440; this service asks for at most one sync an hour, so shorter intervals sync hourly.' : 'From 5 minutes to 1440 (once a day).'}
        min={5}
        max={1440}
      />

      <h2 className="card-title">Privacy</h2>
      <CheckField
        id={`${id}-sensitive`}
        label="Show sensitive breaches"
        hint="Breaches whose name alone says something private (a dating or adult site, for instance). Off, they are left out everywhere: the list, banners, notifications, the tray, Fix, Search, the Overview, the graph and reports."
        checked={draft.showSensitive === true}
        onChange={(v) => set('showSensitive', v)}
      />

      <h2 className="card-title">On this computer</h2>
      <CheckField
        id={`${id}-notify`}
        label="Notifications"
        hint={
          browser
            ? 'New breaches, changes the service refused, and when you need to sign in again. In the browser they show as banners in this window and in the terminal running Breach Monitor.'
            : 'New breaches, changes the service refused, and when you need to sign in again.'
        }
        checked={draft.notifications}
        onChange={(v) => set('notifications', v)}
      />
      {browser ? (
        // The browser host has no tray and no login item: offering them would be switches that do nothing.
        <p className="form-note">Start at login and the tray icon come with the desktop app; this window is Breach Monitor running in your web browser.</p>
      ) : (
        <>
          <CheckField id={`${id}-login`} label="Start at login" hint="Keep watching in the background from when you log in." checked={draft.startAtLogin} onChange={(v) => set('startAtLogin', v)} />
          <CheckField id={`${id}-tray`} label="Close to tray" hint="Closing the window keeps Breach Monitor running in the tray." checked={draft.closeToTray} onChange={(v) => set('closeToTray', v)} />
        </>
      )}

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={saving || !dirty}>
          {saving ? 'Saving…' : 'Save changes'}
        </button>
        <button
          type="button"
          className="button button-ghost"
          disabled={saving || !dirty}
          onClick={() => {
            setDraft(toDraft(settings));
            setErrors({});
            setMessage(undefined);
          }}
        >
          Undo changes
        </button>
        <p className={message?.kind === 'error' ? 'form-message is-error' : 'form-message'} role="status">
          {message?.text}
        </p>
      </div>
      {confirming ? (
        <SwitchConfirm
          contractOnly={confirming.serviceUrl === settings.serviceUrl && confirming.issuer === settings.issuer}
          to={draft.apiContract}
          onCancel={() => setConfirming(undefined)}
          onConfirm={async () => {
            const patch = confirming;
            setConfirming(undefined);
            if (!(await switchService(patch))) setMessage({ kind: 'error', text: 'You’re still signed in, so nothing was switched: signing out didn’t work (the Account section says why).' });
          }}
        />
      ) : null}
    </form>
  );
}

function CheckField(props: { id: string; label: string; hint: string; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <div className="check-field">
      <input id={props.id} type="checkbox" className="checkbox" checked={props.checked} aria-describedby={`${props.id}-hint`} onChange={(event) => props.onChange(event.target.checked)} />
      <div>
        <label htmlFor={props.id} className="check-field-label">
          {props.label}
        </label>
        <p className="field-hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      </div>
    </div>
  );
}

const THEMES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Takes effect at once, as people expect of a theme switch; saved on its own. */
function ThemeSection() {
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.set);
  const settings = useSettings((s) => s.settings);
  const save = useSettings((s) => s.save);
  const [error, setError] = useState<string>();
  const id = useId();
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Appearance
      </h2>
      <fieldset className="segmented">
        <legend className="field-label">Theme</legend>
        {THEMES.map((option) => (
          <label key={option.value} className={theme === option.value ? 'segment is-checked' : 'segment'}>
            <input
              type="radio"
              name={`${id}-theme`}
              value={option.value}
              checked={theme === option.value}
              onChange={() => {
                setTheme(option.value);
                setError(undefined);
                if (settings)
                  save({ theme: option.value }).catch((e: unknown) => {
                    setError(`The theme applies to this window but wasn’t saved: ${toUiError(e).message}`);
                  });
              }}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/**
 * Choices kept with the person's account in the details feed (`users/<uid>/preferences`), so
 * every device they sign in on follows them; saved at once, kept on this computer while offline.
 */
function SharedSection() {
  const { preferences, error, load, update } = usePreferences();
  const signedIn = useAuth((s) => s.status?.state === 'signed-in');
  const id = useId();
  useEffect(() => {
    if (signedIn) void load();
  }, [signedIn, load]);
  const hiddenCount = preferences?.hiddenBreaches.length ?? 0;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        On all your devices
      </h2>
      {!signedIn ? (
        <p className="muted">Sign in to keep these choices with your account.</p>
      ) : preferences ? (
        <>
          <CheckField
            id={`${id}-new`}
            label="Notify me of new breaches"
            hint="Applies on every computer you sign in on, as long as notifications are on there."
            checked={preferences.notifications.newBreaches}
            onChange={(v) => void update((p) => ({ ...p, notifications: { ...p.notifications, newBreaches: v } }))}
          />
          <p className="muted">
            {hiddenCount === 0 ? 'No breaches hidden.' : `${plural(hiddenCount, 'breach', 'breaches')} hidden from the list.`}
            {hiddenCount > 0 ? (
              <>
                {' '}
                <button type="button" className="button button-ghost button-small" onClick={() => void update((p) => ({ ...p, hiddenBreaches: [] }))}>
                  Show all hidden breaches again
                </button>
              </>
            ) : null}
          </p>
        </>
      ) : error ? null : (
        <Skeleton lines={2} />
      )}
      {error ? (
        <p className="field-error" role="alert">
          These choices couldn’t be {preferences ? 'saved' : 'loaded'}: {error}
        </p>
      ) : null}
    </section>
  );
}

function AccountSection() {
  const { status, busy, error, signOut } = useAuth();
  const pending = useSync((s) => s.status?.pending ?? 0);
  const [deleteLocal, setDeleteLocal] = useState(false);
  const id = useId();
  const account = status?.account;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">
        Account
      </h2>
      {account ? (
        <p className="account-line">
          Signed in as <strong>{account.email ?? account.name ?? account.accountId}</strong>
          <span className="muted"> at {account.issuer}</span>
        </p>
      ) : (
        <p className="muted">Not signed in.</p>
      )}
      {status && !status.remembered ? <p className="form-note">No keychain is available, so you’ll sign in again each time Breach Monitor starts.</p> : null}
      <div className="check-field">
        <input id={`${id}-delete`} type="checkbox" className="checkbox" checked={deleteLocal} aria-describedby={`${id}-delete-hint`} onChange={(event) => setDeleteLocal(event.target.checked)} />
        <div>
          <label htmlFor={`${id}-delete`} className="check-field-label">
            Also delete local data
          </label>
          <p className="field-hint" id={`${id}-delete-hint`}>
            {deleteLocal
              ? `Your breaches and their resolved state are removed from this computer${pending > 0 ? `, and ${plural(pending, 'queued change')} that ${pending === 1 ? 'hasn’t' : 'haven’t'} reached the service will be lost` : ''}.`
              : 'Keep your breaches on this computer for the next time you sign in.'}
          </p>
        </div>
      </div>
      <div className="form-actions">
        <button type="button" className={deleteLocal ? 'button button-danger' : 'button'} disabled={busy === 'signing-out' || !account} onClick={() => void signOut(deleteLocal)}>
          {busy === 'signing-out' ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
