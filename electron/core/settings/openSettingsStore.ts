import { DEFAULT_SYNC_INTERVAL_MINUTES } from '../../../shared/ipc/index.ts';
import { SettingsStore } from './SettingsStore.ts';

/**
 * The app's settings file, with the first-run defaults: the service and issuer the sign-in
 * configuration names. A value that was unreadable falls back to its default and is reported,
 * never thrown, so a damaged file cannot keep the app from starting.
 */
export function openSettingsStore(dataDir: string, service: { apiBaseUrl: string; issuer: string }, warn: (problem: string) => void): SettingsStore {
  const settings = new SettingsStore(dataDir, {
    serviceUrl: service.apiBaseUrl,
    issuer: service.issuer,
    syncIntervalMinutes: DEFAULT_SYNC_INTERVAL_MINUTES,
    notifications: true,
    startAtLogin: false,
    closeToTray: true,
    theme: 'system',
  });
  for (const problem of settings.problems) warn(`settings: ${problem}`);
  return settings;
}
