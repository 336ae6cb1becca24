// The app without Electron: the reference service (the default account server), the real core
// in this Node process, and the browser host serving the built renderer. `npm start` uses it
// when the Electron runtime is missing; the end-to-end tests use it as their app.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService } from '../server/app.ts';
import { startCore, type Core, type CoreOptions } from '../electron/core/app.ts';
import { createBrowserHostBridge } from '../electron/browser-host/browserHostBridge.ts';
import { startBrowserHost, type BrowserHost, type BrowserHostOptions } from '../electron/browser-host/BrowserHost.ts';
import type { HostBridge } from '../electron/core/host.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const RENDERER_DIR = path.join(ROOT, 'out', 'renderer');

export interface BrowserAppOptions {
  /** The app's data folder. */
  dataDir: string;
  /** The reference service: started here unless `service: false` (another server is configured). */
  service?: { port: number; dataDir: string; catalogFile?: string } | false;
  /** Sign-in configuration when not the local reference service. */
  config?: CoreOptions['config'];
  /** The browser host's port: kept if free, otherwise any free port (see `host.origin`). */
  hostPort?: number;
  /** The browser host's secret; a fresh one per start otherwise. */
  hostSecret?: string;
  /** Override the system browser (tests drive their own). */
  openExternal?: HostBridge['openExternal'];
  keychain?: boolean;
  log?: (line: string) => void;
  /** The local service `npm start` runs, restarted when the person changes where breach data comes from. */
  localService?: HostBridge['localService'];
  /** The core's log (none by default). */
  logger?: CoreOptions['logger'];
  /** For tests: every message between the page and the core (BrowserHostOptions.onTraffic). */
  onTraffic?: BrowserHostOptions['onTraffic'];
}

export interface BrowserApp {
  /** A new one-time link to the app (two minutes, one use). */
  launchUrl(): string;
  origin: string;
  core: Core;
  service: RunningService | undefined;
  host: BrowserHost;
  close(): Promise<void>;
}

export async function startBrowserApp(options: BrowserAppOptions): Promise<BrowserApp> {
  const service = options.service
    ? await startService({
        port: options.service.port,
        dataDir: options.service.dataDir,
        dev: true,
        logLevel: 'warn',
        ...(options.service.catalogFile ? { catalogFile: options.service.catalogFile } : {}),
      })
    : undefined;
  const config = options.config ?? (service ? { issuer: service.issuer, apiBaseUrl: service.apiBaseUrl } : undefined);
  let core: Core | undefined;
  try {
    core = await startCore({
      dataDir: options.dataDir,
      host: createBrowserHostBridge({
        ...(options.log ? { log: options.log } : {}),
        ...(options.openExternal ? { openExternal: options.openExternal } : {}),
        ...(options.localService ? { localService: options.localService } : {}),
      }),
      ...(config ? { config } : {}),
      ...(options.keychain === false ? { keychain: false } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const hostOptions = {
      router: core.router,
      bus: core.bus,
      rendererDir: RENDERER_DIR,
      ...(options.hostSecret ? { secret: options.hostSecret } : {}),
      ...(options.onTraffic ? { onTraffic: options.onTraffic } : {}),
    };
    const host = await startBrowserHost({ ...hostOptions, ...(options.hostPort ? { port: options.hostPort } : {}) }).catch((error: unknown) => {
      // The port of the last run is someone else's now: any free one will do.
      if (options.hostPort && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') return startBrowserHost(hostOptions);
      throw error;
    });
    const started = core;
    return {
      launchUrl: () => host.launchUrl(),
      origin: host.origin,
      core: started,
      service,
      host,
      async close() {
        await host.close();
        await started.close();
        await service?.close();
      },
    };
  } catch (error) {
    await core?.close();
    await service?.close();
    throw error;
  }
}
