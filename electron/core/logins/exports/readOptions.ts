import { setImmediate as nextTurn } from 'node:timers/promises';
import { CoreError } from '../../../../shared/ipc/index.ts';

export interface ReadOptions {
  signal?: AbortSignal;
  /** Rows (or items) read so far, and how many there are once that is known. */
  onProgress?: (done: number, total: number | null) => void;
}

/** How many rows are read between two turns of the event loop, so progress is sent and a cancel is heard. */
export const ROWS_PER_TURN = 1000;

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CoreError('cancelled', 'The import was cancelled.');
}

/** Lets the event loop run (progress events out, a cancel in), then stops if the import was cancelled. */
export async function yieldTurn(signal: AbortSignal | undefined): Promise<void> {
  await nextTurn();
  throwIfCancelled(signal);
}
