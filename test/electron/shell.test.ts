import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newBreachesNotification } from '../../shared/ipc/host.ts';
import { FakeBrowserWindow, FakeNotification, FakeTray, FakeUtilityProcess, FakeWebFrame, fake, ipcEvent, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { shellPaths } = await import('../../electron/main/paths.ts');
const { resolveRenderer } = await import('../../electron/main/renderer.ts');
const { startShell } = await import('../../electron/main/shell.ts');
const { TRAY_LABELS } = await import('../../electron/main/tray.ts');

let dir: string;
const shells: ReturnType<typeof startShell>[] = [];

beforeEach(() => {
  resetElectron();
  dir = mkdtempSync(path.join(os.tmpdir(), 'shell-'));
  mkdirSync(path.join(dir, 'out', 'renderer'), { recursive: true });
  writeFileSync(path.join(dir, 'out', 'renderer', 'index.html'), '<!doctype html>');
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(shells.splice(0).map((shell) => shell.core.stop(0)));
  rmSync(dir, { recursive: true, force: true });
});

function start(options: { platform?: NodeJS.Platform; argv?: string[] } = {}) {
  const paths = shellPaths({
    mainDir: path.join(dir, 'out', 'main'),
    userData: path.join(dir, 'userData'),
    logs: path.join(dir, 'logs'),
    appPath: dir,
    isPackaged: false,
    resourcesPath: '/unused',
  });
  const shell = startShell({ paths, renderer: resolveRenderer({ isPackaged: true }), platform: options.platform ?? 'linux', argv: options.argv ?? ['electron', '.'] });
  shells.push(shell);
  return { shell, paths, window: () => FakeBrowserWindow.instances.at(-1)!, child: () => FakeUtilityProcess.instances.at(-1)!, tray: () => FakeTray.instances.at(-1)! };
}

/** The preload of a window asking for its port, as Electron delivers it to ipcMain. */
function requestPort(window: FakeBrowserWindow, frame = window.webContents.mainFrame) {
  fake().ipcMain.emit('core-port-request', ipcEvent(window.webContents, frame));
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('shell start-up', () => {
  it('serves app://, opens the window on the bundle, shows the tray and forks the core', () => {
    const { window, child, tray, paths } = start();
    expect(fake().protocol.handlers.has('app')).toBe(true);
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    expect(window().webContents.mainFrame.url).toBe('app://bundle/index.html');
    expect((window().options.webPreferences as { preload: string }).preload).toBe(path.join(dir, 'out', 'preload', 'index.cjs'));
    expect(tray().image.path).toBe(path.join(dir, 'resources', 'tray', 'tray.png'));
    expect(child().modulePath).toBe(path.join(dir, 'out', 'main', 'coreEntry.js'));
    expect(child().args).toEqual(['--data-dir', paths.dataDir]);
  });

  it('starts in the tray without a window when launched at login', () => {
    const { tray } = start({ argv: ['breach-monitor', '--hidden'] });
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    tray().menu!.click(TRAY_LABELS.open);
    expect(FakeBrowserWindow.instances).toHaveLength(1);
  });

  it('sets the app user model id on Windows so notifications show', () => {
    start({ platform: 'win32' });
    expect(fake().app.appUserModelId).toBe('org.breachmonitor.desktop');
  });

  it('brings the window back when a second instance starts', () => {
    const { window } = start();
    window().hide();
    fake().app.emit('second-instance');
    expect(window().isVisible()).toBe(true);
  });
});

describe('ports to the core', () => {
  it('go only to the top frame of our window', () => {
    const { window, child } = start();
    const own = window();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    requestPort(own, new FakeWebFrame('app://bundle/index.html', own.webContents.mainFrame));
    const stranger = new FakeBrowserWindow({});
    void stranger.loadURL('app://bundle/index.html');
    requestPort(stranger);
    expect(own.webContents.posted).toEqual([]);
    expect(stranger.webContents.posted).toEqual([]);
    expect(child().messages('connect')).toEqual([]);
    requestPort(own);
    expect(own.webContents.posted.map((entry) => entry.channel)).toEqual(['core-port']);
    expect(child().messages('connect')).toHaveLength(1);
    warn.mockRestore();
  });
});

describe('notifications', () => {
  it('are shown when the core asks, and a click shows the window and opens the breach', async () => {
    const { window, child } = start();
    requestPort(window());
    window().hide();
    child().send({ type: 'notify', notification: newBreachesNotification([{ id: 'Adobe', breachDate: '2013-10-04', dataClasses: ['Passwords'], emails: ['alice@example.com'] }]) });
    await tick();
    const [notification] = FakeNotification.instances;
    expect(notification!.options.title).toBe('New breach: Adobe');
    notification!.emit('click');
    expect(window().isVisible()).toBe(true);
    expect(child().messages('open-breach')).toEqual([{ type: 'open-breach', id: 'Adobe' }]);
  });

  it('wait for a recreated window to connect before opening the breach', () => {
    const { shell, window, child } = start();
    shell.window.setCloseToTray(false);
    window().close();
    shell.openBreach('Adobe');
    const reopened = window();
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    expect(child().messages('open-breach')).toEqual([]);
    requestPort(reopened);
    expect(child().posted.map((entry) => (entry.message as { type: string }).type)).toEqual(['connect', 'open-breach']);
  });

  it('for a summary only show the window', () => {
    const { shell, window, child } = start();
    requestPort(window());
    window().hide();
    shell.openBreach(undefined);
    expect(window().isVisible()).toBe(true);
    expect(child().messages('open-breach')).toEqual([]);
  });
});

describe('tray and settings', () => {
  it('send Sync now and notification pauses to the core, and follow its tray state', async () => {
    const { child, tray } = start();
    tray().menu!.click(TRAY_LABELS.syncNow);
    tray().menu!.click(TRAY_LABELS.pauseNotifications);
    expect(child().messages('signal')).toEqual([
      { type: 'signal', signal: 'sync-now' },
      { type: 'signal', signal: 'pause-notifications' },
    ]);
    child().send({ type: 'tray', state: { unresolved: 4, signInNeeded: false, notificationsPaused: true, syncing: false } });
    await tick();
    expect(tray().tooltip).toMatch(/^Breach Monitor — 4 unresolved/);
    expect(fake().app.badgeCount).toBe(4);
  });

  it('apply close-to-tray from the core', async () => {
    const { window, child } = start();
    window().close();
    expect(window().isDestroyed()).toBe(false);
    child().send({ type: 'settings', startAtLogin: false, closeToTray: false });
    await tick();
    window().close();
    expect(window().isDestroyed()).toBe(true);
  });

  it('quit by shutting the core down first', async () => {
    const { child, tray } = start();
    const core = child();
    tray().menu!.click(TRAY_LABELS.quit);
    expect(fake().app.quitted).toBe(false);
    expect(core.messages('shutdown')).toEqual([{ type: 'shutdown' }]);
    core.exit(0);
    await vi.waitFor(() => expect(fake().app.quitted).toBe(true));
    expect(tray().destroyed).toBe(true);
    expect(FakeUtilityProcess.instances).toHaveLength(1);
  });
});

describe('machine signals', () => {
  it('forward sleep, wake and the network going away and coming back', async () => {
    vi.useFakeTimers();
    const { child } = start();
    fake().powerMonitor.emit('suspend');
    fake().powerMonitor.emit('resume');
    fake().net.online = false;
    await vi.advanceTimersByTimeAsync(15_000);
    fake().net.online = true;
    await vi.advanceTimersByTimeAsync(15_000);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(
      child()
        .messages('signal')
        .map((message) => (message as { signal: string }).signal),
    ).toEqual(['suspend', 'resume', 'offline', 'online']);
  });

  it('tell a core that has just started when the machine is offline', async () => {
    fake().net.online = false;
    const { child } = start();
    child().send({ type: 'ready' });
    await tick();
    expect(child().messages('signal')).toEqual([{ type: 'signal', signal: 'offline' }]);
  });
});
