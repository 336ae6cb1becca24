import type { ChannelInput } from '../../shared/ipc/contract.ts';
import { toListQuery, type Filters } from './urlState.ts';

// The breach list's first question, shared by the list's store (state/breaches.ts) and the
// start-up preload (lib/early.ts), which asks it before the store exists.

/**
 * Rows asked first when nothing is on screen yet: a screenful and then some (rows are 88 px).
 * The answer is a few kilobytes where the whole list of a heavy account is a megabyte, so the
 * first rows draw at once and the rest follow.
 */
export const FIRST_WINDOW = 40;

/** The question for the first rows of a list: its query, cut to {@link FIRST_WINDOW} rows. */
export function firstRowsQuery(filters: Filters): ChannelInput<'breaches-list'> {
  return { ...toListQuery(filters), limit: FIRST_WINDOW };
}
