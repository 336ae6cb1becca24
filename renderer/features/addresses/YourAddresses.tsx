import { useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { TextField } from '../../components/TextField.tsx';
import { ConfirmPanel } from '../../components/ConfirmPanel.tsx';
import { toUiError, type UiError } from '../../lib/core.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useAddresses } from '../../state/addresses.ts';
import { Email, type PersonEmail } from '../../../shared/api/index.ts';
import type { AddressRemoval } from '../../../shared/ipc/addresses.ts';
import { addressStateLine, removalLine, verificationLine } from './addressText.ts';

/** The message of a refusal on one field (`email`, `code`), else its sentence. */
function onField(error: UiError, field: string): string {
  return error.issues?.find((issue) => issue.path === field)?.message ?? error.message;
}

const ICONS: Record<PersonEmail['state'], 'clock' | 'check' | 'alert' | 'mail'> = { unverified: 'mail', pending: 'clock', checked: 'check', failed: 'alert' };

/**
 * The person's addresses at their service, each with where it stands, and what they can do:
 * add one (checked here first, then by the service), enter the code sent to it or send it again,
 * remove one after a confirmation saying what goes with it. The first run and Settings show the
 * same list; `headingLevel` fits it into each page's outline.
 */
export function YourAddresses({ headingLevel = 2, intro }: { headingLevel?: 2 | 3; intro?: string }) {
  const view = useAddresses((s) => s.view);
  const loadError = useAddresses((s) => s.error);
  const load = useAddresses((s) => s.load);
  const id = useId();
  const addField = useRef<HTMLDivElement>(null);

  // Listed at the service when the list opens (a code entered elsewhere, a check since the last sync).
  useEffect(() => {
    void load(true);
  }, [load]);

  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const canAdd = view.served !== 'no' && view.verification !== 'unavailable';
  const modeLine = verificationLine(view.verification);
  return (
    <section className="card your-addresses" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="card-title">
        Your addresses
      </Heading>
      {intro ? <p className="muted">{intro}</p> : null}
      {modeLine ? <p className="muted">{modeLine}</p> : null}
      {view.served === 'no' ? <p className="form-note">This service checks the address you signed in with; it does not let the app add others.</p> : null}
      {view.problem ? (
        <p className="form-note" role="status">
          <Icon name="alert" /> {view.problem}
          {view.updatedAt ? ` The list below is as the service last gave it, ${formatDateTime(view.updatedAt)}.` : ''}
        </p>
      ) : null}
      {loadError ? (
        <p className="form-message is-error" role="alert">
          {loadError}
        </p>
      ) : null}
      {view.addresses.length > 0 ? (
        <ul className="your-address-list" aria-label="Addresses you monitor">
          {view.addresses.map((address) => (
            <AddressRow key={address.email} address={address} headingLevel={headingLevel === 2 ? 3 : 4} onRemoved={() => addField.current?.querySelector('input')?.focus()} />
          ))}
        </ul>
      ) : view.served === 'yes' ? (
        <p className="muted">No address yet. Add each address you use: Breach Monitor checks them and shows where they leaked.</p>
      ) : null}
      {canAdd ? (
        <div ref={addField}>
          <AddForm />
        </div>
      ) : null}
    </section>
  );
}

function AddForm() {
  const add = useAddresses((s) => s.add);
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();

  async function submit() {
    setDone(undefined);
    const typed = email.trim();
    const checked = Email.safeParse(typed);
    if (!checked.success) {
      setError(typed === '' ? 'Type the email address to add.' : `This is not an email address: ${checked.error.issues[0]?.message ?? 'check it'}.`);
      return;
    }
    setBusy(true);
    try {
      await add(typed);
      setEmail('');
      setError(undefined);
      setDone(`${typed.toLowerCase()} was added.`);
    } catch (caught) {
      setError(onField(toUiError(caught), 'email'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="address-add"
      aria-label="Add an address"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        id={`${id}-email`}
        type="email"
        autoComplete="email"
        label="Email address to add"
        value={email}
        onChange={(value) => {
          setEmail(value);
          setError(undefined);
        }}
        error={error}
        placeholder="you@example.com"
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add address'}
        </button>
      </div>
      {done ? (
        <p className="form-message" role="status">
          {done}
        </p>
      ) : null}
    </form>
  );
}

function AddressRow({ address, headingLevel, onRemoved }: { address: PersonEmail; headingLevel: 3 | 4; onRemoved(): void }) {
  const removal = useAddresses((s) => s.removal);
  const [confirming, setConfirming] = useState<AddressRemoval>();
  const [error, setError] = useState<string>();
  const removeButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  const breached = address.state === 'checked' && (address.breachCount ?? 0) > 0;

  async function askToRemove() {
    setError(undefined);
    try {
      setConfirming(await removal(address.email));
    } catch (caught) {
      setError(toUiError(caught).message);
    }
  }

  return (
    <li className={`your-address your-address-${breached ? 'breached' : address.state}`} aria-labelledby={`${id}-email`} aria-describedby={`${id}-state`}>
      <div className="your-address-line">
        <Icon name={breached ? 'alert' : ICONS[address.state]} />
        <span className="address-email" id={`${id}-email`}>
          {address.email}
        </span>
        <span className="address-state" id={`${id}-state`}>
          {addressStateLine(address)}
        </span>
        {address.removable && !confirming ? (
          <button ref={removeButton} type="button" className="button button-small button-ghost" aria-label={`Remove ${address.email}`} onClick={() => void askToRemove()}>
            Remove
          </button>
        ) : null}
      </div>
      {address.state === 'unverified' ? <CodeForm email={address.email} /> : null}
      {error ? (
        <p className="form-message is-error" role="alert">
          {error}
        </p>
      ) : null}
      {confirming ? (
        <RemoveConfirm
          headingLevel={headingLevel}
          removal={confirming}
          onDone={() => {
            setConfirming(undefined);
            onRemoved();
          }}
          onCancel={() => {
            setConfirming(undefined);
            queueMicrotask(() => removeButton.current?.focus());
          }}
        />
      ) : null}
    </li>
  );
}

function CodeForm({ email }: { email: string }) {
  const verify = useAddresses((s) => s.verify);
  const resend = useAddresses((s) => s.resend);
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function act(what: 'verify' | 'resend') {
    setNote(undefined);
    setError(undefined);
    const typed = code.replace(/\s+/g, '');
    if (what === 'verify' && typed === '') {
      setError('Type the code from the message sent to this address.');
      return;
    }
    setBusy(true);
    try {
      if (what === 'verify') await verify(email, typed);
      else {
        await resend(email);
        setNote(`A new code was sent to ${email}.`);
      }
      setCode('');
    } catch (caught) {
      setError(onField(toUiError(caught), 'code'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="address-code"
      aria-label={`Verify ${email}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void act('verify');
      }}
    >
      <TextField
        id={`${id}-code`}
        label={`Code sent to ${email}`}
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(undefined);
        }}
        error={error}
        autoComplete="one-time-code"
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary button-small" disabled={busy} aria-label={`Verify ${email}`}>
          Verify
        </button>
        <button type="button" className="button button-small" disabled={busy} aria-label={`Send the code again to ${email}`} onClick={() => void act('resend')}>
          Send the code again
        </button>
      </div>
      {note ? (
        <p className="form-message" role="status">
          {note}
        </p>
      ) : null}
    </form>
  );
}

function RemoveConfirm({ removal, headingLevel, onDone, onCancel }: { removal: AddressRemoval; headingLevel: 3 | 4; onDone(): void; onCancel(): void }) {
  const remove = useAddresses((s) => s.remove);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function removeNow() {
    setBusy(true);
    setError(undefined);
    try {
      await remove(removal.email);
      onDone();
    } catch (caught) {
      setError(toUiError(caught).message);
      setBusy(false);
    }
  }

  return (
    <ConfirmPanel
      title={`Remove ${removal.email}?`}
      headingLevel={headingLevel}
      confirmLabel={`Remove ${removal.email}`}
      busyLabel="Removing…"
      busy={busy}
      tone="danger"
      error={error}
      onConfirm={() => void removeNow()}
      onCancel={onCancel}
    >
      <p>{removalLine(removal)}</p>
    </ConfirmPanel>
  );
}
