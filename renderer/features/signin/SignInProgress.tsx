import { useEffect, useId, useRef, useState } from 'react';
import type { PendingSignIn } from '../../../shared/ipc/views.ts';
import { Icon } from '../../components/Icon.tsx';
import { useAuth } from '../../state/auth.ts';

/**
 * What a window shows while a sign-in waits for the person. The authorization link is always
 * offered (RFC 8252 §8.12 lets a native app show it): the system browser may not have opened —
 * `xdg-open` fails on machines without a desktop, and Electron cannot even tell — and when the
 * app runs in a browser (the browser host) this page opens the link itself, in that same browser.
 */
export function SignInProgress({ pending, compact = false }: { pending: PendingSignIn | undefined; compact?: boolean }) {
  const openedByPage = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (pending?.browser !== 'page' || openedByPage.current === pending.url) return;
    openedByPage.current = pending.url;
    // No opener handle for the provider's page; a blocked pop-up leaves the link below.
    window.open(pending.url, '_blank', 'noopener,noreferrer');
  }, [pending]);

  // The owner of the app's own service is signed in without a browser: nothing to open or wait for there.
  const owner = useAuth((state) => state.status?.ownerSignIn === true);
  if (owner && !pending) {
    return (
      <div className={compact ? 'signin-waiting signin-waiting-compact' : 'signin-waiting'}>
        <p role="status">
          <strong>Signing you in…</strong> This computer runs the service for you, so no browser is needed.
        </p>
      </div>
    );
  }
  const failed = pending?.browser === 'failed';
  return (
    <div className={compact ? 'signin-waiting signin-waiting-compact' : 'signin-waiting'}>
      {failed ? (
        <p role="alert">
          <strong>Breach Monitor couldn’t open a web browser.</strong> Open the sign-in page in a browser on this computer; this window continues on its own when you’re done.
        </p>
      ) : (
        <p role="status">
          <strong>{lead(pending)}</strong> This window continues on its own when you’re done.
        </p>
      )}
      {pending && pending.browser !== 'opening' ? <SignInLink url={pending.url} prompt={failed ? undefined : pending.browser === 'page' ? 'No new tab?' : 'Browser didn’t open?'} /> : null}
    </div>
  );
}

function lead(pending: PendingSignIn | undefined): string {
  if (pending?.browser === 'opening') return 'Opening your browser…';
  if (pending?.browser === 'page') return 'Finish signing in in the new tab.';
  return 'Finish signing in in your browser.';
}

/** The link to open by hand, and the same link to copy (into a browser on this computer: the answer comes back over loopback). */
function SignInLink({ url, prompt }: { url: string; prompt: string | undefined }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'select'>('idle');
  useEffect(() => setCopy('idle'), [url]);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(url);
      setCopy('copied');
    } catch {
      // No clipboard access: select the link so the person can copy it with the keyboard.
      field.current?.focus();
      field.current?.select();
      setCopy('select');
    }
  }

  return (
    <div className="signin-link">
      <p>
        {prompt ? `${prompt} ` : null}
        <a href={url} target="_blank" rel="noopener noreferrer">
          Open the sign-in page
          <Icon name="external" size={14} />
        </a>
      </p>
      <div className="signin-link-copy">
        <label className="visually-hidden" htmlFor={`${id}-link`}>
          Sign-in link
        </label>
        <input id={`${id}-link`} ref={field} className="input" readOnly value={url} spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button button-small" onClick={() => void copyLink()}>
          <Icon name={copy === 'copied' ? 'check' : 'copy'} size={14} />
          {copy === 'copied' ? 'Copied' : 'Copy link'}
        </button>
      </div>
      {copy === 'select' ? (
        <p className="form-note" role="status">
          The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.
        </p>
      ) : null}
    </div>
  );
}
