import { Notification } from 'electron';
import type { CoreNotification } from '../../shared/ipc/host.ts';

export interface Notifier {
  show(notification: CoreNotification): void;
}

/**
 * Shows the core's notifications. Each one is held until it is clicked or closed: Electron drops
 * the click handler of a Notification that has been garbage-collected.
 */
export function createNotifier(options: { iconPath?: string | undefined; onClick(breachId: string | undefined): void }): Notifier {
  const live = new Set<Notification>();
  return {
    show(notification) {
      if (!Notification.isSupported()) return;
      const shown = new Notification({ title: notification.title, body: notification.body, ...(options.iconPath ? { icon: options.iconPath } : {}) });
      live.add(shown);
      const release = () => live.delete(shown);
      shown.on('click', () => {
        release();
        options.onClick(notification.breachId);
      });
      shown.on('close', release);
      shown.on('failed', release);
      shown.show();
    },
  };
}
