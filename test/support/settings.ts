// The settings a fresh install starts from in tests (electron/core/app.ts builds the real ones
// from the client configuration): the development service on this machine, every choice at its
// default.
import type { Settings } from '../../shared/ipc/views.ts';

export const DEFAULT_SETTINGS: Settings = {
  serviceUrl: 'http://127.0.0.1:6060/api/v1',
  issuer: 'http://127.0.0.1:6060/oidc',
  syncIntervalMinutes: 30,
  notifications: true,
  startAtLogin: false,
  closeToTray: true,
  theme: 'system',
};
