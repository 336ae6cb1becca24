import { z } from 'zod';
import { BreachDataSource, UserChecks } from '../api/checks.ts';
import { IsoDateTime } from '../api/primitives.ts';

/**
 * Where the app's exposures come from, as the UI needs it: what the service said in its
 * `breach-data` / `breach-checks-pending` headers at the last answer, and its `GET /user/checks`.
 * `unknown` means the service never said (an older or another party's service): the app then
 * shows what it has without calling it demo or checked.
 */
export const BreachDataKnown = z.enum([...BreachDataSource.options, 'unknown']);
export type BreachDataKnown = z.infer<typeof BreachDataKnown>;

export const ChecksView = z.object({
  source: BreachDataKnown,
  /** Addresses the service has not checked yet (`breach-checks-pending`); null when it did not say. */
  pending: z.int().min(0).nullable(),
  /** `GET /user/checks` at the last sync; null while unknown (not served, not asked yet, or not answered). */
  checks: UserChecks.nullable(),
  /** Whether the service serves `GET /user/checks`: `no` after a 404 (then nothing about it is shown as an error). */
  checksServed: z.enum(['yes', 'no', 'unknown']),
  /** When the service last told any of this. */
  updatedAt: IsoDateTime.nullable(),
  /** When invented (demo) exposures were removed from this machine because the source became real. */
  demoClearedAt: IsoDateTime.nullable(),
  /**
   * When the core computed this view, as a count that only grows (./viewOrder.ts): the answer to
   * `checks-get` and a `checks-changed` event travel separately, and the later-computed one wins.
   */
  seq: z.int().nonnegative().optional(),
});
export type ChecksView = z.infer<typeof ChecksView>;

/** The empty view: signed out, or nothing heard from the service yet. */
export const UNKNOWN_CHECKS: ChecksView = { source: 'unknown', pending: null, checks: null, checksServed: 'unknown', updatedAt: null, demoClearedAt: null };

/**
 * The person's choice of where breach data comes from (first-run screen, Settings): their own
 * Have I Been Pwned key with the local service, a breach-alert service they connect to, or
 * invented demo data from the local service.
 */
export const BreachSourceChoice = z.enum(['hibp', 'service', 'demo']);
export type BreachSourceChoice = z.infer<typeof BreachSourceChoice>;

/**
 * A Have I Been Pwned API key as pasted. HIBP issues 32 hexadecimal characters; the check is
 * looser (letters, digits, `-`) so a key of another shape is still taken, and never echoed back.
 */
export const HibpApiKey = z
  .string()
  .trim()
  .min(16, 'an API key is at least 16 characters (Have I Been Pwned gives you 32)')
  .max(128, 'an API key is at most 128 characters')
  .regex(/^[A-Za-z0-9-]+$/, 'an API key has only letters, digits and "-" (no spaces)');

/** Have I Been Pwned's API v3, where the local service asks unless the person names another address. */
export const DEFAULT_HIBP_URL = 'https://haveibeenpwned.com/api/v3';

/**
 * Another address that answers like Have I Been Pwned's API v3 (a proxy, a cache, a compatible
 * service): the base its endpoints hang from, e.g. `https://proxy.example/api/v3`. Plain http
 * only on this computer (`127.0.0.1`, `localhost`): the key travels with every request.
 */
export const HibpUrl = z.url({ protocol: /^https?$/, error: 'Enter a full address, such as https://haveibeenpwned.com/api/v3.' }).refine((value) => {
  // Runs after a failed URL check too: what is not a URL is that check's to say.
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  return url.protocol === 'https:' || /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i.test(url.hostname);
}, 'Use an https:// address: your key is sent with every request (plain http only on this computer, such as http://127.0.0.1:…).');

/** What the UI may know of the choice and the key: never the key, only its last four characters. */
export const BreachSourceView = z.object({
  choice: BreachSourceChoice.nullable(),
  hasHibpKey: z.boolean(),
  /** The key's last four characters, to recognise it. */
  keyHint: z.string().max(4).nullable(),
  /** False when no keychain is available: the key is kept for this session only. */
  keyRemembered: z.boolean(),
  /**
   * How the local service follows the choice: `restarted` (the app restarts it with the key in
   * its environment), `next-start` (it follows when Breach Monitor starts again), `none` (no
   * local service is run by this app).
   */
  localService: z.enum(['restarted', 'next-start', 'none']),
  /** How many invented breaches were removed from this machine by the last switch to real data. */
  demoCleared: z.int().min(0).optional(),
  /** A sentence about the local service when it did not follow (it could not be restarted). */
  problem: z.string().optional(),
  /** The Have I Been Pwned address the local service asks, when the person named one; absent: {@link DEFAULT_HIBP_URL}. */
  hibpUrl: z.string().optional(),
});
export type BreachSourceView = z.infer<typeof BreachSourceView>;

export const BreachSourceSet = z.strictObject({
  choice: BreachSourceChoice,
  /** Required for `hibp` unless a key is already kept; replaces a kept key. */
  apiKey: HibpApiKey.optional(),
  /** Forget the kept key (for example when leaving `hibp`). */
  forgetKey: z.boolean().optional(),
  /** Another Have I Been Pwned address for the local service; null goes back to {@link DEFAULT_HIBP_URL}. */
  hibpUrl: HibpUrl.nullable().optional(),
});

/** The first five hexadecimal characters of a SHA-1, upper case: all that leaves the app of a password (k-anonymity). */
export const PwnedPrefix = z.string().regex(/^[0-9A-F]{5}$/, 'must be exactly 5 hexadecimal characters in upper case');

/** The range API's answer with padding removed: every suffix (35 hexadecimal characters) seen in breaches, and how often. */
export const PwnedRange = z.object({
  entries: z.array(z.object({ suffix: z.string().regex(/^[0-9A-F]{35}$/), count: z.int().min(1) })),
});
export type PwnedRange = z.infer<typeof PwnedRange>;

export const DEFAULT_PWNED_PASSWORDS_URL = 'https://api.pwnedpasswords.com';

/**
 * Whether breaches the account's service sent are Have I Been Pwned's data (CC BY 4.0, to be
 * credited), from what the service said of them: the `breach-data` header of its answers and the
 * `source` of `GET /user/checks` (shared/api/checks.ts), kept per account in `breach_data`.
 *
 * - `demo`: invented by a service started with `--demo`/`--dev` — ours, not credited, unless the
 *   checks answer names whom to credit (`attribution`: demo exposures over Have I Been Pwned's
 *   catalog file, whose titles and descriptions are shown).
 * - `hibp`: looked up with Have I Been Pwned — credited.
 * - `none`: no source now; what is still stored came from an earlier source, and never a demo one
 *   (demo exposures are removed when the source changes) — credited.
 * - unsaid: an older or another party's service speaking only the base contract, whose catalog
 *   is Have I Been Pwned's (CONTRACT.md) — credited. Crediting too often costs a line; too rarely
 *   breaks the licence.
 */
export function creditsHibp(source: BreachDataSource | undefined, attribution: string | null = null): boolean {
  return source !== 'demo' || attribution !== null;
}

/** {@link creditsHibp} for what the service last said (`unknown`: it never said). */
export function viewCreditsHibp(view: ChecksView): boolean {
  return creditsHibp(view.source === 'unknown' ? undefined : view.source, view.checks?.attribution ?? null);
}
