import type { EventPayload } from '../../../shared/ipc/index.ts';
import { accountEmailsOf } from '../db/breachQueries.ts';
import type { ReadableDB, WritableDB } from '../db/Interface.ts';
import { getSyncState, setSyncState } from '../db/syncStateQueries.ts';
import type { SyncReport } from '../sync/SyncScheduler.ts';

/**
 * The list's "New" marks: the breaches the latest sync that brought any found new. They
 * survive a restart (kept in the account's database) and last until a later sync brings
 * other new breaches; the baseline sync of a new account marks nothing.
 */
export class NewBreachMarks {
  #ids: ReadonlySet<string> = new Set();

  /** The marks of the account just opened. */
  load(db: ReadableDB): void {
    this.#ids = readIds(db);
  }

  clear(): void {
    this.#ids = new Set();
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  get ids(): ReadonlySet<string> {
    return this.#ids;
  }

  /** After a sync: replaces the marks when it brought new breaches and returns them for notices (emails included), else []. */
  observeReport(db: WritableDB, report: SyncReport): EventPayload<'breaches-new'>['breaches'] {
    const fresh = report.diff && !report.diff.baseline ? report.diff.newBreaches : [];
    const gone = report.diff?.goneBreaches ?? [];
    if (fresh.length === 0 && gone.some((id) => this.#ids.has(id))) {
      // A "New" mark never points at a breach the service removed.
      this.#ids = new Set([...this.#ids].filter((id) => !gone.includes(id)));
      setSyncState(db, 'newBreachIds', JSON.stringify([...this.#ids]));
    }
    if (fresh.length === 0) return [];
    this.#ids = new Set(fresh.map((breach) => breach.id));
    setSyncState(db, 'newBreachIds', JSON.stringify([...this.#ids]));
    return fresh.map((breach) => ({ id: breach.id, breachDate: breach.breachDate, dataClasses: [...breach.dataClasses], emails: accountEmailsOf(db, breach.id) }));
  }
}

function readIds(db: ReadableDB): Set<string> {
  try {
    const ids: unknown = JSON.parse(getSyncState(db, 'newBreachIds') ?? '[]');
    return new Set(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}
