import { z } from 'zod';
import { Breach, IsoDateTime } from '../api/index.ts';
import { BreachDetails } from '../catalog/details.ts';

/** The state of one (email, data class) of a breach, as the person sees it: server state overlaid with queued intents. */
export const CellState = z.object({
  resolved: z.boolean(),
  resolvedAt: IsoDateTime.optional(),
  /** A change queued in the outbox and not yet confirmed by the service. */
  pending: z.boolean(),
  /** The service refused the change; `reason` is its own words. */
  failed: z.object({ reason: z.string() }).optional(),
});
export type CellState = z.infer<typeof CellState>;

export const DataClassSummary = z.object({
  name: z.string(),
  /** Emails of this breach for which the class is resolved (overlay included). */
  resolved: z.int().nonnegative(),
  total: z.int().nonnegative(),
});
export type DataClassSummary = z.infer<typeof DataClassSummary>;

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
});
export type BreachRow = z.infer<typeof BreachRow>;

export const BreachList = z.object({
  rows: z.array(BreachRow),
  /** Breaches matching the filters. */
  total: z.int().nonnegative(),
  /** Of those, how many have each data class unresolved for some email. */
  unresolvedByDataClass: z.record(z.string(), z.int().nonnegative()),
});
export type BreachList = z.infer<typeof BreachList>;

export const BreachDetail = z.object({
  breach: Breach,
  accounts: z.array(z.object({ email: z.string(), cells: z.record(z.string(), CellState) })),
  isNew: z.boolean(),
  /** From the details feed, when it has this breach. */
  details: BreachDetails.optional(),
});
export type BreachDetail = z.infer<typeof BreachDetail>;

export const AuthState = z.enum(['signed-out', 'signing-in', 'signed-in', 'sign-in-needed']);
export type AuthState = z.infer<typeof AuthState>;

export const AuthStatus = z.object({
  state: AuthState,
  account: z.object({ accountId: z.string(), issuer: z.string(), email: z.string().optional(), name: z.string().optional() }).optional(),
  /** False when no keychain is available: the session will not be remembered. */
  remembered: z.boolean(),
  warning: z.string().optional(),
  error: z.string().optional(),
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
});
export type SyncStatus = z.infer<typeof SyncStatus>;

export const Overview = z.object({
  breaches: z.int().nonnegative(),
  unresolvedByDataClass: z.array(z.object({ name: z.string(), count: z.int().nonnegative() })),
  unresolvedByEmail: z.array(z.object({ email: z.string(), count: z.int().nonnegative() })),
  breachesByYear: z.array(z.object({ year: z.int(), count: z.int().nonnegative() })),
});
export type Overview = z.infer<typeof Overview>;

export const Settings = z.object({
  serviceUrl: z.url(),
  issuer: z.url(),
  syncIntervalMinutes: z.int().min(5).max(24 * 60),
  notifications: z.boolean(),
  startAtLogin: z.boolean(),
  closeToTray: z.boolean(),
  theme: z.enum(['system', 'light', 'dark']),
  /** A remote endpoint of the graph node query interface (the key is kept in the keychain). */
  graphRemoteUrl: z.url().optional(),
  /** The breach details feed (a realtime database); default: the account server's `/rtdb`. */
  feedUrl: z.url().optional(),
  /** How the app authenticates to the feed; default `none` (the catalog is public). */
  feedAuth: z.enum(['none', 'id-token', 'service-account', 'secret']).optional(),
});
export type Settings = z.infer<typeof Settings>;
