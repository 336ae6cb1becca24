import type { CoreNotification, HostBridge, TrayState } from '../core/host.ts';

/**
 * The host side of the core when it runs under the browser host: sign-in opens in the browser
 * the app's page already runs in (the page opens the link, see renderer SignInLink), so no
 * system browser is started; notifications are written to the terminal that started it (the
 * page itself gets the same news as events). No tray and no OS cipher here, so the secret store
 * falls back to the keychain or, without one, to memory with its warning.
 */
export function createBrowserHostBridge(
  options: { log?: (line: string) => void; openExternal?: HostBridge['openExternal']; localService?: HostBridge['localService'] } = {},
): HostBridge & { readonly tray: TrayState | undefined } {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  let tray: TrayState | undefined;
  return {
    ...(options.localService ? { localService: options.localService } : {}),
    openExternal: options.openExternal ?? (() => Promise.resolve('page' as const)),
    notify(notification: CoreNotification) {
      log(`${notification.title}: ${notification.body}`);
    },
    setTrayState(state: TrayState) {
      tray = state;
    },
    get tray() {
      return tray;
    },
  };
}
