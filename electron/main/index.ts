import { app } from 'electron';
import { shellPaths } from './paths.ts';
import { registerAppScheme } from './protocol.ts';
import { resolveRenderer } from './renderer.ts';
import { guardDefaultSession, installSecurityGuards } from './security.ts';
import { startShell } from './shell.ts';

// Entry of the main process. Order matters: the scheme is registered and the web-contents guard
// installed before anything can create a web contents; sessions exist only once the app is ready,
// so the default session is guarded first thing after `ready`. One instance only; a second
// launch shows the first.
registerAppScheme();
const renderer = resolveRenderer({ isPackaged: app.isPackaged, devServerUrl: process.env.ELECTRON_RENDERER_URL });
installSecurityGuards({ isTrustedUrl: renderer.isTrustedUrl });

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(() => {
    guardDefaultSession({ isTrustedUrl: renderer.isTrustedUrl });
    const paths = shellPaths({
      mainDir: import.meta.dirname,
      userData: app.getPath('userData'),
      logs: app.getPath('logs'),
      appPath: app.getAppPath(),
      isPackaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
    });
    startShell({ paths, renderer, platform: process.platform, argv: process.argv });
  });
}
