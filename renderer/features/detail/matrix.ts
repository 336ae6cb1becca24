import type { BreachDetail, CellState } from '../../../shared/ipc/views.ts';
import type { ResolutionChange } from '../../state/detail.ts';

export interface Tally {
  resolved: number;
  total: number;
}

export function tally(cells: (CellState | undefined)[]): Tally {
  const present = cells.filter((cell): cell is CellState => cell !== undefined);
  return { resolved: present.filter((cell) => cell.resolved).length, total: present.length };
}

export function dataClassesOf(detail: BreachDetail): string[] {
  // The breach's own list is authoritative and ordered; cells only add classes it lacks.
  const names = [...detail.breach.dataClasses];
  for (const account of detail.accounts) for (const name of Object.keys(account.cells)) if (!names.includes(name)) names.push(name);
  return names;
}

export function columnCells(detail: BreachDetail, dataClass: string): (CellState | undefined)[] {
  return detail.accounts.map((account) => account.cells[dataClass]);
}

export interface FailedCell {
  email: string;
  dataClass: string;
  reason: string;
}

export function failedCells(detail: BreachDetail): FailedCell[] {
  const failed: FailedCell[] = [];
  for (const account of detail.accounts) for (const [dataClass, cell] of Object.entries(account.cells)) if (cell.failed) failed.push({ email: account.email, dataClass, reason: cell.failed.reason });
  return failed;
}

export function pendingCount(detail: BreachDetail): number {
  let count = 0;
  for (const account of detail.accounts) for (const cell of Object.values(account.cells)) if (cell.pending) count++;
  return count;
}

type ResolutionPart = ResolutionChange & { dataClasses: string[] };

/**
 * A change cut down to the cells it changes, as shown (pending changes included): "Mark all
 * resolved" with one email's passwords already resolved queues nothing for that cell, so
 * "N changes queued" counts only what changes. Emails left with the same classes share a part;
 * a part for every email of the breach names none (as the change asked).
 */
export function changesThatMatter(detail: BreachDetail, change: ResolutionChange): ResolutionPart[] {
  const emails = change.emails ?? detail.accounts.map((account) => account.email);
  const classes = change.dataClasses ?? dataClassesOf(detail);
  const parts = new Map<string, ResolutionPart>();
  for (const account of detail.accounts) {
    if (!emails.includes(account.email)) continue;
    const changing = classes.filter((name) => account.cells[name] !== undefined && account.cells[name].resolved !== change.resolved);
    if (changing.length === 0) continue;
    const key = changing.join('\u0000');
    const part = parts.get(key);
    if (part) part.emails!.push(account.email);
    else parts.set(key, { breachId: change.breachId, emails: [account.email], dataClasses: changing, resolved: change.resolved });
  }
  return [...parts.values()].map((part) =>
    change.emails === undefined && part.emails!.length === detail.accounts.length ? { breachId: part.breachId, dataClasses: part.dataClasses, resolved: part.resolved } : part,
  );
}
