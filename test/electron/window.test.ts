import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, fake, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { createMainWindow, DEFAULT_WINDOW_STATE } = await import('../../electron/main/window.ts');
const { fitToDisplays, loadWindowState, saveWindowState } = await import('../../electron/main/windowState.ts');

let dir: string;
let statePath: string;

beforeEach(() => {
  resetElectron();
  dir = mkdtempSync(path.join(os.tmpdir(), 'window-'));
  statePath = path.join(dir, 'window-state.json');
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

function mainWindow(overrides: Partial<Parameters<typeof createMainWindow>[0]> = {}) {
  return createMainWindow({ preloadPath: '/app/out/preload/index.cjs', entryUrl: 'app://bundle/index.html', statePath, devTools: false, ...overrides });
}

describe('main window options', () => {
  it('isolates and sandboxes the renderer', () => {
    mainWindow().show();
    const [window] = FakeBrowserWindow.instances;
    expect(window!.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
    });
    expect(window!.options).toMatchObject({ show: false, title: 'Breach Monitor', width: DEFAULT_WINDOW_STATE.width, height: DEFAULT_WINDOW_STATE.height });
  });

  it('loads the entry URL and shows once ready', () => {
    mainWindow().show();
    const [window] = FakeBrowserWindow.instances;
    expect(window!.webContents.mainFrame.url).toBe('app://bundle/index.html');
    expect(window!.visible).toBe(false);
    window!.emit('ready-to-show');
    expect(window!.visible).toBe(true);
  });

  it('reuses the window and restores it when minimised', () => {
    const main = mainWindow();
    main.show();
    const [window] = FakeBrowserWindow.instances;
    window!.minimize();
    expect(main.show()).toBe(window);
    expect(window!.isMinimized()).toBe(false);
    expect(FakeBrowserWindow.instances).toHaveLength(1);
  });
});

describe('closing', () => {
  it('hides to the tray by default, and closes when the app quits', () => {
    const main = mainWindow();
    main.show();
    const [window] = FakeBrowserWindow.instances;
    window!.show();
    window!.close();
    expect(window!.isDestroyed()).toBe(false);
    expect(window!.isVisible()).toBe(false);
    main.allowClose();
    window!.close();
    expect(window!.isDestroyed()).toBe(true);
  });

  it('closes for real when close-to-tray is off, and a new window comes back on show', () => {
    const main = mainWindow();
    main.show();
    main.setCloseToTray(false);
    const [first] = FakeBrowserWindow.instances;
    const contents = first!.webContents;
    first!.close();
    expect(first!.isDestroyed()).toBe(true);
    expect(main.isOwnContents(contents as never)).toBe(false);
    main.show();
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    expect(main.isOwnContents(FakeBrowserWindow.instances[1]!.webContents as never)).toBe(true);
  });
});

describe('size and position', () => {
  it('are saved when the window closes and used for the next window', () => {
    const main = mainWindow();
    main.show();
    main.setCloseToTray(false);
    const [first] = FakeBrowserWindow.instances;
    first!.setBounds({ x: 200, y: 150, width: 1000, height: 700 });
    first!.close();
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toEqual({ x: 200, y: 150, width: 1000, height: 700, maximized: false });
    main.show();
    expect(FakeBrowserWindow.instances[1]!.options).toMatchObject({ x: 200, y: 150, width: 1000, height: 700 });
  });

  it('are saved shortly after a move, before any close', () => {
    vi.useFakeTimers();
    mainWindow().show();
    FakeBrowserWindow.instances[0]!.setBounds({ x: 10, y: 20 });
    expect(loadWindowState(statePath)).toBeUndefined();
    vi.advanceTimersByTime(600);
    expect(loadWindowState(statePath)).toMatchObject({ x: 10, y: 20 });
  });

  it('restores maximised', () => {
    saveWindowState(statePath, { x: 0, y: 0, width: 900, height: 700, maximized: true });
    mainWindow().show();
    expect(FakeBrowserWindow.instances[0]!.isMaximized()).toBe(true);
  });

  it('ignore a corrupt or foreign file', () => {
    writeFileSync(statePath, '{"width": "wide"');
    expect(loadWindowState(statePath)).toBeUndefined();
    writeFileSync(statePath, JSON.stringify({ width: 5, height: 5 }));
    expect(loadWindowState(statePath)).toBeUndefined();
    mainWindow().show();
    expect(FakeBrowserWindow.instances[0]!.options).toMatchObject({ width: DEFAULT_WINDOW_STATE.width, height: DEFAULT_WINDOW_STATE.height });
  });

  it('drop a position no display shows any more and shrink to fit', () => {
    fake().screen.workAreas = [{ x: 0, y: 0, width: 1280, height: 720 }];
    saveWindowState(statePath, { x: 3000, y: 100, width: 2000, height: 1000, maximized: false });
    mainWindow().show();
    const { options } = FakeBrowserWindow.instances[0]!;
    expect(options.x).toBeUndefined();
    expect(options).toMatchObject({ width: 1280, height: 720 });
    expect(fitToDisplays({ x: 100, y: 100, width: 800, height: 600, maximized: false }, [{ x: 0, y: 0, width: 1920, height: 1080 }])).toEqual({
      x: 100,
      y: 100,
      width: 800,
      height: 600,
      maximized: false,
    });
  });

  it('are written atomically: no temporary file is left behind', () => {
    saveWindowState(statePath, { width: 800, height: 600, maximized: false });
    saveWindowState(statePath, { width: 801, height: 600, maximized: false });
    expect(loadWindowState(statePath)).toMatchObject({ width: 801 });
    expect(readdirSync(dir)).toEqual(['window-state.json']);
    expect(() => saveWindowState(statePath, { width: 1, height: 1, maximized: false })).toThrow();
    expect(loadWindowState(statePath)).toMatchObject({ width: 801 });
  });
});
