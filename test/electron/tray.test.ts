import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrayState } from '../../shared/ipc/host.ts';
import { FakeTray, fake, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { clockTime, createAppTray, TRAY_LABELS, trayIconPath, trayTooltip } = await import('../../electron/main/tray.ts');

const lastSyncAt = new Date(2024, 4, 1, 14, 5).toISOString();
const state = (overrides: Partial<TrayState> = {}): TrayState => ({ unresolved: 3, lastSyncAt, signInNeeded: false, notificationsPaused: false, syncing: false, ...overrides });

function tray(platform: NodeJS.Platform = 'linux') {
  const actions = { syncNow: vi.fn(), open: vi.fn(), setNotificationsPaused: vi.fn(), quit: vi.fn() };
  const appTray = createAppTray({ iconPath: trayIconPath('/res', platform), actions, platform });
  return { appTray, actions, fake: FakeTray.instances.at(-1)! };
}

beforeEach(() => resetElectron());

describe('tray tooltip', () => {
  it('gives the unresolved count and the last sync time', () => {
    expect(clockTime(lastSyncAt)).toBe('14:05');
    expect(trayTooltip(state())).toBe('Breach Monitor — 3 unresolved · last sync 14:05');
    expect(trayTooltip(state({ lastSyncAt: undefined }))).toBe('Breach Monitor — 3 unresolved · not synced yet');
    expect(trayTooltip(state({ syncing: true }))).toBe('Breach Monitor — 3 unresolved · syncing…');
    expect(trayTooltip(state({ signInNeeded: true }))).toBe('Breach Monitor — sign-in needed · last sync 14:05');
  });

  it('says demo data rather than count invented breaches as real, and shows no badge for them', () => {
    expect(trayTooltip(state({ demo: true }))).toBe('Breach Monitor — demo data (invented) — 3 unresolved · last sync 14:05');
    const { appTray, fake: icon } = tray();
    appTray.update(state({ demo: true }));
    expect(icon.menu!.items[0]!.label).toBe('Demo data (invented) — 3 unresolved');
    expect(fake().app.badgeCount).toBe(0);
  });
});

describe('tray', () => {
  it('starts with an empty state and the platform icon', () => {
    const { fake: icon } = tray('linux');
    expect(icon.image.path).toBe('/res/tray/tray.png');
    expect(icon.image.template).toBe(false);
    expect(icon.tooltip).toBe('Breach Monitor — 0 unresolved · not synced yet');
    const mac = tray('darwin').fake;
    expect(mac.image.path).toBe('/res/tray/trayTemplate.png');
    expect(mac.image.template).toBe(true);
  });

  it('lists status, Sync now, Open, Pause notifications and Quit', () => {
    const { appTray, fake: icon } = tray();
    appTray.update(state());
    expect(icon.menu!.items.map((item) => item.label ?? `(${item.type})`)).toEqual([
      '3 unresolved',
      'Last sync 14:05',
      '(separator)',
      TRAY_LABELS.syncNow,
      TRAY_LABELS.open,
      TRAY_LABELS.pauseNotifications,
      '(separator)',
      TRAY_LABELS.quit,
    ]);
    expect(icon.menu!.items.slice(0, 2).every((item) => item.enabled === false)).toBe(true);
    expect(icon.tooltip).toBe('Breach Monitor — 3 unresolved · last sync 14:05');
    expect(fake().app.badgeCount).toBe(3);
  });

  it('runs the actions behind each item', () => {
    const { appTray, actions, fake: icon } = tray();
    appTray.update(state());
    icon.menu!.click(TRAY_LABELS.syncNow);
    icon.menu!.click(TRAY_LABELS.open);
    icon.menu!.click(TRAY_LABELS.quit);
    expect(actions.syncNow).toHaveBeenCalledOnce();
    expect(actions.open).toHaveBeenCalledOnce();
    expect(actions.quit).toHaveBeenCalledOnce();
    icon.emit('click');
    expect(actions.open).toHaveBeenCalledTimes(2);
  });

  it('toggles notifications with a checkbox that follows the core', () => {
    const { appTray, actions, fake: icon } = tray();
    appTray.update(state());
    const pause = () => icon.menu!.items.find((item) => item.label === TRAY_LABELS.pauseNotifications)!;
    expect(pause()).toMatchObject({ type: 'checkbox', checked: false });
    icon.menu!.click(TRAY_LABELS.pauseNotifications);
    expect(actions.setNotificationsPaused).toHaveBeenLastCalledWith(true);
    appTray.update(state({ notificationsPaused: true }));
    expect(pause().checked).toBe(true);
    icon.menu!.click(TRAY_LABELS.pauseNotifications);
    expect(actions.setNotificationsPaused).toHaveBeenLastCalledWith(false);
  });

  it('cannot sync while syncing or signed out, and clears the badge when sign-in is needed', () => {
    const { appTray, actions, fake: icon } = tray();
    appTray.update(state({ syncing: true }));
    expect(() => icon.menu!.click(TRAY_LABELS.syncNow)).toThrow(/disabled/);
    appTray.update(state({ signInNeeded: true }));
    expect(icon.menu!.items[0]!.label).toBe('Sign-in needed');
    expect(() => icon.menu!.click(TRAY_LABELS.syncNow)).toThrow(/disabled/);
    expect(fake().app.badgeCount).toBe(0);
    expect(actions.syncNow).not.toHaveBeenCalled();
  });
});
