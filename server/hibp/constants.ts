export const HIBP_ATTRIBUTION = 'Have I Been Pwned';

/** How a key is shown anywhere (logs, the start-up banner): its last 4 characters only. */
export function describeHibpKey(key: string): string {
  return `…${key.slice(-4)}`;
}
