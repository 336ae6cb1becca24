// `npm start`: the desktop app, or — where the Electron runtime is missing — the same app in the
// browser, with the reference service as the default account server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startService } from '../server/app.ts';
import { DEFAULT_PORT, userDataDir } from '../server/config.ts';
import { openInSystemBrowser } from '../electron/browser-host/systemBrowser.ts';
import { ROOT, startBrowserApp } from './browserApp.ts';

const SERVICE_PORT = Number(process.env.BREACH_SERVICE_PORT ?? DEFAULT_PORT);
const APP_DATA = process.env.BREACH_MONITOR_DATA ?? path.join(userDataDir(), 'breach-monitor');

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

/** The issuer and API of a reference service already listening on `port`, if that is what it is. */
async function runningService(port: number): Promise<{ issuer: string; apiBaseUrl: string } | undefined> {
  const origin = `http://127.0.0.1:${port}`;
  try {
    const index = (await (await fetch(origin + '/', { signal: AbortSignal.timeout(2000) })).json()) as { service?: string; issuer?: string; api?: string };
    if (index.service !== 'breach-alert' || !index.issuer || !index.api) return undefined;
    return { issuer: index.issuer, apiBaseUrl: origin + index.api };
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const electron = electronBinary();
  if (electron) {
    run(npx, ['electron-vite', 'build']);
    // The desktop app's default account server is the local reference service.
    const service = await startService({ port: SERVICE_PORT, dataDir: path.join(APP_DATA, 'service'), dev: true, logLevel: 'warn' }).catch(async (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && (await runningService(SERVICE_PORT))) return undefined;
      throw error;
    });
    const child = spawn(electron, ['.'], { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (code) => {
      void (service ? service.close() : Promise.resolve()).finally(() => process.exit(code ?? 0));
    });
    return;
  }

  console.log('The Electron runtime is not installed on this machine, so Breach Monitor opens in your web browser instead.');
  run(npx, ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  const dataDir = path.join(APP_DATA, 'app');
  const log = (line: string) => console.log(line);
  let app;
  try {
    app = await startBrowserApp({ dataDir, service: { port: SERVICE_PORT, dataDir: path.join(APP_DATA, 'service') }, log });
  } catch (error) {
    // A reference service already on the port (from `npm run server`, or another start): use it.
    const running = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? await runningService(SERVICE_PORT) : undefined;
    if (!running) throw error;
    app = await startBrowserApp({ dataDir, service: false, config: running, log });
  }
  console.log(`Reference service: ${app.service?.apiBaseUrl ?? `already running on port ${SERVICE_PORT}`} (demo users: alice@example.com, bob@example.com, carol@example.com; any password)`);
  console.log(`Open ${app.openUrl}`);
  if (!process.env.CI && process.env.BREACH_MONITOR_NO_BROWSER !== '1') {
    openInSystemBrowser(app.openUrl).catch(() => console.log('(Could not open a browser by itself: open the address above.)'));
  }
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
