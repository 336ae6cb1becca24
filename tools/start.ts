// `npm start`: the desktop app, or — where the Electron runtime is missing — the same app in the
// browser, with the reference service as the default account server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { DEFAULT_PORT, userDataDir } from '../server/config.ts';
import { openLaunchPage, type LaunchPage } from '../electron/browser-host/launchPage.ts';
import { openFileInSystemBrowser } from '../electron/browser-host/systemBrowser.ts';
import { ROOT, startBrowserApp } from './browserApp.ts';
import { exitUnlessBundlerLoads } from './bundlerReady.ts';
import { loadHostState, newHostSecret, saveHostState } from './hostState.ts';
import { LocalServiceRunner } from './localServiceRunner.ts';
import { launchFor, savedChoice, savedHibpUrl } from '../electron/core/checks/BreachSource.ts';
import { chooseSecretStore } from '../electron/core/auth/secrets/chooseSecretStore.ts';
import type { LocalServiceLaunch } from '../electron/core/host.ts';

const APP_DATA = process.env.BREACH_MONITOR_DATA ?? path.join(userDataDir(), 'breach-monitor');

/** BREACH_SERVICE_PORT, checked: the reference service's port (6060 unless moved). */
function servicePort(): number {
  const raw = process.env.BREACH_SERVICE_PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`BREACH_SERVICE_PORT must be a port number from 1 to 65535, not ${JSON.stringify(raw)}.`);
  return port;
}

/** Set first thing in main(), so a bad value ends with its sentence, not a stack trace. */
let SERVICE_PORT = DEFAULT_PORT;

/** The Electron binary, when its package installed one (it cannot be downloaded everywhere). */
function electronBinary(): string | undefined {
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = path.join(dir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = path.join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs a build (vite or electron-vite), first saying what to do where the bundler cannot load (tools/bundlerReady.ts). */
async function build(npx: string, args: string[]): Promise<void> {
  await exitUnlessBundlerLoads();
  run(npx, args);
}

/** The reference service as the default account server, run for the saved choice (tools/localServiceRunner.ts). */
function localService(): LocalServiceRunner {
  return new LocalServiceRunner({ port: SERVICE_PORT, dataDir: path.join(APP_DATA, 'service'), log: (line) => console.log(line) });
}

/**
 * Electron's userData folder for this unpackaged app (named after package.json's `name`), where
 * the desktop core keeps its settings: `app.getPath('userData')` without Electron.
 */
function electronUserData(): string {
  const name = 'breach-monitor';
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(homedir(), 'AppData', 'Roaming'), name);
  if (process.platform === 'darwin') return path.join(homedir(), 'Library', 'Application Support', name);
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(homedir(), '.config'), name);
}

/** The saved choice (settings and keychain), so the service starts with the person's key or demo data. */
async function savedLaunch(dataDir: string): Promise<LocalServiceLaunch> {
  const choice = savedChoice(dataDir);
  if (choice !== 'hibp') return { source: 'demo' };
  const { store } = await chooseSecretStore();
  return (await launchFor(choice, store, savedHibpUrl(dataDir))) ?? { source: 'demo' };
}

async function main(): Promise<void> {
  SERVICE_PORT = servicePort();
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const electron = electronBinary();
  if (electron) {
    await build(npx, ['electron-vite', 'build']);
    // The desktop app's default account server is the local reference service, started for the
    // person's saved choice (it cannot restart it from inside Electron: the choice applies at the next start).
    const service = localService();
    await service.start(await savedLaunch(path.join(electronUserData(), 'data')));
    const child = spawn(electron, ['.'], { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (code) => {
      void service.stop().finally(() => process.exit(code ?? 0));
    });
    return;
  }

  console.log('The Electron runtime is not installed on this machine, so Breach Monitor opens in your web browser instead.');
  // Tests that run this file build the renderer once themselves (they share out/ with other tests).
  if (process.env.BREACH_MONITOR_SKIP_BUILD !== '1') await build(npx, ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  const dataDir = path.join(APP_DATA, 'app');
  const log = (line: string) => console.log(line);
  const service = localService();
  // A stop (Ctrl-C, SIGTERM) from the first moment on also stops the service this run starts,
  // even while it or the app is still starting: without a handler yet, a signal would end this
  // process at once and leave the service running alone.
  const running: { app?: Awaited<ReturnType<typeof startBrowserApp>> } = {};
  let launchPage: LaunchPage | undefined;
  const stop = async () => {
    launchPage?.remove();
    await running.app?.close();
    await service.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const endpoints = await service.start(await savedLaunch(dataDir));
  // The same port and secret as last time when the port is free, so an open tab reconnects.
  const stateFile = path.join(dataDir, 'browser-host.json');
  const saved = loadHostState(stateFile);
  const secret = saved?.secret ?? newHostSecret();
  const app = await startBrowserApp({
    dataDir,
    service: false,
    ...(endpoints ? { config: endpoints } : {}),
    log,
    hostSecret: secret,
    localService: service,
    ...(saved ? { hostPort: saved.port } : {}),
  });
  running.app = app;
  const port = Number(new URL(app.origin).port);
  if (saved && saved.port !== port) console.log(`Port ${saved.port} of the last run is taken now; the app moved to port ${port}.`);
  saveHostState(stateFile, { port, secret });
  // Each link works once, for two minutes; the browser gets its own through a private page, so
  // no code appears on a command line.
  console.log(`Open ${app.launchUrl()}  (works once, for two minutes; press Enter for a new link)`);
  if (!process.env.CI && process.env.BREACH_MONITOR_NO_BROWSER !== '1') {
    openLaunchPage(app.launchUrl(), openFileInSystemBrowser)
      .then((page) => (launchPage = page))
      .catch(() => console.log('(Could not open a browser by itself: open the address above.)'));
  }
  if (process.stdin.isTTY) {
    process.stdin.on('data', () => console.log(`Open ${app.launchUrl()}`));
    process.stdin.unref();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
