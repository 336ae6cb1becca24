import { CoreError, type Settings } from '../../../shared/ipc/index.ts';
import type { CurrentAuth } from '../auth/CurrentAuth.ts';
import type { HostBridge } from '../host.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { SettingsStore } from '../settings/SettingsStore.ts';
import { contractOf, syncIntervalFor } from '../settings/contract.ts';

export interface SettingsHandlerDeps {
  settings: SettingsStore;
  auth: CurrentAuth;
  sessions: CurrentSession;
  host: Pick<HostBridge, 'applyShellSettings'>;
  /** Throws ConfigError when this service/issuer pair is not a usable sign-in configuration. */
  checkService(serviceUrl: string, issuer: string): void;
  /** The sensitive setting changed: every view that names or counts breaches is out of date. */
  onSensitivePolicyChange?(): void;
}

/** App settings. Switching service or issuer needs a sign-out first and gives sign-in a fresh start. */
export function createSettingsHandlers({ settings, auth, sessions, host, checkService, onSensitivePolicyChange }: SettingsHandlerDeps) {
  return {
    'settings-get': () => settings.get(),
    'settings-set': (change) => {
      const current = settings.get();
      // Another contract is another service for sign-in: the newer one needs its scope on the tokens.
      const switching =
        (change.serviceUrl !== undefined && change.serviceUrl !== current.serviceUrl) ||
        (change.issuer !== undefined && change.issuer !== current.issuer) ||
        (change.apiContract !== undefined && contractOf({ apiContract: change.apiContract ?? undefined }) !== contractOf(current));
      if (switching && auth.status().state !== 'signed-out') throw new CoreError('conflict', 'Sign out before switching to another service.');
      if (switching) checkService(change.serviceUrl ?? current.serviceUrl, change.issuer ?? current.issuer);
      const next: Settings = settings.update(change);
      if (switching) auth.replace();
      sessions.get()?.sync.scheduler.setIntervalMinutes(syncIntervalFor(next.syncIntervalMinutes, contractOf(next)));
      host.applyShellSettings?.({ startAtLogin: next.startAtLogin, closeToTray: next.closeToTray });
      if ((next.showSensitive === true) !== (current.showSensitive === true)) onSensitivePolicyChange?.();
      return next;
    },
  } satisfies HandlerSlice;
}
