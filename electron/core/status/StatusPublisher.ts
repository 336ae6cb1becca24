import type { SyncStatus as SyncStatusView, TrayState } from '../../../shared/ipc/index.ts';

export interface StatusSources {
  syncView(): SyncStatusView;
  /** Unresolved (email, data class) pairs of the open account, 0 when none is open. */
  unresolved(): number;
  signInNeeded(): boolean;
  notificationsPaused(): boolean;
  /** The open account's exposures are invented demo data. */
  demoData?(): boolean;
}

export interface StatusSinks {
  /** The `sync-changed` event. */
  syncChanged(view: SyncStatusView): void;
  /** The host's tray. */
  tray(state: TrayState): void;
}

/**
 * Tells the UIs and the tray what the sync line and the tray show, and only when that changed:
 * a sync's progress, an outbox change and a status repeat often leave both as they were. The
 * tray's count is a query over the account's data, recomputed once per data change (the
 * caller says so with `dataChanged()`), not on every status tick.
 */
export class StatusPublisher {
  readonly #sources: StatusSources;
  readonly #sinks: StatusSinks;
  #unresolved: number | undefined;
  #lastView: string | undefined;
  #lastTray: string | undefined;

  constructor(sources: StatusSources, sinks: StatusSinks) {
    this.#sources = sources;
    this.#sinks = sinks;
  }

  /** The account's data (or which account is open) changed: the next publish recounts. */
  dataChanged(): void {
    this.#unresolved = undefined;
  }

  publish(): void {
    const view = this.#sources.syncView();
    const viewKey = JSON.stringify(view);
    if (viewKey !== this.#lastView) {
      this.#lastView = viewKey;
      this.#sinks.syncChanged(view);
    }
    this.#unresolved ??= this.#sources.unresolved();
    const tray: TrayState = {
      unresolved: this.#unresolved,
      ...(view.lastSyncAt ? { lastSyncAt: view.lastSyncAt } : {}),
      signInNeeded: this.#sources.signInNeeded(),
      notificationsPaused: this.#sources.notificationsPaused(),
      syncing: view.phase !== 'idle',
      ...(this.#sources.demoData?.() ? { demo: true } : {}),
    };
    const trayKey = JSON.stringify(tray);
    if (trayKey !== this.#lastTray) {
      this.#lastTray = trayKey;
      this.#sinks.tray(tray);
    }
  }
}
