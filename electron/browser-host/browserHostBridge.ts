import type { CoreNotification, HostBridge, TrayState } from '../core/host.ts';
import { openInSystemBrowser } from './systemBrowser.ts';

/**
 * The host side of the core when it runs under the browser host: the system browser for
 * sign-in, and notifications written to the terminal that started it (the page itself gets the
 * same news as events). No tray and no OS cipher here, so the secret store falls back to the
 * keychain or, without one, to memory with its warning.
 */
export function createBrowserHostBridge(options: { log?: (line: string) => void; openExternal?: (url: string) => Promise<void> } = {}): HostBridge & { readonly tray: TrayState | undefined } {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  let tray: TrayState | undefined;
  return {
    openExternal: options.openExternal ?? openInSystemBrowser,
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
