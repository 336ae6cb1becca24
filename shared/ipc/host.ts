import { z } from 'zod';
import { dataClassLabel } from '../api/dataClassNames.ts';

/**
 * Messages between the core and the host that runs it (Electron's main process, or the browser
 * host). The host owns only OS integration; the core asks for it with these, and the host tells
 * the core about the machine (resume, online) with signals.
 */
export const CoreNotification = z.object({
  kind: z.enum(['new-breach', 'resolution-failed', 'sign-in-needed']),
  title: z.string().min(1).max(200),
  body: z.string().max(1000),
  /** Clicking the notification opens this breach. */
  breachId: z.string().optional(),
});
export type CoreNotification = z.infer<typeof CoreNotification>;

export const TrayState = z.object({
  unresolved: z.int().nonnegative(),
  lastSyncAt: z.string().optional(),
  signInNeeded: z.boolean(),
  notificationsPaused: z.boolean(),
  syncing: z.boolean(),
  /** The exposures are invented demo data: the tray says so rather than count them as real. */
  demo: z.boolean().optional(),
});
export type TrayState = z.infer<typeof TrayState>;

export const HostSignal = z.enum(['resume', 'suspend', 'online', 'offline', 'sync-now', 'pause-notifications', 'resume-notifications']);
export type HostSignal = z.infer<typeof HostSignal>;

/** A file name the save dialog proposes: a name, not a path. */
export const PdfFileName = z
  .string()
  .min(5)
  .max(120)
  .regex(/^[^/\\\0]+\.pdf$/, 'must be a file name ending in .pdf, without folders');

/** The host's answer to `save-pdf`: where the file went, or nothing when the person cancelled. */
export const SavedPdf = z.object({ file: z.string().min(1) }).optional();
export type SavedPdf = z.infer<typeof SavedPdf>;

/** Core → host. `id` pairs a request with its reply. */
export const CoreToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open-external'), id: z.int(), url: z.url() }),
  z.object({ type: z.literal('notify'), notification: CoreNotification }),
  z.object({ type: z.literal('tray'), state: TrayState }),
  z.object({ type: z.literal('cipher-available'), id: z.int() }),
  z.object({ type: z.literal('encrypt'), id: z.int(), plaintext: z.string() }),
  z.object({ type: z.literal('decrypt'), id: z.int(), ciphertext: z.string().base64() }),
  z.object({ type: z.literal('settings'), startAtLogin: z.boolean(), closeToTray: z.boolean() }),
  /** Print the window showing the report to a PDF the person places with a save dialog. */
  z.object({ type: z.literal('save-pdf'), id: z.int(), fileName: PdfFileName }),
  z.object({ type: z.literal('ready') }),
]);
export type CoreToHost = z.infer<typeof CoreToHost>;

/** Host → core. */
export const HostToCore = z.discriminatedUnion('type', [
  z.object({ type: z.literal('signal'), signal: HostSignal }),
  z.object({ type: z.literal('reply'), id: z.int(), ok: z.boolean(), value: z.unknown().optional(), error: z.string().optional() }),
  /** A UI's MessagePort to the core travels in this message's transfer list. */
  z.object({ type: z.literal('connect') }),
  /** A notification was clicked: connected UIs should show this breach (`open-breach` event). */
  z.object({ type: z.literal('open-breach'), id: z.string().min(1) }),
  /** The app is quitting: close the core cleanly, then exit. */
  z.object({ type: z.literal('shutdown') }),
]);
export type HostToCore = z.infer<typeof HostToCore>;

// Notification wording lives here, beside the message that carries it, so every host shows the
// same words and the shell's tests can pin them. The core decides when; these decide what.

/** One new breach as the `breaches-new` event describes it. */
export interface NewBreachNotice {
  id: string;
  breachDate: string;
  dataClasses: readonly string[];
  emails: readonly string[];
}

/** One resolution the service refused. */
export interface FailedResolutionNotice {
  breachId: string;
  reason: string;
}

const TITLE_MAX = 200;
const BODY_MAX = 1000;

/** "a", "a and b", "a, b and c", "a, b, c and 2 more". */
export function listPhrase(items: readonly string[], shown = 3): string {
  if (items.length === 0) return '';
  if (items.length === 1) return items[0]!;
  if (items.length <= shown) return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
  return `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}

function clamp(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function notification(kind: CoreNotification['kind'], title: string, body: string, breachId?: string): CoreNotification {
  return { kind, title: clamp(title, TITLE_MAX), body: clamp(body, BODY_MAX), ...(breachId === undefined ? {} : { breachId }) };
}

/**
 * One notification per sync, however many breaches it found: "alice@example.com appears in Adobe
 * (2013-10-04): Passwords, Email addresses and Usernames", or a summary when there are several.
 * Undefined when there is nothing new.
 */
export function newBreachesNotification(breaches: readonly NewBreachNotice[]): CoreNotification | undefined {
  if (breaches.length === 0) return undefined;
  if (breaches.length === 1) {
    const breach = breaches[0]!;
    const who = listPhrase(breach.emails, 1) || 'One of your email addresses';
    const verb = breach.emails.length > 1 ? 'appear' : 'appears';
    // Named as the app shows them: a slug-speaking service's `email-addresses` reads "Email addresses".
    const what = breach.dataClasses.length > 0 ? `: ${listPhrase(breach.dataClasses.map(dataClassLabel), 4)}` : '';
    return notification('new-breach', `New breach: ${breach.id}`, `${who} ${verb} in ${breach.id} (${breach.breachDate})${what}`, breach.id);
  }
  const emails = [...new Set(breaches.flatMap((breach) => breach.emails))];
  const who = emails.length > 0 ? listPhrase(emails, 2) : 'Your email addresses';
  const verb = emails.length > 1 || emails.length === 0 ? 'appear' : 'appears';
  const where = listPhrase(breaches.map((breach) => `${breach.id} (${breach.breachDate})`));
  return notification('new-breach', `${breaches.length} new breaches`, `${who} ${verb} in ${where}. Open Breach Monitor to review them.`);
}

/** A breach new to the catalog at a site where the person has an account (logins read from an export). */
export interface SiteBreachNotice {
  breachId: string;
  title: string;
  /** The registrable domain of the person's login. */
  site: string;
  breachDate: string;
}

/**
 * New breaches at sites where the person has an account; undefined when none. Worded as a breach
 * of an address is, with what to do: their address may not be in it, their password may be.
 */
export function newSiteBreachesNotification(breaches: readonly SiteBreachNotice[]): CoreNotification | undefined {
  if (breaches.length === 0) return undefined;
  if (breaches.length === 1) {
    const breach = breaches[0]!;
    return notification(
      'new-breach',
      `New breach at ${breach.site}`,
      `${breach.title} (${breach.breachDate}): you have an account at ${breach.site}. Change your password there if it was set before the breach.`,
      breach.breachId,
    );
  }
  const sites = listPhrase([...new Set(breaches.map((breach) => breach.site))]);
  return notification('new-breach', `${breaches.length} new breaches at your sites`, `Sites where you have an account were breached: ${sites}. Open Breach Monitor to see which passwords to change.`);
}

/** Resolutions the service refused in one flush; undefined when none did. */
export function failedResolutionsNotification(failures: readonly FailedResolutionNotice[]): CoreNotification | undefined {
  if (failures.length === 0) return undefined;
  const breaches = [...new Set(failures.map((failure) => failure.breachId))];
  if (failures.length === 1) {
    const failure = failures[0]!;
    return notification('resolution-failed', 'A change could not be saved', `${failure.breachId}: ${failure.reason}`, failure.breachId);
  }
  const body = `The service refused ${failures.length} changes in ${listPhrase(breaches)}. Open Breach Monitor to retry or discard them.`;
  return notification('resolution-failed', `${failures.length} changes could not be saved`, body, breaches.length === 1 ? breaches[0] : undefined);
}

export function signInNeededNotification(): CoreNotification {
  return notification('sign-in-needed', 'Sign in to Breach Monitor', 'Your session has ended. Sign in again to keep checking for new breaches.');
}
