/** Where a Have I Been Pwned API key is bought (the key is the person's own). */
export const HIBP_KEY_URL = 'https://haveibeenpwned.com/API/Key';

/**
 * Where a key comes from and where it goes: bought at Have I Been Pwned, kept in the system
 * keychain like the sign-in — or, without one, for this session only (said as plainly as the
 * sign-in's own note).
 */
export function KeyHint({ remembered, kept }: { remembered: boolean; kept: string | null }) {
  return (
    <>
      {kept ? `A key ending in ${kept} is kept; paste another to replace it. ` : null}
      Don’t have one?{' '}
      <a href={HIBP_KEY_URL} target="_blank" rel="noreferrer">
        Get an API key from Have I Been Pwned
      </a>
      .{' '}
      {remembered
        ? 'It is kept in your system keychain and handed only to the local service.'
        : 'No keychain is available, so the key is kept for this session only: you’ll paste it again next time Breach Monitor starts.'}
    </>
  );
}
