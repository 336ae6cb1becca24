import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, resetElectron } from './fakeElectron.ts';

vi.mock('electron', async () => (await import('./fakeElectron.ts')).electron);

const { applyStartAtLogin, autostartEntry, quoteExec, startedHidden } = await import('../../electron/main/loginItem.ts');

let dir: string;
beforeEach(() => {
  resetElectron();
  dir = mkdtempSync(path.join(os.tmpdir(), 'login-item-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = (platform: NodeJS.Platform, overrides = {}) => ({ platform, isPackaged: true, execPath: '/opt/Breach Monitor/breach-monitor', configHome: dir, ...overrides });

describe('start at login', () => {
  it('uses Electron on macOS and Windows, starting hidden', () => {
    applyStartAtLogin(true, env('win32'));
    expect(fake().app.loginItemSettings).toEqual({ openAtLogin: true, args: ['--hidden'] });
    applyStartAtLogin(false, env('darwin'));
    expect(fake().app.loginItemSettings).toEqual({ openAtLogin: false, args: ['--hidden'] });
  });

  it('writes and removes an XDG autostart entry on Linux, preferring the AppImage path', () => {
    const file = path.join(dir, 'autostart', 'breach-monitor.desktop');
    applyStartAtLogin(true, env('linux', { appImage: '/home/a/Apps/Breach-Monitor.AppImage' }));
    expect(readFileSync(file, 'utf8')).toContain('Exec="/home/a/Apps/Breach-Monitor.AppImage" --hidden');
    applyStartAtLogin(false, env('linux'));
    expect(existsSync(file)).toBe(false);
    applyStartAtLogin(false, env('linux'));
  });

  it('never registers a development run', () => {
    applyStartAtLogin(true, env('linux', { isPackaged: false }));
    applyStartAtLogin(true, env('win32', { isPackaged: false }));
    expect(existsSync(path.join(dir, 'autostart'))).toBe(false);
    expect(fake().app.loginItemSettings).toBeUndefined();
  });

  it('quotes the executable as the Desktop Entry specification asks', () => {
    expect(quoteExec('/opt/Breach Monitor/app')).toBe('"/opt/Breach Monitor/app"');
    expect(quoteExec('/a"b$c`d\\e%f')).toBe('"/a\\\\"b\\\\$c\\\\`d\\\\\\\\e%%f"');
    expect(autostartEntry('/x')).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Breach Monitor\nExec="\/x" --hidden\n/);
  });

  it('knows when the OS started the app', () => {
    expect(startedHidden(['app', '--hidden'], 'linux')).toBe(true);
    expect(startedHidden(['app'], 'linux')).toBe(false);
    expect(startedHidden(['app'], 'darwin')).toBe(false);
  });
});
