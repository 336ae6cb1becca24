import { dataClassLabel } from '../../../shared/api/dataClassNames.ts';
import type { LocalBreach, LocalCounts } from '../../../shared/api/localQuery.ts';
import type { BreachDetail, BreachList, BreachRow, CellState } from '../../../shared/ipc/index.ts';

/**
 * The local store's rows turned into what the renderer shows. Kept apart from the queries so
 * the store's shapes can change without the IPC contract moving.
 *
 * Data classes are shown by {@link dataClassLabel}: a service that speaks slugs
 * (`email-addresses`) is shown with display names (`Email addresses`). A label names the same
 * class as the service's spelling, so what the renderer sends back finds it (the outbox then
 * sends the service its own spelling).
 */
export function toBreachRow(item: LocalBreach, isNew: boolean): BreachRow {
  const accounts = item.breachedAccounts;
  return {
    breach: shownBreach(item.breach),
    emails: accounts.map((account) => account.email),
    dataClasses: item.breach.dataClasses.map((name) => ({
      name: dataClassLabel(name),
      resolved: accounts.filter((account) => Object.hasOwn(account.resolvedDataClasses, name)).length,
      total: accounts.length,
    })),
    unresolved: item.unresolved,
    pending: accounts.reduce((sum, account) => sum + account.pending.length, 0),
    failed: accounts.reduce((sum, account) => sum + account.failed.length, 0),
    isNew,
  };
}

/** `hibp`: the account's data is Have I Been Pwned's (checks/hibpCredit.ts); the list credits it when it shows a row. */
export function toBreachList(items: readonly LocalBreach[], total: number, counts: LocalCounts, newIds: ReadonlySet<string>, hibp: boolean, hiddenSensitive = 0): BreachList {
  return {
    rows: items.map((item) => toBreachRow(item, newIds.has(item.breach.id))),
    total,
    hiddenSensitive,
    includesHibp: hibp && items.length > 0,
    unresolvedByDataClass: Object.fromEntries(counts.byDataClass.map((entry) => [dataClassLabel(entry.dataClass), entry.unresolvedBreaches])),
  };
}

export function toBreachDetail(item: LocalBreach, isNew: boolean, hibp: boolean): BreachDetail {
  return {
    breach: shownBreach(item.breach),
    isNew,
    includesHibp: hibp,
    accounts: item.breachedAccounts.map((account) => {
      const failed = new Map(account.failed.map((entry) => [entry.dataClass, entry.reason]));
      const pending = new Set(account.pending);
      const local = new Set(account.localOnly ?? []);
      const cells = new Map<string, CellState>();
      for (const name of item.breach.dataClasses) {
        const resolved = Object.hasOwn(account.resolvedDataClasses, name) ? account.resolvedDataClasses[name] : undefined;
        const reason = failed.get(name);
        cells.set(dataClassLabel(name), {
          resolved: resolved !== undefined,
          ...(resolved?.resolvedAt ? { resolvedAt: resolved.resolvedAt } : {}),
          pending: pending.has(name),
          ...(reason !== undefined ? { failed: { reason } } : {}),
          ...(local.has(name) ? { localOnly: true } : {}),
        });
      }
      return { email: account.email, cells: Object.fromEntries(cells) };
    }),
  };
}

function shownBreach(breach: LocalBreach['breach']): LocalBreach['breach'] {
  return { ...breach, dataClasses: breach.dataClasses.map(dataClassLabel) };
}
