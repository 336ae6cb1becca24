import { z } from 'zod';

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
});
export type TrayState = z.infer<typeof TrayState>;

export const HostSignal = z.enum(['resume', 'suspend', 'online', 'offline', 'sync-now', 'pause-notifications', 'resume-notifications']);
export type HostSignal = z.infer<typeof HostSignal>;

/** Core → host. `id` pairs a request with its reply. */
export const CoreToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open-external'), id: z.int(), url: z.url() }),
  z.object({ type: z.literal('notify'), notification: CoreNotification }),
  z.object({ type: z.literal('tray'), state: TrayState }),
  z.object({ type: z.literal('cipher-available'), id: z.int() }),
  z.object({ type: z.literal('encrypt'), id: z.int(), plaintext: z.string() }),
  z.object({ type: z.literal('decrypt'), id: z.int(), ciphertext: z.string().base64() }),
  z.object({ type: z.literal('settings'), startAtLogin: z.boolean(), closeToTray: z.boolean() }),
  z.object({ type: z.literal('ready') }),
]);
export type CoreToHost = z.infer<typeof CoreToHost>;

/** Host → core. */
export const HostToCore = z.discriminatedUnion('type', [
  z.object({ type: z.literal('signal'), signal: HostSignal }),
  z.object({ type: z.literal('reply'), id: z.int(), ok: z.boolean(), value: z.unknown().optional(), error: z.string().optional() }),
]);
export type HostToCore = z.infer<typeof HostToCore>;
