import path from 'node:path';
import { app, type WebContents } from 'electron';
import { PORT_REQUEST_CHANNEL } from '../../shared/ipc/monitorApi.ts';
import { startCoreProcess, type Backoff, type CoreProcess } from './coreProcess.ts';
import { createHostRequestHandler } from './hostRequests.ts';
import { applyStartAtLogin, startedHidden } from './loginItem.ts';
import { watchMachineSignals } from './machineSignals.ts';
import { createNotifier } from './notifications.ts';
import type { ShellPaths } from './paths.ts';
import { registerAppProtocol } from './protocol.ts';
import { savePdf } from './savePdf.ts';
import type { RendererLocation } from './renderer.ts';
import { onTrustedMessage } from './senderCheck.ts';
import { createAppTray, trayIconPath } from './tray.ts';
import { createMainWindow, type MainWindow } from './window.ts';

export const APP_USER_MODEL_ID = 'org.breachmonitor.desktop';

export interface ShellOptions {
  paths: ShellPaths;
  renderer: RendererLocation;
  platform: NodeJS.Platform;
  argv: readonly string[];
  backoff?: Backoff;
}

export interface Shell {
  window: MainWindow;
  core: CoreProcess;
  /** A notification was clicked: show the window and, once its page is connected, the breach. */
  openBreach(id: string | undefined): void;
}

/** Wires the OS side together once the app is ready. Security guards are installed before this. */
export function startShell(options: ShellOptions): Shell {
  const { paths, platform } = options;
  if (platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  registerAppProtocol(paths.rendererDir);

  const window = createMainWindow({
    preloadPath: paths.preloadPath,
    entryUrl: options.renderer.entryUrl,
    statePath: paths.windowStatePath,
    iconPath: platform === 'linux' ? path.join(paths.resourcesDir, 'icons', '256x256.png') : undefined,
    devTools: !app.isPackaged,
  });

  // Pages whose preload has asked for a port since they last started loading.
  const connected = new WeakSet<WebContents>();
  let pendingOpen: string | undefined;
  const flushOpen = () => {
    const contents = window.contents();
    if (pendingOpen === undefined || !contents || !connected.has(contents)) return;
    core.openBreach(pendingOpen);
    pendingOpen = undefined;
  };
  const openBreach = (id: string | undefined) => {
    window.show();
    if (id === undefined) return;
    pendingOpen = id;
    flushOpen();
  };

  const notifier = createNotifier({ iconPath: path.join(paths.resourcesDir, 'icons', '256x256.png'), onClick: openBreach });
  // The core's messages arrive asynchronously, after the tray and signals below exist.
  const core = startCoreProcess({
    entryPath: paths.coreEntryPath,
    dataDir: paths.dataDir,
    logPath: paths.coreLogPath,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    handleMessage: createHostRequestHandler({
      notify: (notification) => notifier.show(notification),
      setTray: (state) => tray.update(state),
      applySettings: (settings) => {
        window.setCloseToTray(settings.closeToTray);
        applyStartAtLogin(settings.startAtLogin);
      },
      onReady: () => {
        if (!signals.isOnline()) core.signal('offline');
      },
      savePdf: (fileName) => savePdf(window.current(), fileName),
    }),
  });
  const tray = createAppTray({
    iconPath: trayIconPath(paths.resourcesDir, platform),
    platform,
    actions: {
      syncNow: () => core.signal('sync-now'),
      open: () => window.show(),
      setNotificationsPaused: (paused) => core.signal(paused ? 'pause-notifications' : 'resume-notifications'),
      quit: () => app.quit(),
    },
  });
  const signals = watchMachineSignals((signal) => core.signal(signal));

  onTrustedMessage(PORT_REQUEST_CHANNEL, { isTrustedUrl: options.renderer.isTrustedUrl, isKnownContents: window.isOwnContents }, (event) => {
    const contents = event.sender;
    if (!connected.has(contents)) contents.on('did-start-loading', () => connected.delete(contents));
    core.connect(contents);
    connected.add(contents);
    flushOpen();
  });

  app.on('second-instance', () => window.show());
  app.on('activate', () => window.show());
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });
  let closed = false;
  app.on('before-quit', (event) => {
    window.allowClose();
    if (closed) return;
    // Give the core a moment to close its database before the process goes.
    event.preventDefault();
    signals.stop();
    void core.stop().finally(() => {
      closed = true;
      tray.destroy();
      app.quit();
    });
  });

  if (!startedHidden(options.argv, platform)) window.show();
  return { window, core, openBreach };
}
