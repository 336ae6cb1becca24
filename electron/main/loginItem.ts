import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { app } from 'electron';

/** Passed when the OS starts the app at login: it then starts in the tray, without a window. */
export const HIDDEN_ARG = '--hidden';
const AUTOSTART_FILE = 'breach-monitor.desktop';

export interface LoginItemEnv {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  execPath: string;
  /** Set by AppImage to the image's own path; execPath points inside the mounted image. */
  appImage?: string | undefined;
  configHome?: string | undefined;
}

export function currentLoginItemEnv(): LoginItemEnv {
  return {
    platform: process.platform,
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    appImage: process.env.APPIMAGE,
    configHome: process.env.XDG_CONFIG_HOME,
  };
}

/**
 * macOS and Windows through Electron; Linux through an XDG autostart entry, which Electron does
 * not manage. Development runs are never registered: they would autostart a bare Electron.
 */
export function applyStartAtLogin(enabled: boolean, env: LoginItemEnv = currentLoginItemEnv()): void {
  if (!env.isPackaged) return;
  if (env.platform === 'linux') {
    const file = path.join(env.configHome || path.join(os.homedir(), '.config'), 'autostart', AUTOSTART_FILE);
    if (!enabled) return rmSync(file, { force: true });
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, autostartEntry(env.appImage || env.execPath));
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_ARG] });
}

export function autostartEntry(executable: string): string {
  return ['[Desktop Entry]', 'Type=Application', 'Name=Breach Monitor', `Exec=${quoteExec(executable)} ${HIDDEN_ARG}`, 'X-GNOME-Autostart-enabled=true', ''].join('\n');
}

/**
 * The Desktop Entry specification's Exec quoting, then its string escaping (applied to the result,
 * so a literal backslash ends up as four), and `%` doubled so it is not a field code.
 */
export function quoteExec(value: string): string {
  const quoted = `"${value.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

export function startedHidden(argv: readonly string[], platform: NodeJS.Platform): boolean {
  if (argv.includes(HIDDEN_ARG)) return true;
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
}
