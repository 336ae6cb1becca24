import type { SyncReport } from './SyncScheduler.ts';

/**
 * Whether the service looks reachable. The host's online/offline signals say what the OS
 * knows; a sync says what actually happened: one that reached the service proves we are
 * online, one that could not reach it proves we are not (the OS often thinks it is online
 * behind a dead Wi-Fi portal).
 */
export class OnlineState {
  #online = true;

  get online(): boolean {
    return this.#online;
  }

  signal(online: boolean): void {
    this.#online = online;
  }

  observeReport(report: SyncReport): void {
    if (report.status === 'ok') this.#online = true;
    else if (report.errorKind === 'offline' || report.errorKind === 'timeout') this.#online = false;
  }
}
