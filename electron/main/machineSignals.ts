import { net, powerMonitor } from 'electron';
import type { HostSignal } from '../../shared/ipc/host.ts';

export const ONLINE_POLL_MS = 15_000;

/**
 * Tells the core about the machine: sleep and wake, and the network coming and going. Online is
 * polled from the main process because the renderer may be closed (the app lives in the tray).
 */
export function watchMachineSignals(send: (signal: HostSignal) => void, pollMs = ONLINE_POLL_MS): { stop(): void; isOnline(): boolean } {
  let online = net.isOnline();
  const check = () => {
    const now = net.isOnline();
    if (now === online) return;
    online = now;
    send(now ? 'online' : 'offline');
  };
  const onResume = () => {
    send('resume');
    check();
  };
  const onSuspend = () => send('suspend');
  powerMonitor.on('resume', onResume);
  powerMonitor.on('suspend', onSuspend);
  const timer = setInterval(check, pollMs);
  timer.unref?.();
  return {
    stop() {
      clearInterval(timer);
      powerMonitor.off('resume', onResume);
      powerMonitor.off('suspend', onSuspend);
    },
    isOnline: () => online,
  };
}
