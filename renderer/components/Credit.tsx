export const HIBP_URL = 'https://haveibeenpwned.com';

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
