import { getDomain } from 'tldts';

/** The longest address kept: longer ones are not web addresses a person typed (and are not kept whole). */
const MAX_URL = 2048;

export interface LoginAddress {
  /** The registrable domain (public suffix list, through tldts), e.g. `example.co.uk`; null without an http(s) address on one. */
  site: string | null;
  /** Origin and path only: the query, the fragment and any credentials (`user:pass@`) are dropped, as they may hold secrets. */
  url: string | null;
}

const NONE: LoginAddress = { site: null, url: null };

/**
 * Where a login is used, from the address its export gives. Only http(s) addresses name a site:
 * an `android://` or `ftp://` login, an IP address or a bare public suffix has none (it can
 * match no breach). An address without a scheme (`example.com/login`, as KeePassXC keeps what
 * was typed) is read as https.
 */
export function loginAddress(raw: string | null): LoginAddress {
  const text = raw?.trim();
  if (!text || text.length > MAX_URL) return NONE;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/:]+:\d+(\/|$)/.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return NONE;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return NONE;
  const site = getDomain(url.hostname, { allowPrivateDomains: false });
  return { site: site === null || site === '' ? null : site, url: `${url.origin}${url.pathname}` };
}

/** The registrable domain of a breach's `domain` field (the catalog's, e.g. `adobe.com` or `forum.example.org`). */
export function registrableDomain(domain: string): string | null {
  const trimmed = domain.trim().toLowerCase();
  if (trimmed === '') return null;
  return getDomain(trimmed, { allowPrivateDomains: false }) || null;
}
