export const HIBP_URL = 'https://haveibeenpwned.com';
export const PWNED_PASSWORDS_URL = 'https://haveibeenpwned.com/Passwords';

/** The licence (CC BY 4.0) asks for attribution wherever the catalog's data is shown. */
export function Credit({ className }: { className?: string }) {
  return (
    <p className={className ? `credit ${className}` : 'credit'}>
      Breach data:{' '}
      <a href={HIBP_URL} target="_blank" rel="noreferrer">
        Have I Been Pwned (haveibeenpwned.com)
      </a>
      , CC BY 4.0
    </p>
  );
}

/** Wherever a password's standing in Pwned Passwords is shown (the password check, Your accounts). */
export function PasswordDataCredit() {
  return (
    <p className="credit">
      Password data:{' '}
      <a href={PWNED_PASSWORDS_URL} target="_blank" rel="noreferrer">
        Pwned Passwords by Have I Been Pwned
      </a>
    </p>
  );
}
