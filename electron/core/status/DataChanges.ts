import type { DataChange, DataChangeReason } from '../../../shared/ipc/index.ts';

/**
 * Announces changes of the account's local data, one event per change, numbered. The number
 * lets a reply that already carries the new state (a toggle's) say which event it makes
 * unnecessary, so the window that asked does not fetch what it was just told.
 */
export class DataChanges {
  readonly #announce: (change: DataChange) => void;
  #revision = 0;

  constructor(announce: (change: DataChange) => void) {
    this.#announce = announce;
  }

  get revision(): number {
    return this.#revision;
  }

  /** `breachIds` omitted: anything may have changed (a new snapshot, a sign-out). */
  changed(reason: DataChangeReason, breachIds?: readonly string[]): DataChange {
    const change: DataChange = { reason, ...(breachIds ? { breachIds: [...new Set(breachIds)] } : {}), revision: ++this.#revision };
    this.#announce(change);
    return change;
  }
}
