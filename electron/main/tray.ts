import { app, Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import path from 'node:path';
import type { TrayState } from '../../shared/ipc/host.ts';

export const TRAY_LABELS = {
  syncNow: 'Sync now',
  open: 'Open',
  pauseNotifications: 'Pause notifications',
  quit: 'Quit',
} as const;

export const INITIAL_TRAY_STATE: TrayState = { unresolved: 0, signInNeeded: false, notificationsPaused: false, syncing: false };

export interface TrayActions {
  syncNow(): void;
  open(): void;
  setNotificationsPaused(paused: boolean): void;
  quit(): void;
}

/** "14:05" in the person's local time. */
export function clockTime(iso: string): string | undefined {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

export function statusLines(state: TrayState): { status: string; lastSync: string } {
  // Invented exposures are never counted in the tray as if they were real.
  const status = state.signInNeeded ? 'Sign-in needed' : state.demo ? `Demo data (invented) — ${state.unresolved} unresolved` : `${state.unresolved} unresolved`;
  const time = state.lastSyncAt ? clockTime(state.lastSyncAt) : undefined;
  const lastSync = state.syncing ? 'syncing…' : time ? `last sync ${time}` : 'not synced yet';
  return { status, lastSync };
}

/** "Breach Monitor — 3 unresolved · last sync 14:05". */
export function trayTooltip(state: TrayState): string {
  const { status, lastSync } = statusLines(state);
  return `Breach Monitor — ${status.charAt(0).toLowerCase()}${status.slice(1)} · ${lastSync}`;
}

/**
 * The status also sits at the top of the menu because Linux tray hosts (AppIndicator) show no
 * tooltips.
 */
export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  const { status, lastSync } = statusLines(state);
  return [
    { label: status, enabled: false },
    { label: lastSync.charAt(0).toUpperCase() + lastSync.slice(1), enabled: false },
    { type: 'separator' },
    { label: TRAY_LABELS.syncNow, enabled: !state.syncing && !state.signInNeeded, click: () => actions.syncNow() },
    { label: TRAY_LABELS.open, click: () => actions.open() },
    {
      label: TRAY_LABELS.pauseNotifications,
      type: 'checkbox',
      checked: state.notificationsPaused,
      click: (item) => actions.setNotificationsPaused(item.checked),
    },
    { type: 'separator' },
    { label: TRAY_LABELS.quit, click: () => actions.quit() },
  ];
}

/** macOS wants a monochrome template image; other platforms get the coloured one. */
export function trayIconPath(resourcesDir: string, platform: NodeJS.Platform): string {
  return path.join(resourcesDir, 'tray', platform === 'darwin' ? 'trayTemplate.png' : 'tray.png');
}

export interface AppTray {
  update(state: TrayState): void;
  destroy(): void;
}

export function createAppTray(options: { iconPath: string; actions: TrayActions; platform: NodeJS.Platform }): AppTray {
  const image = nativeImage.createFromPath(options.iconPath);
  if (options.platform === 'darwin') image.setTemplateImage(true);
  const tray = new Tray(image);
  tray.on('click', () => options.actions.open());
  const update = (state: TrayState) => {
    tray.setToolTip(trayTooltip(state));
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(state, options.actions)));
    // No badge for demo data: a number on the dock icon would read as real breaches.
    app.setBadgeCount(state.signInNeeded || state.demo ? 0 : state.unresolved);
  };
  update(INITIAL_TRAY_STATE);
  return { update, destroy: () => tray.destroy() };
}
