import { z } from 'zod';
import { IsoDateTime } from '../api/index.ts';

/**
 * The person's accounts at sites, read from a password manager's export (issue 38). What crosses
 * to the UI is the site, the username and the findings: never a password, never a hash of one.
 * The file itself is read by the core from a path; its bytes never pass through the page.
 */

/** The exports people can make today, recognised from the file's content (headers, structure), never its name. */
export const LoginExportFormat = z.enum(['chrome-csv', 'firefox-csv', 'bitwarden-csv', 'bitwarden-json', '1password-csv', '1password-1pux', 'keepassxc-csv']);
export type LoginExportFormat = z.infer<typeof LoginExportFormat>;

/** Each format in words, for the summary and for the sentence a file of another shape gets. */
export const LOGIN_EXPORT_FORMAT_NAMES: Record<LoginExportFormat, string> = {
  'chrome-csv': 'Chrome or Edge passwords (CSV)',
  'firefox-csv': 'Firefox logins (CSV)',
  'bitwarden-csv': 'Bitwarden (CSV)',
  'bitwarden-json': 'Bitwarden (JSON, unencrypted)',
  '1password-csv': '1Password (CSV)',
  '1password-1pux': '1Password (.1pux)',
  'keepassxc-csv': 'KeePassXC (CSV)',
};

/** A path on this computer, absolute (the host's file chooser gives one; the browser host asks the person to type it). */
export const ExportFilePath = z
  .string()
  .min(1, 'must name a file')
  .max(4096, 'must be at most 4,096 characters')
  .refine((value) => value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value) || value.startsWith('\\\\'), 'must be an absolute path, such as /home/you/Downloads/passwords.csv')
  .refine((value) => !value.includes('\0'), 'must not contain a NUL character');

/** Chosen by the UI so it can cancel the import and match its progress events before the call returns. */
export const LoginImportId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 letters, digits, - or _');

export const LoginImportInput = z.strictObject({ importId: LoginImportId, path: ExportFilePath });
export type LoginImportInput = z.infer<typeof LoginImportInput>;

/** A row the import skipped, and why in words ("row 12: no password"). Never the row's content. */
export const SkippedRow = z.object({ row: z.int().positive(), reason: z.string().max(200) });
export type SkippedRow = z.infer<typeof SkippedRow>;

/** What an import did, once it ends. */
export const LoginImportResult = z.object({
  importId: LoginImportId,
  format: LoginExportFormat,
  /** Logins read from the file and kept (site, username, keyed hash, findings). */
  imported: z.int().nonnegative(),
  /** Of those, logins already known from an earlier import (same site, username and password): updated, not doubled. */
  unchanged: z.int().nonnegative(),
  /** Logins already kept (same site and username, whatever the format) that now have another password: the new one replaces the old, their findings are resolved. */
  passwordsChanged: z.int().nonnegative(),
  /**
   * Logins already kept whose password could not be compared: the key of their hashes was lost
   * (its keychain entry deleted, or a machine that could keep it only in memory). Their hash is
   * made again under the new key; their findings stay as they were. Absent when 0.
   */
  passwordsNotCompared: z.int().nonnegative().optional(),
  /** Rows skipped (malformed, no password, not a login); the first ones in `skippedRows`. */
  skipped: z.int().nonnegative(),
  skippedRows: z.array(SkippedRow).max(50),
  /** Sites where a breach in the catalog happened (whatever the address) after a password there last changed, or on an unknown date: a password to change. */
  breachedSites: z.int().nonnegative(),
  /** Sites with a breach in the catalog where every password was changed since: nothing to do. */
  breachedSitesChangedSince: z.int().nonnegative(),
  /** Distinct passwords used at more than one login. */
  reusedPasswords: z.int().nonnegative(),
  /** Distinct passwords waiting for the Pwned Passwords check (it continues in the background). */
  passwordsToCheck: z.int().nonnegative(),
});
export type LoginImportResult = z.infer<typeof LoginImportResult>;

/** Where an import is: `reading` the file, `matching` sites to breaches, `saving` in one transaction. */
export const LoginImportProgress = z.object({
  importId: LoginImportId,
  phase: z.enum(['reading', 'matching', 'saving']),
  done: z.int().nonnegative(),
  /** Null while not known (a file read as a stream). */
  total: z.int().nonnegative().nullable(),
});
export type LoginImportProgress = z.infer<typeof LoginImportProgress>;

/**
 * Watchtower's rule, per breach at a login's site: a breach after the password last changed means
 * `change`; before it, `changed-since` (likely fine); no date in the export: `unknown-date`.
 */
export const SiteBreachVerdict = z.enum(['change', 'changed-since', 'unknown-date']);
export type SiteBreachVerdict = z.infer<typeof SiteBreachVerdict>;

export const SiteBreach = z.object({
  breachId: z.string(),
  title: z.string(),
  /** The breach's date (YYYY-MM-DD), compared with the password's last change. */
  breachDate: z.string(),
  verdict: SiteBreachVerdict,
});
export type SiteBreach = z.infer<typeof SiteBreach>;

/** The Pwned Passwords check of a login's password: its count when found, 0 when not. */
export const PwnedState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('unchecked') }),
  z.object({ state: z.literal('found'), count: z.int().positive() }),
  z.object({ state: z.literal('not-found') }),
  /** The export was imported in an earlier run of the app: the password is not kept, so it can be checked only by importing again. */
  z.object({ state: z.literal('needs-import') }),
]);
export type PwnedState = z.infer<typeof PwnedState>;

/** One account at a site, as kept on this computer. */
export const Login = z.object({
  id: z.string(),
  /** The registrable domain (public suffix list), e.g. `example.co.uk`; null when the row had no usable web address. */
  site: z.string().nullable(),
  /** The address as exported, origin and path only (no query, no fragment, no credentials). */
  url: z.string().nullable(),
  title: z.string().nullable(),
  username: z.string(),
  /** When the password last changed, as the export says; null when it does not say. */
  passwordChangedAt: IsoDateTime.nullable(),
  breaches: z.array(SiteBreach),
  pwned: PwnedState,
  /** Other logins with the same password (found with the keyed hash, locally). */
  reusedWith: z.int().nonnegative(),
  /** `https://<site>/.well-known/change-password` (W3C "A Well-Known URL for Changing Passwords"); null without a site. */
  changePasswordUrl: z.string().nullable(),
  /** When the person marked it dealt with, or a later import showed a new password; null while open. */
  resolvedAt: IsoDateTime.nullable(),
});
export type Login = z.infer<typeof Login>;

/** The Pwned Passwords pass over the passwords of the last import, held in the core's memory only while it runs. */
export const PasswordCheckStatus = z.object({
  state: z.enum(['idle', 'running', 'waiting-for-network', 'done', 'cancelled', 'failed']),
  done: z.int().nonnegative(),
  total: z.int().nonnegative(),
  /** Why it waits or failed, in a sentence; null otherwise. */
  message: z.string().nullable(),
});
export type PasswordCheckStatus = z.infer<typeof PasswordCheckStatus>;

export const LoginImportRecord = z.object({
  format: LoginExportFormat,
  importedAt: IsoDateTime,
  logins: z.int().nonnegative(),
  skipped: z.int().nonnegative(),
});
export type LoginImportRecord = z.infer<typeof LoginImportRecord>;

export const LoginsView = z.object({
  /** Imports so far, newest first. Empty: nothing imported yet. */
  imports: z.array(LoginImportRecord),
  logins: z.array(Login),
  summary: z.object({
    logins: z.int().nonnegative(),
    /** Sites with an open login whose password a breach there came after (or may have: no date). */
    breachedSites: z.int().nonnegative(),
    pwnedPasswords: z.int().nonnegative(),
    reusedPasswords: z.int().nonnegative(),
  }),
  passwordCheck: PasswordCheckStatus,
  /** When the core computed this view (./viewOrder.ts): an answer and an event that crossed keep the later. */
  seq: z.int().nonnegative().optional(),
});
export type LoginsView = z.infer<typeof LoginsView>;

export const EMPTY_LOGINS: LoginsView = {
  imports: [],
  logins: [],
  summary: { logins: 0, breachedSites: 0, pwnedPasswords: 0, reusedPasswords: 0 },
  passwordCheck: { state: 'idle', done: 0, total: 0, message: null },
};

export const LoginIdInput = z.strictObject({ id: z.string().min(1).max(128) });
export const LoginImportCancelInput = z.strictObject({ importId: LoginImportId });
export const DeleteExportInput = z.strictObject({ path: ExportFilePath });
export const DeleteExportResult = z.object({ deleted: z.boolean(), message: z.string().nullable() });
export type DeleteExportResult = z.infer<typeof DeleteExportResult>;
