import type { BreachDetail, CellState } from '../../../shared/ipc/views.ts';

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
  for (const account of detail.accounts)
    for (const [dataClass, cell] of Object.entries(account.cells)) if (cell.failed) failed.push({ email: account.email, dataClass, reason: cell.failed.reason });
  return failed;
}

export function pendingCount(detail: BreachDetail): number {
  let count = 0;
  for (const account of detail.accounts) for (const cell of Object.values(account.cells)) if (cell.pending) count++;
  return count;
}
