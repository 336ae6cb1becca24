import { useEffect, useRef } from 'react';
import { WelcomeCard } from './WelcomeCard.tsx';
import { useAddresses } from '../../state/addresses.ts';
import { useFirstRun } from '../../state/firstRun.ts';
import { YourAddresses } from '../addresses/YourAddresses.tsx';

/**
 * The first run's second step, once signed in with the person's own key: which addresses to
 * watch. Each is added, checked and shown where it stands right here; "Show my breaches" goes on
 * to the app (addresses can be added later in Settings → Your addresses).
 */
export function WelcomeAddresses() {
  const setStep = useFirstRun((s) => s.setAddressesStep);
  const count = useAddresses((s) => s.view.addresses.length);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Your addresses · Breach Monitor';
    title.current?.focus();
  }, []);
  return (
    <WelcomeCard>
      <h1 className="welcome-title" ref={title} tabIndex={-1}>
        Which addresses should Breach Monitor watch?
      </h1>
      <p className="welcome-lead">Add each email address you use. Breach Monitor checks them with Have I Been Pwned and shows, here and in the app, what each was found in.</p>
      <YourAddresses headingLevel={2} />
      <div className="form-actions">
        <button type="button" className="button button-primary button-large" onClick={() => setStep(false)}>
          {count > 0 ? 'Show my breaches' : 'Skip for now'}
        </button>
      </div>
      {count === 0 ? <p className="form-note">You can add addresses later in Settings → Your addresses.</p> : null}
    </WelcomeCard>
  );
}
