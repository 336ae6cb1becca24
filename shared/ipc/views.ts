import { z } from 'zod';
import { ApiContract, Breach, IsoDateTime } from '../api/index.ts';
import { SearchRemoteInstance } from '../search/api.ts';
import { BreachDetails } from '../catalog/details.ts';
import { BreachSourceChoice, HibpUrl } from './checks.ts';

/** The state of one (email, data class) of a breach, as the person sees it: server state overlaid with queued intents. */
export const CellState = z.object({
  resolved: z.boolean(),
  resolvedAt: IsoDateTime.optional(),
  /** A change queued in the outbox and not yet confirmed by the service. */
  pending: z.boolean(),
  /** The service refused the change; `reason` is its own words. */
  failed: z.object({ reason: z.string() }).optional(),
  /** Kept on this machine only: the service's contract cannot take this change (never sent). */
  localOnly: z.boolean().optional(),
});
export type CellState = z.infer<typeof CellState>;

export const DataClassSummary = z.object({
  name: z.string(),
  /** Emails of this breach for which the class is resolved (overlay included). */
  resolved: z.int().nonnegative(),
  total: z.int().nonnegative(),
});
export type DataClassSummary = z.infer<typeof DataClassSummary>;

/** The service changed its catalog or breach data under this account: what to tell the person until dismissed. */
export const CatalogNotice = z.object({
  /** The newest change it covers: dismissing passes this, so a change that arrives meanwhile stays. */
  upTo: z.int().min(1),
  /** One sentence per change and address. */
  lines: z.array(z.string()).min(1),
});
export type CatalogNotice = z.infer<typeof CatalogNotice>;

/** One row of the breaches list. */
export const BreachRow = z.object({
  breach: Breach,
  emails: z.array(z.string()),
  dataClasses: z.array(DataClassSummary),
  /** Unresolved (email, data class) pairs. */
  unresolved: z.int().nonnegative(),
  pending: z.int().nonnegative(),
  failed: z.int().nonnegative(),
  /** First seen in the latest sync that was not the baseline. */
  isNew: z.boolean(),
  /** From the details feed, when it has this breach. */
  details: BreachDetails.optional(),
  /** When the breach left the service's catalog (it stays in the person's list with its last known fields and resolutions). */
  removedFromCatalogAt: z.string().optional(),
});
export type BreachRow = z.infer<typeof BreachRow>;

export const BreachList = z.object({
  rows: z.array(BreachRow),
  /** Breaches matching the filters. */
  total: z.int().nonnegative(),
  /** Of those, how many have each data class unresolved for some email. */
  unresolvedByDataClass: z.record(z.string(), z.int().nonnegative()),
  /** Sensitive breaches that match the other filters but are left out because the query did not include them. */
  hiddenSensitive: z.int().nonnegative(),
  /** Whether any shown row comes from Have I Been Pwned's catalog (credited then; never for the generated demo catalog). */
  includesHibp: z.boolean(),
  /** What the service's latest catalog changes did to this account, until dismissed. */
  catalogNotice: CatalogNotice.optional(),
});
export type BreachList = z.infer<typeof BreachList>;

export const BreachDetail = z.object({
  breach: Breach,
  accounts: z.array(z.object({ email: z.string(), cells: z.record(z.string(), CellState) })),
  isNew: z.boolean(),
  /** From the details feed, when it has this breach. */
  details: BreachDetails.optional(),
  /** Whether the breach comes from Have I Been Pwned's catalog (not the generated demo catalog). */
  includesHibp: z.boolean(),
  /** When the breach left the service's catalog (its resolutions are kept and can still be changed). */
  removedFromCatalogAt: z.string().optional(),
});
export type BreachDetail = z.infer<typeof BreachDetail>;

export const AuthState = z.enum(['signed-out', 'signing-in', 'signed-in', 'sign-in-needed']);
export type AuthState = z.infer<typeof AuthState>;

/**
 * How the sign-in page reaches the person: 'opening' while the app asks the system browser,
 * 'opened' once it has, 'page' when the app's own page opens it (the browser host), 'failed'
 * when no browser could be opened (then the link is what the person uses).
 */
export const SignInBrowser = z.enum(['opening', 'opened', 'page', 'failed']);
export type SignInBrowser = z.infer<typeof SignInBrowser>;

/** A sign-in waiting for the person: the authorization link to open by hand if need be (RFC 8252). */
export const PendingSignIn = z.object({
  url: z.url({ protocol: /^https?$/ }),
  browser: SignInBrowser,
});
export type PendingSignIn = z.infer<typeof PendingSignIn>;

export const AuthStatus = z.object({
  state: AuthState,
  account: z.object({ accountId: z.string(), issuer: z.string(), email: z.string().optional(), name: z.string().optional() }).optional(),
  /** False when no keychain is available: the session will not be remembered. */
  remembered: z.boolean(),
  /**
   * Where the core keeps secrets (the sign-in, API tokens and keys a person adds): the OS
   * keychain, files encrypted by the OS's safe storage, or memory only (gone when the app quits).
   * What the UI says about a saved token follows this, never an assumption.
   */
  secretsKeptIn: z.enum(['keychain', 'encrypted-file', 'memory']).optional(),
  warning: z.string().optional(),
  error: z.string().optional(),
  /** Only while `state` is 'signing-in'. */
  signIn: PendingSignIn.optional(),
  /**
   * True when signing in needs no browser: the service is the person's own, started by the app,
   * which signs them in as its owner. The sign-in control then says "Continue" (docs/auth.md).
   */
  ownerSignIn: z.boolean().optional(),
  /**
   * When the core computed this status, as a count that only grows (./viewOrder.ts): an answer
   * to `auth-status` and an `auth-changed` event travel separately, and the later-computed one wins.
   */
  seq: z.int().nonnegative().optional(),
});
export type AuthStatus = z.infer<typeof AuthStatus>;

export const SyncPhase = z.enum(['idle', 'pushing', 'pulling', 'applying']);
export const SyncStatus = z.object({
  online: z.boolean(),
  phase: SyncPhase,
  lastSyncAt: IsoDateTime.optional(),
  lastError: z.string().optional(),
  pending: z.int().nonnegative(),
  failed: z.int().nonnegative(),
  progress: z.object({ done: z.int().nonnegative(), total: z.int().nonnegative() }).optional(),
  /**
   * Why the list is what it was rather than fresh, when the service said so: `unavailable` (503
   * or 500: keep what you hold), `rate-limited` (429: waiting as told), `no-account` (no account
   * at the service: sign up at `signUpUrl`; not retried until the next hourly sync or "Sync now").
   */
  notice: z.object({ kind: z.enum(['unavailable', 'rate-limited', 'no-account']), retryAt: IsoDateTime.optional(), signUpUrl: z.url().optional() }).optional(),
  /** Changes kept on this machine only (the service's contract cannot take them). */
  localOnly: z.int().nonnegative().optional(),
  /**
   * When the core computed this view, as a count that only grows: an answer to `sync-status` and
   * a `sync-changed` event travel over different connections, so a window can receive an older
   * view after a newer one; it keeps the view with the higher `seq`.
   */
  seq: z.int().nonnegative().optional(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const Overview = z.object({
  /** Every breach the policy shows (sensitive ones only when the person opted in). */
  breaches: z.int().nonnegative(),
  /** The sensitive ones: counted in the figures when `sensitiveShown`, otherwise left out of them (and of `breaches`). */
  sensitiveBreaches: z.int().nonnegative(),
  /** The person opted in to sensitive breaches (Settings); absent: they are hidden. */
  sensitiveShown: z.boolean().optional(),
  /** Whether any breach comes from Have I Been Pwned's catalog (credited then). */
  includesHibp: z.boolean(),
  unresolvedByDataClass: z.array(z.object({ name: z.string(), count: z.int().nonnegative() })),
  unresolvedByEmail: z.array(z.object({ email: z.string(), count: z.int().nonnegative() })),
  breachesByYear: z.array(z.object({ year: z.int(), count: z.int().nonnegative() })),
});
export type Overview = z.infer<typeof Overview>;

/** How often sync runs by itself: the setting's one definition (the scheduler validates with it too). */
export const SyncIntervalMinutes = z
  .int()
  .min(5)
  .max(24 * 60);
export const DEFAULT_SYNC_INTERVAL_MINUTES = 30;

export const Settings = z.object({
  serviceUrl: z.url(),
  issuer: z.url(),
  syncIntervalMinutes: SyncIntervalMinutes,
  notifications: z.boolean(),
  startAtLogin: z.boolean(),
  closeToTray: z.boolean(),
  theme: z.enum(['system', 'light', 'dark']),
  /**
   * Show sensitive breaches (shared/api/sensitive.ts): off or absent, they are left out of every
   * list, banner, notification, count, search, graph and report until the person turns this on.
   */
  showSensitive: z.boolean().optional(),
  /** A remote endpoint of the graph node query interface (the key is kept in the keychain). */
  graphRemoteUrl: z.url().optional(),
  /** A remote search instance (the API token is kept in the keychain). */
  searchRemote: SearchRemoteInstance.optional(),
  /** The breach details feed (a realtime database); default: the account server's `/rtdb`. */
  feedUrl: z.url().optional(),
  /** How the app authenticates to the feed; default `none` (the catalog is public). */
  feedAuth: z.enum(['none', 'id-token', 'service-account', 'secret']).optional(),
  /**
   * Which contract the service speaks: `v1` (`/api/v1`, the default) or `firefox-v1` (the newer
   * Monitor contract at the same origin's `/api/firefox/v1`). Chosen here, not probed.
   */
  apiContract: ApiContract.optional(),
  /** Where a person signs up when the service has no account for them (newer contract); default: the service's site. */
  signUpUrl: z.url().optional(),
  /** Where breach data comes from, as chosen on the first-run screen or here; absent until chosen. */
  breachSource: BreachSourceChoice.optional(),
  /** Pwned Passwords' range API; default `https://api.pwnedpasswords.com` (a proxy or a test double otherwise). */
  pwnedPasswordsUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Have I Been Pwned's API v3 for the local service; default `https://haveibeenpwned.com/api/v3` (a proxy or a compatible service otherwise). */
  hibpUrl: HibpUrl.optional(),
});
export type Settings = z.infer<typeof Settings>;

/**
 * A change of settings: the fields given are set; an optional field given as `null` goes back to
 * its default (a saved feed address or sign-up page can be cleared, not only replaced).
 */
export const SettingsChange = Settings.partial()
  .extend({
    graphRemoteUrl: Settings.shape.graphRemoteUrl.unwrap().nullable().optional(),
    searchRemote: Settings.shape.searchRemote.unwrap().nullable().optional(),
    feedUrl: Settings.shape.feedUrl.unwrap().nullable().optional(),
    feedAuth: Settings.shape.feedAuth.unwrap().nullable().optional(),
    apiContract: Settings.shape.apiContract.unwrap().nullable().optional(),
    signUpUrl: Settings.shape.signUpUrl.unwrap().nullable().optional(),
    pwnedPasswordsUrl: Settings.shape.pwnedPasswordsUrl.unwrap().nullable().optional(),
    hibpUrl: Settings.shape.hibpUrl.unwrap().nullable().optional(),
  })
  .strict();
export type SettingsChange = z.infer<typeof SettingsChange>;

/** The settings after `change`; throws a ZodError naming the key when the result is not valid settings. */
export function applySettingsChange(current: Settings, change: SettingsChange): Settings {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return Settings.parse(merged);
}
