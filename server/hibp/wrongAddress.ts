/**
 * The base URL HIBP's API v3 would have, when `base` looks like one that lost part of it
 * (`http://host:port`, `…/api`, `…/api/v2`); undefined when it already ends in `/api/v3`.
 */
export function suggestedHibpBase(base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/api\/v3$/i.test(path)) return undefined;
  const fixed = /\/api\/v\d+$/i.test(path) ? path.replace(/v\d+$/i, 'v3') : /\/api$/i.test(path) ? `${path}/v3` : `${path}/api/v3`;
  return `${url.origin}${fixed}`;
}

/**
 * The problem a person reads when the configured address does not answer like HIBP's API v3
 * (a 404 on `subscription/status`, or not its documented JSON): one sentence naming the
 * address and, where the mistake is plain, the address meant.
 */
export function wrongAddressProblem(base: string): { code: 'wrong-address'; detail: string } {
  const suggestion = suggestedHibpBase(base);
  return {
    code: 'wrong-address',
    detail: `This address (${base}) does not answer like Have I Been Pwned's API v3${suggestion ? ` — did you mean ${suggestion}?` : '; check the Have I Been Pwned address.'}`,
  };
}
