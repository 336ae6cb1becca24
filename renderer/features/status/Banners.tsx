import { Icon } from '../../components/Icon.tsx';
import { plural } from '../../lib/format.ts';
import { useAuth } from '../../state/auth.ts';
import { useNotices } from '../../state/notices.ts';
import { useRoute } from '../../state/route.ts';
import { useSync } from '../../state/sync.ts';
import { useChecks } from '../../state/checks.ts';
import { SignInProgress } from '../signin/SignInProgress.tsx';
import { signInActionLabel } from '../signin/signInAction.ts';

/** Shown while the app is usable offline but cannot sync until the person signs in again. */
export function SignInBanner() {
  const { status, busy, error, signIn, cancel } = useAuth();
  const signingIn = busy === 'signing-in' || status?.state === 'signing-in';
  if (status?.state !== 'sign-in-needed' && !(signingIn && status?.account)) return null;
  return (
    <section className="banner banner-warning" aria-label="Sign-in needed">
      <Icon name="lock" />
      <div className="banner-text">
        {signingIn ? (
          <SignInProgress pending={status?.state === 'signing-in' ? status.signIn : undefined} compact />
        ) : (
          <p>
            <strong>Sign in again to sync.</strong> Your session{status?.account?.email ? ` for ${status.account.email}` : ''} has ended. You can keep reviewing and resolving here; changes wait in the
            queue until you’re back.
          </p>
        )}
        {error && !signingIn ? (
          <p className="banner-error" role="alert">
            Sign-in didn’t work: {error}
          </p>
        ) : null}
      </div>
      {signingIn ? (
        <button type="button" className="button button-small" onClick={() => void cancel()}>
          Cancel
        </button>
      ) : (
        <button type="button" className="button button-primary button-small" onClick={() => void signIn()}>
          {signInActionLabel(status)}
        </button>
      )}
    </section>
  );
}

export function DisconnectedBanner() {
  const connected = useSync((s) => s.connected);
  if (connected) return null;
  return (
    <section className="banner banner-danger" aria-label="Connection lost">
      <Icon name="cloudOff" />
      {/* .banner-text is a grid of lines: the sentence goes in one paragraph inside it. */}
      <div className="banner-text">
        <p role="status">
          <strong>This window lost its connection to Breach Monitor.</strong> Reconnecting… What you see may be out of date.
        </p>
      </div>
    </section>
  );
}

export function NewBreachesBanner() {
  const { newBreaches, dismiss } = useNotices();
  const openBreach = useRoute((s) => s.openBreach);
  // Never announce an invented breach as real.
  const demo = useChecks((s) => s.view.source === 'demo');
  if (newBreaches.length === 0) return null;
  const first = newBreaches[0] as string;
  return (
    <section className="banner banner-info" aria-label="New breaches">
      <Icon name="alert" />
      <div className="banner-text">
        <p>
          {demo ? <strong>Demo: </strong> : null}
          <strong>{plural(newBreaches.length, demo ? 'new invented breach' : 'new breach', demo ? 'new invented breaches' : 'new breaches')}</strong> naming you: {newBreaches.slice(0, 3).join(', ')}
          {newBreaches.length > 3 ? ` and ${newBreaches.length - 3} more` : ''}.
        </p>
      </div>
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          openBreach(first);
          dismiss();
        }}
      >
        Review {newBreaches.length === 1 ? first : 'the newest'}
      </button>
      <button type="button" className="button button-ghost button-small" onClick={dismiss}>
        Dismiss
      </button>
    </section>
  );
}

/**
 * Why the list is what it was: the service was unavailable or asked us to wait (the list is kept
 * as it was, never emptied), or it has no account for this person (a sign-up link; the app does
 * not keep asking).
 */
export function ServiceNoticeBanner() {
  const { status, openSignUp } = useSync();
  const notice = status?.notice;
  if (!notice) return null;
  if (notice.kind === 'no-account') {
    const url = notice.signUpUrl;
    return (
      <section className="banner banner-warning" aria-label="No account at the service">
        <Icon name="lock" />
        <div className="banner-text">
          <p role="status">
            <strong>This service has no account for you yet.</strong> Sign up at{' '}
            {url ? (
              <a
                href={url}
                onClick={(event) => {
                  event.preventDefault();
                  void openSignUp(url);
                }}
              >
                {new URL(url).host}
              </a>
            ) : (
              'the service’s site'
            )}
            , then choose Sync now. Breach Monitor will not keep asking until then.
          </p>
        </div>
      </section>
    );
  }
  const when = notice.retryAt ? new Date(notice.retryAt).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' }) : undefined;
  return (
    <section className="banner banner-info" aria-label="Service unavailable">
      <Icon name="cloudOff" />
      <div className="banner-text">
        <p role="status">
          <strong>{notice.kind === 'rate-limited' ? 'The service asked us to wait, showing what you had.' : 'The service is unavailable, showing what you had.'}</strong> Your changes stay queued on
          this computer{when ? `; trying again after ${when}` : ''}.
        </p>
      </div>
    </section>
  );
}
