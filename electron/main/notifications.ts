import { Notification } from 'electron';
import type { CoreNotification } from '../../shared/ipc/host.ts';

export interface Notifier {
  show(notification: CoreNotification): void;
}

/**
 * Notifications held for their clicks at once. Where the OS keeps them in a notification centre
 * they may never be closed; past this many the oldest is let go (and no longer opens its breach).
 */
export const MAX_LIVE_NOTIFICATIONS = 20;

/**
 * Shows the core's notifications. Each one is held until it is clicked or closed, or until
 * {@link MAX_LIVE_NOTIFICATIONS} newer ones are: Electron drops the click handler of a
 * Notification that has been garbage-collected.
 */
export function createNotifier(options: { iconPath?: string | undefined; onClick(breachId: string | undefined): void }): Notifier {
  // In the order shown: the first is the oldest.
  const live = new Set<Notification>();
  return {
    show(notification) {
      if (!Notification.isSupported()) return;
      const shown = new Notification({ title: notification.title, body: notification.body, ...(options.iconPath ? { icon: options.iconPath } : {}) });
      live.add(shown);
      if (live.size > MAX_LIVE_NOTIFICATIONS) {
        const oldest = live.values().next().value!;
        live.delete(oldest);
        oldest.removeAllListeners();
      }
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
